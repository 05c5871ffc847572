"""Recorded hook inputs from each agent's documentation, replayed through ``tooldeck hook``.

Every fixture names the page its shape comes from. Every answer is validated against the
output schema that page documents (transcribed below, with ``additionalProperties: false`` so
a misspelt key fails), and against what the agent actually honours.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tooldeck.deck import Deck
from tooldeck.plugins.agent_hooks.decide import answer, judge

FIXTURES = Path(__file__).with_name("fixtures")
CASES = sorted(FIXTURES.glob("*.json"))

_REASON = {"type": "string", "minLength": 1}

# https://code.claude.com/docs/en/hooks — "JSON output", "PreToolUse decision control",
# "PostToolUse decision control"
CLAUDE_PRE = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "continue": {"type": "boolean"}, "stopReason": {"type": "string"},
        "suppressOutput": {"type": "boolean"}, "systemMessage": {"type": "string"},
        "hookSpecificOutput": {
            "type": "object", "additionalProperties": False,
            "required": ["hookEventName"],
            "properties": {
                "hookEventName": {"const": "PreToolUse"},
                "permissionDecision": {"enum": ["allow", "deny", "ask"]},
                "permissionDecisionReason": {"type": "string"},
                "updatedInput": {"type": "object"},
                "additionalContext": {"type": "string"},
            },
        },
    },
}
CLAUDE_POST = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "continue": {"type": "boolean"}, "stopReason": {"type": "string"},
        "suppressOutput": {"type": "boolean"}, "systemMessage": {"type": "string"},
        "decision": {"const": "block"}, "reason": {"type": "string"},
        "hookSpecificOutput": {
            "type": "object", "additionalProperties": False,
            "required": ["hookEventName"],
            "properties": {
                "hookEventName": {"const": "PostToolUse"},
                "additionalContext": {"type": "string"},
                "updatedMCPToolOutput": {},
            },
        },
    },
}
# https://developers.openai.com/codex/hooks and codex-rs/hooks/schema/generated/
# pre-tool-use.command.output.schema.json: the same wire shape, but only deny (with a
# non-empty reason) is honoured; allow without updatedInput and ask are rejected.
CODEX_PRE = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "continue": {"const": True}, "systemMessage": {"type": "string"},
        "hookSpecificOutput": {
            "type": "object", "additionalProperties": False,
            "required": ["hookEventName", "permissionDecision", "permissionDecisionReason"],
            "properties": {
                "hookEventName": {"const": "PreToolUse"},
                "permissionDecision": {"const": "deny"},
                "permissionDecisionReason": _REASON,
                "additionalContext": {"type": "string"},
            },
        },
    },
}
CODEX_POST = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "continue": {"type": "boolean"}, "stopReason": {"type": "string"},
        "systemMessage": {"type": "string"}, "decision": {"const": "block"},
        "reason": _REASON,
        "hookSpecificOutput": {
            "type": "object", "additionalProperties": False,
            "required": ["hookEventName"],
            "properties": {
                "hookEventName": {"const": "PostToolUse"},
                "additionalContext": {"type": "string"},
                "updatedMCPToolOutput": {},
            },
        },
    },
}
# https://geminicli.com/docs/hooks/reference — "Common output fields", BeforeTool, AfterTool
_GEMINI_COMMON = {
    "systemMessage": {"type": "string"}, "suppressOutput": {"type": "boolean"},
    "continue": {"type": "boolean"}, "stopReason": {"type": "string"},
    "decision": {"enum": ["allow", "deny", "block", "ask"]}, "reason": {"type": "string"},
}
GEMINI_BEFORE = {
    "type": "object", "additionalProperties": False,
    "properties": {**_GEMINI_COMMON, "hookSpecificOutput": {
        "type": "object", "additionalProperties": False,
        "properties": {"tool_input": {"type": "object"}},
    }},
    "if": {"properties": {"decision": {"enum": ["deny", "block"]}}, "required": ["decision"]},
    "then": {"required": ["reason"], "properties": {"reason": _REASON}},
}
GEMINI_AFTER = {
    "type": "object", "additionalProperties": False,
    "properties": {**_GEMINI_COMMON, "hookSpecificOutput": {
        "type": "object", "additionalProperties": False,
        "properties": {"tool_output": {"type": "string"}, "additionalContext": {"type": "string"}},
    }},
}
SCHEMAS = {
    ("claude-code", "PreToolUse"): CLAUDE_PRE, ("claude-code", "PostToolUse"): CLAUDE_POST,
    ("codex", "PreToolUse"): CODEX_PRE, ("codex", "PostToolUse"): CODEX_POST,
    ("gemini-cli", "BeforeTool"): GEMINI_BEFORE, ("gemini-cli", "AfterTool"): GEMINI_AFTER,
}


def load(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text())
    assert case["source"].startswith("https://"), f"{path.name} must cite its page"
    return case


@pytest.fixture(scope="module")
def deck() -> Any:
    deck = Deck.from_config(None)
    yield deck
    deck.close()


def validate(agent: str, event: str, stdout: str) -> dict[str, Any] | None:
    if not stdout:
        return None
    data: dict[str, Any] = json.loads(stdout)
    jsonschema.validate(data, SCHEMAS[agent, event])
    return data


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_documented_input_gets_a_documented_answer(path: Path, deck: Any) -> None:
    case = load(path)
    agent, payload = case["agent"], case["input"]
    result = answer(deck.runtime, agent, json.dumps(payload))
    assert result.exit_code == 0 and result.stderr == ""
    validate(agent, payload["hook_event_name"], result.stdout)


EXPECTED = {
    "claude-code-pre-bash-rm-root": "deny",
    "claude-code-pre-bash": "allow",
    "claude-code-pre-read": "deny",  # /home/user/my-project is outside the sandbox root
    "claude-code-pre-webfetch": "allow",
    "codex-pre-bash-rm-root": "deny",
    "codex-pre-bash": None,  # allow: Codex's own approval decides
    "codex-pre-bash-ask": "deny",  # ask: Codex cannot ask, so tooldeck refuses
    "codex-pre-apply-patch": None,
    "claude-code-pre-task": None,
    "claude-code-post-write": None,
    "gemini-cli-before-shell": "allow",
    "gemini-cli-before-shell-rm-root": "deny",
}


def verdict_of(agent: str, data: dict[str, Any] | None) -> str | None:
    if data is None:
        return None
    if agent == "gemini-cli":
        return str(data["decision"])
    return str(data["hookSpecificOutput"]["permissionDecision"])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_verdicts_follow_the_policy(name: str, deck: Any) -> None:
    case = load(FIXTURES / f"{name}.json")
    result = answer(deck.runtime, case["agent"], json.dumps(case["input"]))
    data = validate(case["agent"], case["input"]["hook_event_name"], result.stdout)
    assert verdict_of(case["agent"], data) == EXPECTED[name]


def test_codex_ask_is_refused_with_the_reason(deck: Any) -> None:
    case = load(FIXTURES / "codex-pre-bash-ask.json")
    assert judge(deck.runtime, "bash", case["input"]["tool_input"])[0] == "ask"
    result = answer(deck.runtime, "codex", json.dumps(case["input"]))
    reason = json.loads(result.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "confirmation" in reason


def test_filtered_output_reaches_each_agent_in_its_format(deck: Any) -> None:
    # as pip prints it: the package asked for, then its dependencies "(from pkg0)"
    noisy = "".join(f"Collecting pkg{i}{' (from pkg0)' if i else ''}\n"
                    f"  Downloading pkg{i}-1.0.tar.gz (10 kB)\n"
                    for i in range(40)) + "Successfully installed pkg0-1.0\n"
    inputs = {
        "claude-code": {"hook_event_name": "PostToolUse", "tool_name": "Bash",
                        "tool_input": {"command": "pip install pkg0"},
                        "tool_response": {"stdout": noisy, "stderr": ""}},
        "codex": {"hook_event_name": "PostToolUse", "tool_name": "Bash",
                  "tool_input": {"command": "pip install pkg0"}, "tool_response": noisy},
        "gemini-cli": {"hook_event_name": "AfterTool", "tool_name": "run_shell_command",
                       "tool_input": {"command": "pip install pkg0"},
                       "tool_response": {"llmContent": noisy, "returnDisplay": ""}},
    }
    for agent, payload in inputs.items():
        result = answer(deck.runtime, agent, json.dumps(payload))
        data = validate(agent, payload["hook_event_name"], result.stdout)
        assert data is not None, agent
        text = json.dumps(data)
        assert "Successfully installed" in text and "Downloading pkg7-" not in text, agent


def test_secrets_are_redacted_in_the_post_answer(deck: Any) -> None:
    payload = {"hook_event_name": "PostToolUse", "tool_name": "Bash",
               "tool_input": {"command": "cat .env"},
               "tool_response": {"stdout": "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n"}}
    result = answer(deck.runtime, "claude-code", json.dumps(payload))
    assert "AKIAIOSFODNN7EXAMPLE" not in result.stdout
    assert "REDACTED" in result.stdout


@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini-cli"])
@pytest.mark.parametrize("text", ["", "not json", "[1, 2]",
                                  '{"hook_event_name": "PreToolUse", "tool_name": "Bash"}',
                                  '{"hook_event_name": "BeforeTool", '
                                  '"tool_name": "run_shell_command", "tool_input": "ls"}'])
def test_unreadable_input_refuses_the_call(agent: str, text: str, deck: Any) -> None:
    result = answer(deck.runtime, agent, text)
    tool = json.loads(text).get("tool_name") if text.startswith("{") else None
    ours = "run_shell_command" if agent == "gemini-cli" else "Bash"
    if tool is None or tool == ours:
        assert result.exit_code == 2 and "refusing" in result.stderr
    else:  # another agent's tool and event name: no opinion
        assert result.exit_code == 0 and result.stdout == ""


@pytest.mark.parametrize("agent", ["claude-code", "gemini-cli"])
def test_bad_parameters_are_denied_not_allowed(agent: str, deck: Any) -> None:
    tool = "Bash" if agent == "claude-code" else "run_shell_command"
    event = "PreToolUse" if agent == "claude-code" else "BeforeTool"
    payload = {"hook_event_name": event, "tool_name": tool, "tool_input": {"command": 42}}
    data = validate(agent, event, answer(deck.runtime, agent, json.dumps(payload)).stdout)
    assert verdict_of(agent, data) == "deny"


AGENT_OF = {"claude-code": "claude-code-pre-bash-rm-root", "codex": "codex-pre-bash-rm-root",
            "gemini-cli": "gemini-cli-before-shell-rm-root"}


@pytest.mark.parametrize("agent", sorted(AGENT_OF))
def test_the_command_line_answers_like_the_function(agent: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    case = load(FIXTURES / f"{AGENT_OF[agent]}.json")
    proc = subprocess.run(
        [sys.executable, "-c", "from tooldeck.cli import main; raise SystemExit(main())",
         "hook", agent, "--cold"],
        input=json.dumps(case["input"]), capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    data = validate(agent, case["input"]["hook_event_name"], proc.stdout.strip())
    assert verdict_of(agent, data) == "deny"
