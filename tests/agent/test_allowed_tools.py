"""The ``allowed_tools`` mode: the tool list stays constant, the turn's selection is a tool_choice.

Against a real loopback model server: the dependency graph changes the selection between the
two requests of a run (``edit`` waits for ``read``), so the test sees whether that change
reaches the ``tools`` list (it must not, in this mode) or only the ``tool_choice``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tooldeck.adapters import adapter_for
from tooldeck.loop import StopReason, ToolLoop

from .conftest import DIALECTS, _validator

pytestmark = pytest.mark.timeout(60)

FILTER = """
[agent.tool_filter]
enabled = true
always_on = []
top_k = 0

[tools.dependencies]
enabled = true
[tools.dependencies.rules.edit]
requires = ["read"]

[[tools.permissions.read]]
pattern = "*"
action = "allow"
"""
USER = [{"role": "user", "content": "read notes.txt, fix the typo"}]


def names(body: dict[str, Any]) -> list[str]:
    return [t.get("name") or t["function"]["name"] for t in body.get("tools", [])]


def allowed(body: dict[str, Any]) -> list[str]:
    choice = body["tool_choice"]
    assert choice["type"] == "allowed_tools"
    if "allowed_tools" in choice:  # chat completions
        assert choice["allowed_tools"]["mode"] == "auto"
        return [t["function"]["name"] for t in choice["allowed_tools"]["tools"]]
    assert choice["mode"] == "auto"
    return [t["name"] for t in choice["tools"]]


def validate_choice(dialect: Any, choice: Any) -> None:
    if dialect.name == "openai_chat":
        from openai.types.chat import ChatCompletionToolChoiceOptionParam as Choice
    else:
        from openai.types.responses.response_create_params import ToolChoice as Choice
    _validator(Choice)(choice)


async def run(dialect: Any, make_deck: Any, model_server: Any, project: Any,
              **options: Any) -> tuple[Any, Any, ToolLoop]:
    (project / "notes.txt").write_text("teh notes\n")
    replies = [dialect.tool_reply([("r1", "read", {"path": "notes.txt"})]),
               dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    deck = make_deck(FILTER)
    loop = ToolLoop(deck, adapter_for(dialect.name), dialect.client(server.url), **options)
    outcome = await loop.run(USER)
    assert outcome.reason is StopReason.FINISHED
    return server, deck, loop


@pytest.mark.parametrize("name", ["openai_chat", "openai_responses"])
async def test_the_tool_list_stays_and_the_choice_narrows(
        name: str, make_deck: Any, model_server: Any, project: Any) -> None:
    dialect = DIALECTS[name]
    server, deck, loop = await run(dialect, make_deck, model_server, project,
                                   allowed_tools=True)
    first, second = server.bodies()
    everything = [tool.id for tool in deck.tools()]
    assert names(first) == names(second) == everything
    assert first["tools"] == second["tools"]          # byte-identical: the prompt cache holds
    assert allowed(first)[0] == "read" and "edit" not in allowed(first)
    assert "edit" in allowed(second) and loop.completed == {"read"}
    assert set(allowed(first)) < set(everything)
    for body in (first, second):
        dialect.validate(body)
        validate_choice(dialect, body["tool_choice"])


async def test_a_format_without_the_mode_sends_the_selection(
        make_deck: Any, model_server: Any, project: Any) -> None:
    dialect = DIALECTS["anthropic"]
    server, _deck, _loop = await run(dialect, make_deck, model_server, project,
                                    allowed_tools=True)
    first, second = server.bodies()
    assert "tool_choice" not in first and "tool_choice" not in second
    assert "edit" not in names(first) and "edit" in names(second)


async def test_without_the_mode_the_selection_is_the_tool_list(
        make_deck: Any, model_server: Any, project: Any) -> None:
    dialect = DIALECTS["openai_chat"]
    server, _deck, _loop = await run(dialect, make_deck, model_server, project)
    first, second = server.bodies()
    assert "tool_choice" not in first and "edit" not in names(first)
    assert "edit" in names(second)
