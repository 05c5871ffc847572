"""Adversarial properties of the hook adapter: no input makes it crash, exit 1 or allow by
accident, and the three agents get the same verdict for the same command."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.deck import Deck
from tooldeck.plugins.agent_hooks.agents import AGENTS
from tooldeck.plugins.agent_hooks.decide import answer

EVENTS = ["PreToolUse", "PostToolUse", "BeforeTool", "AfterTool", "Stop", ""]
TOOLS = ["Bash", "Read", "Write", "Edit", "MultiEdit", "WebFetch", "Glob", "Grep",
         "run_shell_command", "read_file", "write_file", "replace", "glob",
         "search_file_content", "apply_patch", "Agent", ""]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                max_size=4),
    max_leaves=12,
)
tool_inputs = st.fixed_dictionaries({}, optional={
    key: json_values | st.text() for key in (
        "command", "file_path", "absolute_path", "content", "old_string", "new_string", "url",
        "pattern", "path", "edits", "replace_all")
})
payloads = st.fixed_dictionaries(
    {"hook_event_name": st.sampled_from(EVENTS), "tool_name": st.sampled_from(TOOLS)},
    optional={"tool_input": tool_inputs | json_values, "tool_response": json_values,
              "cwd": st.sampled_from(["/tmp", "relative", ""]) | json_values},
)


@pytest.fixture(scope="module")
def deck() -> Iterator[Deck]:
    deck = Deck.from_config(None)
    yield deck
    deck.close()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(agent=st.sampled_from(AGENTS), payload=payloads)
def test_any_input_gets_exit_0_or_2_and_json_or_nothing(deck: Deck, agent: str,
                                                         payload: dict[str, Any]) -> None:
    # the fixture is module-scoped on purpose: one deck for every example
    result = answer(deck.runtime, agent, json.dumps(payload))
    assert result.exit_code in (0, 2)
    if result.exit_code == 2:
        assert result.stderr and not result.stdout
    elif result.stdout:
        assert isinstance(json.loads(result.stdout), dict)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=200))
def test_arbitrary_bytes_on_stdin_never_pass_silently_as_allow(deck: Deck, text: str) -> None:
    for agent in AGENTS:
        result = answer(deck.runtime, agent, text)
        assert result.exit_code in (0, 2)
        if result.stdout:
            data = json.loads(result.stdout)
            assert data.get("decision") != "allow"
            assert data.get("hookSpecificOutput", {}).get("permissionDecision") != "allow"


def verdicts(deck: Deck, command: str) -> tuple[str, str | None, str]:
    def run(agent: str, event: str, tool: str) -> str:
        text = json.dumps({"hook_event_name": event, "tool_name": tool,
                           "tool_input": {"command": command}})
        return answer(deck.runtime, agent, text).stdout

    claude = json.loads(run("claude-code", "PreToolUse", "Bash"))
    codex = run("codex", "PreToolUse", "Bash")
    gemini = json.loads(run("gemini-cli", "BeforeTool", "run_shell_command"))
    return (claude["hookSpecificOutput"]["permissionDecision"],
            json.loads(codex)["hookSpecificOutput"]["permissionDecision"] if codex else None,
            gemini["decision"])


commands = st.lists(st.sampled_from(
    ["ls", "-la", "rm", "-rf", "/", "~", "sudo", "curl", "http://x", "|", "sh", ";", "&&",
     "git", "push", "--force", "$(id)", "`id`", "echo", "hi", ">", "/etc/passwd", "eval",
     "python", "-c", "'import os'", "chmod", "777", "dd", "if=/dev/zero", "of=/dev/sda"]),
    min_size=1, max_size=8).map(" ".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command=commands | st.text(max_size=80))
def test_the_three_agents_get_the_same_verdict(deck: Deck, command: str) -> None:
    claude, codex, gemini = verdicts(deck, command)
    assert gemini == claude
    assert codex == {"allow": None, "ask": "deny", "deny": "deny"}[claude]
