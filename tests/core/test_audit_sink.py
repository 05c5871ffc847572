"""The built-in JSONL audit sink and the records the core hands it."""

from __future__ import annotations

import asyncio
import json
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck import hookimpl
from tooldeck.audit import runtime_event, safe_call_event
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import AuditEvent, Decision, Rollback, ToolCall, ToolOutput, Verdict
from tooldeck.plugins.audit import MAX_LINE_CHARS
from tooldeck.results import ToolResult
from tooldeck.runtime import CallContext
from tooldeck.safe_json import json_line

Records = Callable[[Deck], list[dict[str, Any]]]


def audit_toml(path: Path, extra: str = "") -> str:
    return f'[tools.audit]\npath = "{path}"\n{extra}'


def allow_all(tool: str = "echo") -> str:
    return f"[[tools.permissions.{tool}]]\npattern = '*'\naction = 'allow'\n"


class FailingSink:
    @hookimpl
    def tooldeck_audit(self, event: AuditEvent) -> None:
        raise RuntimeError("disk full")


class Collecting:
    def __init__(self) -> None:
        self.events: list[AuditEvent] = []

    @hookimpl
    def tooldeck_audit(self, event: AuditEvent) -> None:
        self.events.append(event)


def test_one_line_per_call_written_before_the_call_returns(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], tmp_path: Path
) -> None:
    log = tmp_path / "logs" / "audit.jsonl"
    deck = make_deck(audit_toml(log) + allow_all(), {"p": tool_plugin("echo")})

    async def three_calls() -> list[int]:
        seen = []
        for i in range(3):
            await deck.call(ToolCall("echo", {"command": f"n{i}"}))
            seen.append(len(log.read_text("utf-8").splitlines()))
        return seen

    assert asyncio.run(three_calls()) == [1, 2, 3]
    text = log.read_text("utf-8")
    assert text.endswith("\n")
    assert [json.loads(line)["command"] for line in text.splitlines()] == ["n0", "n1", "n2"]


def test_new_file_and_directory_are_private(
    make_deck: Callable[..., Deck], tmp_path: Path
) -> None:
    log = tmp_path / "fresh" / "audit.jsonl"
    make_deck(audit_toml(log))
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert stat.S_IMODE(log.parent.stat().st_mode) & 0o077 == 0


def test_existing_world_readable_file_is_made_private(
    make_deck: Callable[..., Deck], tmp_path: Path
) -> None:
    log = tmp_path / "audit.jsonl"
    log.write_text('{"old": true}\n')
    log.chmod(0o644)
    deck = make_deck(audit_toml(log))
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    deck.call_sync(ToolCall("nope", {}))
    assert len(log.read_text().splitlines()) == 2  # appended, never truncated


def test_default_location_is_the_user_data_directory(
    make_deck: Callable[..., Deck], audit_records: Records
) -> None:
    deck = make_deck("")
    deck.call_sync(ToolCall("nope", {}))
    path = deck.runtime.settings.core.audit.resolved_path()
    assert path.name == "audit.jsonl" and path.parent.name == "tooldeck"
    assert len(audit_records(deck)) == 1


def test_success_record(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], tmp_path: Path,
    audit_records: Records,
) -> None:
    log = tmp_path / "audit.jsonl"
    policy = "[[tools.permissions.echo]]\npattern = 'deploy *'\naction = 'ask'\n"
    deck = make_deck(audit_toml(log) + policy, {"p": tool_plugin("echo")})
    call = ToolCall("echo", {"command": "deploy prod"}, caller_id="session-7")
    result = deck.call_sync(call, confirm=True)
    (record,) = audit_records(deck)
    assert list(record) == [
        "ts", "kind", "v", "tool", "call_id", "command", "result", "duration_ms",
        "caller_id", "decision", "approved_by", "policy",
    ]
    assert record["kind"] == "tool_call"
    assert record["tool"] == "echo"
    assert record["call_id"] == call.call_id == result.call.call_id
    assert record["command"] == "deploy prod"
    assert record["result"] == {"type": "success"}
    assert isinstance(record["duration_ms"], float) and record["duration_ms"] >= 0
    assert record["caller_id"] == "session-7"
    assert record["decision"] == {
        "verdict": "ask", "gate": "permissions", "rule": "tools.permissions.echo[0]",
        "pattern": "deploy *", "source": str(deck.runtime.settings.document.path),
        "line": deck.runtime.settings.document.text.splitlines().index(
            "[[tools.permissions.echo]]") + 1,
    }
    assert record["approved_by"] == "pre-approved"
    assert record["policy"] == deck.runtime.digest()
    whole, _, millis = record["ts"].partition(".")
    assert whole.isdigit() and len(millis) == 3


def test_blocked_record(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], tmp_path: Path,
    audit_records: Records,
) -> None:
    policy = "[[tools.permissions.echo]]\npattern = '*rm*'\naction = 'deny'\n"
    deck = make_deck(audit_toml(tmp_path / "a.jsonl") + policy, {"p": tool_plugin("echo")})
    deck.call_sync(ToolCall("echo", {"command": "rm -rf /"}))
    (record,) = audit_records(deck)
    assert record["result"] == {"type": "blocked", "reason": "echo rule '*rm*' → deny"}
    assert record["error_category"] == "policy_blocked"
    assert record["decision"]["verdict"] == "deny"
    assert record["decision"]["pattern"] == "*rm*"
    assert "approved_by" not in record and "caller_id" not in record


@pytest.mark.parametrize(
    ("error", "outcome", "category"),
    [
        (ToolError(ErrorCategory.TIMEOUT, "timed out after 30s", exit_code=124),
         {"type": "timeout", "message": "timed out after 30s"}, "timeout"),
        (ToolError(ErrorCategory.PERMANENT_FAILURE, "exit 127", exit_code=127),
         {"type": "error", "message": "exit 127"}, "permanent_failure"),
        (ValueError("oops"),
         {"type": "error", "message": "executor 'recorder' failed: ValueError: oops"},
         "permanent_failure"),
    ],
)


def test_error_records(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], tmp_path: Path,
    audit_records: Records, error: Exception, outcome: dict[str, str], category: str,
) -> None:
    deck = make_deck(audit_toml(tmp_path / "a.jsonl") + allow_all(),
                     {"p": tool_plugin("echo", raises=error)})
    deck.call_sync(ToolCall("echo", {"command": "x"}))
    (record,) = audit_records(deck)
    assert record["result"] == outcome
    assert record["error_category"] == category
    if isinstance(error, ToolError) and error.exit_code is not None:
        assert record["exit_code"] == error.exit_code
    else:
        assert "exit_code" not in record


class FixedOutput:
    """Executor answering with a prepared ToolOutput."""

    name = "fixed"

    def __init__(self, output: ToolOutput) -> None:
        self.output = output

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        return self.output

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[..., None]) -> None:
        register(self)


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (ToolOutput("echo", "3 failed", exit_code=3, truncated=True),
         {"result": {"type": "success"}, "exit_code": 3, "truncated": True}),
        (ToolOutput("echo", "undone", exit_code=2, rollback=Rollback(restored=2, deleted=1)),
         {"result": {"type": "rollback", "restored": 2, "deleted": 1}, "exit_code": 2}),
        (ToolOutput("echo", "ok"), {"result": {"type": "success"}}),
    ],
)


def test_output_fields(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], tmp_path: Path,
    audit_records: Records, output: ToolOutput, expected: dict[str, Any],
) -> None:
    tools = tool_plugin("echo", executor="fixed")

    class ToolsOnly:
        @hookimpl
        def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
            for tool in tools.tools:
                register(tool)

    deck = make_deck(audit_toml(tmp_path / "a.jsonl") + allow_all(),
                     {"t": ToolsOnly(), "e": FixedOutput(output)})
    assert deck.call_sync(ToolCall("echo", {"command": "make test"})).ok
    (record,) = audit_records(deck)
    optional = {k: record[k] for k in ("result", "exit_code", "truncated") if k in record}
    assert optional == expected
    assert "error_category" not in record


def test_unknown_tool_record_has_no_decision(
    make_deck: Callable[..., Deck], audit_records: Records
) -> None:
    deck = make_deck("")
    deck.call_sync(ToolCall("nope", {"path": "/tmp/x"}))
    (record,) = audit_records(deck)
    assert record["command"] == "/tmp/x"
    assert record["error_category"] == "tool_not_found"
    assert "decision" not in record


def test_secrets_are_redacted_in_command_and_messages(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], tmp_path: Path,
    audit_records: Records,
) -> None:
    log = tmp_path / "a.jsonl"
    failure = ToolError(ErrorCategory.SERVER_ERROR, "upstream said: password=hunter2hunter2")
    deck = make_deck(audit_toml(log) + allow_all(), {"p": tool_plugin("echo", raises=failure)})
    command = "curl -H 'Authorization: Bearer k7Qz93xLmP2v' https://api.example.com"
    deck.call_sync(ToolCall("echo", {"command": command}))
    (record,) = audit_records(deck)
    assert record["command"] == (
        "curl -H 'Authorization: Bearer [REDACTED:bearer-token]' https://api.example.com"
    )
    assert record["result"]["message"] == "upstream said: password=[REDACTED:assignment]"
    raw = log.read_text()
    assert "k7Qz93xLmP2v" not in raw and "hunter2" not in raw


def test_long_values_are_cut(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], tmp_path: Path,
    audit_records: Records,
) -> None:
    failure = ToolError(ErrorCategory.SERVER_ERROR, "e" * 100)
    deck = make_deck(audit_toml(tmp_path / "a.jsonl", "max_value_chars = 40\n") + allow_all(),
                     {"p": tool_plugin("echo", raises=failure)})
    deck.call_sync(ToolCall("echo", {"command": "x" * 100}))
    (record,) = audit_records(deck)
    assert record["command"] == "x" * 39 + "…"
    assert record["result"]["message"] == "e" * 39 + "…"


def test_params_are_recorded_as_json_when_the_tool_has_no_input(
    make_deck: Callable[..., Deck], audit_records: Records
) -> None:
    deck = make_deck("")
    deck.call_sync(ToolCall("nope", {"b": 2, "a": "api_key=sk_live_0123456789abcdefXYZ"}))
    (record,) = audit_records(deck)
    assert record["command"] == '{"a": "api_key=[REDACTED:stripe-key]", "b": 2}'


def test_a_failing_sink_neither_fails_the_call_nor_silences_the_others(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], tmp_path: Path,
    audit_records: Records, capsys: pytest.CaptureFixture[str],
) -> None:
    collecting = Collecting()
    deck = make_deck(audit_toml(tmp_path / "a.jsonl") + allow_all(),
                     {"p": tool_plugin("echo"), "bad": FailingSink(), "good": collecting})
    result = deck.call_sync(ToolCall("echo", {"command": "hi"}))
    assert result.ok
    assert len(audit_records(deck)) == 1
    assert [e.kind for e in collecting.events] == ["tool_call"]
    assert "tooldeck: audit sink 'bad' failed: RuntimeError: disk full" in capsys.readouterr().err


def test_disabled_audit_writes_nothing(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], tmp_path: Path
) -> None:
    log = tmp_path / "a.jsonl"
    deck = make_deck(audit_toml(log, "enabled = false\n") + allow_all(),
                     {"p": tool_plugin("echo")})
    assert deck.call_sync(ToolCall("echo", {"command": "hi"})).ok
    assert not log.exists()


def test_runtime_events_are_redacted() -> None:
    event = runtime_event("policy.reload_failed", {
        "file": "/etc/tooldeck.toml",
        "reason": "example 'curl -H \"Authorization: Bearer f3Kq9ZxW2mLp7RtN\"' is bad",
        "nested": {"list": ["token=q8Zr2mKx7vLpW3tY"]},
    })
    record = event.as_record()
    assert record["kind"] == "policy.reload_failed"
    assert record["file"] == "/etc/tooldeck.toml"
    assert "f3Kq9ZxW2mLp7RtN" not in json.dumps(record)
    assert "q8Zr2mKx7vLpW3tY" not in json.dumps(record)
    assert "[REDACTED:bearer-token]" in record["reason"]


def test_a_refused_reload_is_audited_without_the_secret_it_quotes(
    make_deck: Callable[..., Deck], tmp_path: Path, audit_records: Records,
    tool_plugin: Callable[..., object],
) -> None:
    config = tmp_path / "tooldeck.toml"  # the file make_deck's documents are labelled with
    good = audit_toml(tmp_path / "a.jsonl") + allow_all("echo")
    config.write_text(good)
    deck = make_deck(good, {"tools": tool_plugin("echo")})
    config.write_text(
        good + "[[tools.permissions.echo]]\npattern = '*curl*'\naction = 'deny'\n"
        "match = ['curl -H \"Authorization: Bearer f3Kq9ZxW2mLp7RtN\" https://x']\n"
    )
    assert asyncio.run(deck.reload()) is False
    (record,) = audit_records(deck)
    assert record["kind"] == "policy.reload_failed"
    assert "should be decided by rule '*curl*'" in record["reason"]
    assert "f3Kq9ZxW2mLp7RtN" not in json.dumps(record)


def test_decision_provenance_fields() -> None:
    assert Decision(Verdict.ALLOW, "r", "g").provenance() == {"gate": "g", "source": "builtin"}
    assert Decision(Verdict.DENY, "r", "g", "p", "f").provenance() == {
        "gate": "g", "rule": "p", "source": "f",
    }
    full = Decision(Verdict.DENY, "r", "shell", "segment-rule", "f.toml", pattern="rm *",
                    line=7, segment="rm -rf x")
    assert full.provenance() == {"gate": "shell", "source": "f.toml", "rule": "segment-rule",
                                 "pattern": "rm *", "line": 7, "segment": "rm -rf x"}


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300), st.sampled_from([40, 200, 4000]))
def test_the_line_kept_on_a_call_record_is_the_line_the_sink_would_encode(
    command: str, limit: int
) -> None:
    """``safe_call_event`` encodes a plain record once; the sink writes that very line."""
    # a fixed call id: a random one holds twenty digits in a row about once in a thousand,
    # and a record with a number that long is (rightly) converted, not kept as built
    result = ToolResult(ToolCall("echo", {"command": command}, call_id="call-1",
                                 caller_id="c\u2028"),
                        output=ToolOutput("echo", "x", exit_code=0),
                        decision=Decision(Verdict.ALLOW, "ok", gate="g", rule="r"))
    event = safe_call_event(result, None, limit, policy="p")
    encoded = json_line(event.as_record(), max_chars=MAX_LINE_CHARS)
    assert event.line is None or event.line == encoded
    surrogate = any(0xD800 <= ord(c) <= 0xDFFF for c in command)
    if limit == 4000 and not surrogate and re.search("[0-9]{20}", command) is None:
        assert event.line is not None  # short, no lone surrogate or long number: kept as built
    assert attrs.evolve(event, fields={}).line is None  # a copy is encoded again
