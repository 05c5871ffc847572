"""The tool loop end to end against a real loopback model server, in every provider format.

Each scenario is asserted on what the model was sent (the server's recorded requests, also
validated against the official SDK's request types) and on the audit log.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tooldeck.adapters import adapter_for
from tooldeck.loop import BUDGET_RATIO, StopReason, ToolLoop

pytestmark = pytest.mark.timeout(60)

USER = "please work"


def start(dialect: Any, deck: Any, server: Any, **options: Any) -> ToolLoop:
    return ToolLoop(deck, adapter_for(dialect.name), dialect.client(server.url),
                    caller_id="agent-7", **options)


def opening(dialect: Any) -> list[dict[str, Any]]:
    return [{"role": "user", "content": USER}]


def window_for(dialect: Any, deck: Any, room: int) -> int:
    """A window whose budget share holds the opening and every tool schema, plus ``room``
    characters (counting one token per character), whatever tools the deck offers."""
    tools = adapter_for(dialect.name).tool_specs(deck.tools(), deck.runtime.settings.core.tafc)
    base = len(json.dumps([opening(dialect), tools], ensure_ascii=False, default=str))
    return int((base + room) / BUDGET_RATIO) + 1


def check_sent(dialect: Any, server: Any) -> None:
    for body in server.bodies():
        dialect.validate(body)


async def test_multi_step_tool_use(dialect: Any, make_deck: Any, model_server: Any,
                                   audit: Any) -> None:
    replies = [dialect.tool_reply([("c1", "bash", {"command": "echo step-one"})]),
               dialect.tool_reply([("c2", "bash", {"command": "echo step-two"})]),
               dialect.text_reply("all done")]
    server = model_server(lambda n, body: replies[n])
    outcome = await start(dialect, make_deck(), server).run(opening(dialect))

    assert outcome.reason is StopReason.FINISHED
    assert (outcome.text, outcome.iterations) == ("all done", 2)
    first, second, third = server.bodies()
    assert first[dialect.messages_key] == [{"role": "user", "content": USER}]
    assert {t.get("name") or t["function"]["name"] for t in first["tools"]} >= {"bash", "read"}
    assert dialect.results(second) == [("c1", "step-one", None)]
    assert dialect.results(third) == [("c2", "step-two", None)]
    check_sent(dialect, server)

    calls = audit("tool_call")
    assert [(c["command"], c["turn"], c["caller_id"]) for c in calls] == [
        ("echo step-one", 1, "agent-7"), ("echo step-two", 2, "agent-7")]
    (stop,) = audit("loop.stopped")
    assert stop["reason"] == "finished" and stop["iterations"] == 2
    assert stop["caller_id"] == "agent-7" and stop["adapter"] == dialect.name


async def test_parallel_calls_are_answered_in_order(dialect: Any, make_deck: Any,
                                                    model_server: Any, audit: Any) -> None:
    replies = [dialect.tool_reply([("p1", "bash", {"command": "echo alpha"}),
                                   ("p2", "bash", {"command": "echo beta"})],
                                  text="two at once"),
               dialect.text_reply("ok")]
    server = model_server(lambda n, body: replies[n])
    outcome = await start(dialect, make_deck(), server).run(opening(dialect))

    assert outcome.reason is StopReason.FINISHED and outcome.iterations == 1
    assert dialect.results(server.bodies()[1]) == [("p1", "alpha", None), ("p2", "beta", None)]
    check_sent(dialect, server)
    calls = audit("tool_call")
    assert [c["command"] for c in calls] == ["echo alpha", "echo beta"]
    assert {c["turn"] for c in calls} == {1}
    assert len({c["call_id"] for c in calls}) == 2


async def test_malformed_arguments_become_invalid_parameters(
        dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    replies = [dialect.tool_reply([("m1", "bash", '{"command": "echo hi"')]),
               dialect.text_reply("sorry")]
    server = model_server(lambda n, body: replies[n])
    outcome = await start(dialect, make_deck(), server).run(opening(dialect))

    assert outcome.reason is StopReason.FINISHED
    ((call_id, content, is_error),) = dialect.results(server.bodies()[1])
    assert call_id == "m1"
    assert content.startswith("[tool_error]\ncategory: invalid_parameters")
    assert is_error is (True if dialect.name == "anthropic" else None)
    check_sent(dialect, server)
    (record,) = audit("tool_call")
    assert record["error_category"] == "invalid_parameters"
    assert record["turn"] == 1


async def test_denied_call_reaches_the_model_as_policy_blocked(
        dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    replies = [dialect.tool_reply([("d1", "bash", {"command": "rm -rf /"})]),
               dialect.text_reply("understood")]
    server = model_server(lambda n, body: replies[n])
    outcome = await start(dialect, make_deck(), server).run(opening(dialect))

    assert outcome.reason is StopReason.FINISHED
    ((_id, content, is_error),) = dialect.results(server.bodies()[1])
    assert "category: policy_blocked" in content
    assert is_error is (True if dialect.name == "anthropic" else None)
    check_sent(dialect, server)
    (record,) = audit("tool_call")
    assert record["result"]["type"] == "blocked"
    assert record["decision"]["verdict"] == "deny"


async def test_identical_rounds_are_a_doom_loop(chat_dialect: Any, make_deck: Any,
                                                model_server: Any, audit: Any) -> None:
    server = model_server(lambda n, body: chat_dialect.tool_reply(
        [(f"c{n}", "bash", {"command": "echo same"})]))
    outcome = await start(chat_dialect, make_deck(), server).run(opening(chat_dialect))

    assert outcome.reason is StopReason.DOOM_LOOP
    assert outcome.iterations == 3
    assert "3 rounds in a row returned identical outputs" in outcome.detail
    assert len(server.requests) == 3
    assert [r[1] for r in chat_dialect.results(server.bodies()[2])] == ["same"]
    check_sent(chat_dialect, server)
    assert len(audit("tool_call")) == 3
    (stop,) = audit("loop.stopped")
    assert stop["reason"] == "doom_loop" and stop["iterations"] == 3


async def test_the_same_failing_call_is_a_doom_loop(chat_dialect: Any, make_deck: Any,
                                                    model_server: Any, audit: Any) -> None:
    # every round differs (the echo), but the call to a missing tool fails every time
    server = model_server(lambda n, body: chat_dialect.tool_reply(
        [(f"a{n}", "nosuchtool", {"x": 1}), (f"b{n}", "bash", {"command": f"echo round-{n}"})]))
    outcome = await start(chat_dialect, make_deck(), server).run(opening(chat_dialect))

    assert outcome.reason is StopReason.DOOM_LOOP
    assert "the same call to 'nosuchtool' failed 3 times (tool_not_found)" in outcome.detail
    assert len(server.requests) == 3
    (stop,) = audit("loop.stopped")
    assert stop["reason"] == "doom_loop"


async def test_iteration_cap_comes_from_the_agent_section(
        chat_dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    server = model_server(lambda n, body: chat_dialect.tool_reply(
        [(f"c{n}", "bash", {"command": f"echo n{n}"})]))
    deck = make_deck('[agent]\nmax_tool_iterations = 2\n[[tools.permissions.bash]]\n'
                     'pattern = "echo *"\naction = "allow"\n')
    outcome = await start(chat_dialect, deck, server).run(opening(chat_dialect))

    assert outcome.reason is StopReason.ITERATION_CAP
    assert outcome.iterations == 2
    assert len(server.requests) == 3  # two rounds run, the third reply's call is not
    assert [r[1] for r in chat_dialect.results(server.bodies()[2])] == ["n1"]
    assert [c["command"] for c in audit("tool_call")] == ["echo n0", "echo n1"]
    (stop,) = audit("loop.stopped")
    assert stop["reason"] == "iteration_cap"
    assert "tool iteration cap (2)" in stop["detail"]
    # the capped call is answered in the history, so the conversation stays well-formed
    last = outcome.messages[-1]
    assert "not run: the tool iteration cap (2) was reached" in str(last)
    chat_dialect.validate({chat_dialect.messages_key: outcome.messages})


async def test_context_budget_stops_before_the_next_request(
        chat_dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    big = "x" * 4000
    server = model_server(lambda n, body: chat_dialect.tool_reply(
        [(f"c{n}", "bash", {"command": f"echo {big}"})]))
    deck = make_deck()
    window = window_for(chat_dialect, deck, room=3000)
    loop = start(chat_dialect, deck, server, context_window=window, count_tokens=len)
    outcome = await loop.run(opening(chat_dialect))

    assert outcome.reason is StopReason.CONTEXT_BUDGET
    assert f"80% of the {window}-token window" in outcome.detail
    # the opening and the tool schemas fit; with the 4,000-character output they do not
    assert len(server.requests) == 1
    assert len(audit("tool_call")) == 1
    (stop,) = audit("loop.stopped")
    assert stop["reason"] == "context_budget"


async def test_compress_callback_keeps_the_loop_going(
        chat_dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    big = "x" * 4000
    replies = [chat_dialect.tool_reply([("c0", "bash", {"command": f"echo {big}"})]),
               chat_dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    seen: list[int] = []

    async def compress(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        seen.append(len(messages))
        return [messages[0], {"role": "user", "content": "(the tool output was long)"}]

    deck = make_deck()
    loop = start(chat_dialect, deck, server, context_window=window_for(chat_dialect, deck, 3000),
                 count_tokens=len, compress=compress)
    outcome = await loop.run(opening(chat_dialect))

    assert outcome.reason is StopReason.FINISHED
    assert seen == [3]
    sent = server.bodies()[1][chat_dialect.messages_key]
    assert sent[-1]["content"] == "(the tool output was long)"


async def test_fenced_bash_block_in_text_runs_in_the_same_loop(
        dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    replies = [dialect.text_reply("Let me look.\n```bash\necho fenced\n```\n"
                                  "and not this one:\n```bashrc\necho rc\n```"),
               dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    outcome = await start(dialect, make_deck(), server).run(opening(dialect))

    assert outcome.reason is StopReason.FINISHED and outcome.iterations == 1
    assert dialect.last_user_text(server.bodies()[1]) == "['bash' result]\nfenced"
    check_sent(dialect, server)
    (record,) = audit("tool_call")
    assert (record["command"], record["turn"], record["caller_id"]) == (
        "echo fenced", 1, "agent-7")


async def test_a_server_error_stops_with_model_error(chat_dialect: Any, make_deck: Any,
                                                     model_server: Any, audit: Any) -> None:
    server = model_server(lambda n, body: (500, {"error": "boom"}))
    outcome = await start(chat_dialect, make_deck(), server).run(opening(chat_dialect))

    assert outcome.reason is StopReason.MODEL_ERROR
    assert "HTTPStatusError" in outcome.detail
    (stop,) = audit("loop.stopped")
    assert stop["reason"] == "model_error" and stop["turn"] == 0


async def test_an_unreadable_response_stops_with_model_error(
        chat_dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    server = model_server(lambda n, body: {"unexpected": True})
    outcome = await start(chat_dialect, make_deck(), server).run(opening(chat_dialect))

    assert outcome.reason is StopReason.MODEL_ERROR
    assert outcome.detail.startswith("unreadable response: ")


async def test_turns_keep_counting_across_runs(chat_dialect: Any, make_deck: Any,
                                               model_server: Any, audit: Any) -> None:
    replies = [chat_dialect.tool_reply([("c1", "bash", {"command": "echo one"})]),
               chat_dialect.text_reply("first done"),
               chat_dialect.tool_reply([("c2", "bash", {"command": "echo two"})]),
               chat_dialect.text_reply("second done")]
    server = model_server(lambda n, body: replies[n])
    loop = start(chat_dialect, make_deck(), server)
    first = await loop.run(opening(chat_dialect))
    await loop.run([*first.messages, {"role": "user", "content": "again"}])

    assert [c["turn"] for c in audit("tool_call")] == [1, 3]
    assert loop.turn == 4
    check_sent(chat_dialect, server)


async def test_fenced_blocks_can_be_turned_off(openai_dialect: Any, make_deck: Any,
                                               model_server: Any, audit: Any) -> None:
    dialect = openai_dialect
    server = model_server(lambda n, body: dialect.text_reply("```bash\necho no\n```"))
    outcome = await start(dialect, make_deck(), server, fenced=False).run(opening(dialect))
    assert outcome.reason is StopReason.FINISHED and outcome.iterations == 0
    assert audit("tool_call") == []


def tool_names(body: dict[str, Any]) -> list[str]:
    return [t.get("name") or t["function"]["name"] for t in body.get("tools", [])]


async def test_schema_filter_and_dependencies_shape_the_tools_sent(
        chat_dialect: Any, make_deck: Any, model_server: Any, project: Any) -> None:
    (project / "notes.txt").write_text("teh notes\n")
    replies = [chat_dialect.tool_reply([("r1", "read", {"path": "notes.txt"})]),
               chat_dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    deck = make_deck("""
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
    """.replace("\n        ", "\n"))
    loop = start(chat_dialect, deck, server)
    outcome = await loop.run([{"role": "user", "content": "read notes.txt, fix the typo"}])

    assert outcome.reason is StopReason.FINISHED
    first, second = (tool_names(b) for b in server.bodies())
    assert first[0] == "read"                      # named in the request: first, score 1
    assert "edit" not in first                     # waits for read
    assert "edit" in second and loop.completed == {"read"}
    check_sent(chat_dialect, server)


async def test_schema_filter_top_k_limits_the_tools_sent(
        openai_dialect: Any, make_deck: Any, model_server: Any) -> None:
    server = model_server(lambda n, body: openai_dialect.text_reply("ok"))
    deck = make_deck("[agent.tool_filter]\nenabled = true\nalways_on = []\ntop_k = 2\n")
    await start(openai_dialect, deck, server).run(
        [{"role": "user", "content": "get the text of a web page"}])
    assert sorted(tool_names(server.bodies()[0])) == ["fetch", "web_scrape"]
