"""Deck.call end to end: lookup, TAFC stripping, parameter validation, execution, quota."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.deck import Deck, ToolResult
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import Decision, ToolCall, ToolDef, ToolOutput, Verdict
from tooldeck.runtime import CallContext

C = ErrorCategory
NO_PERMISSIONS = '[plugins]\ndisable = ["permissions"]\n'
FULL = '[agent]\nautonomy = "full"\n'
Gate = Callable[..., Any]
A, Q, D = Verdict.ALLOW, Verdict.ASK, Verdict.DENY


def run(deck: Deck, params: dict[str, Any], tool: str = "echo", **kwargs: Any) -> ToolResult:
    return deck.call_sync(ToolCall(tool, params), **kwargs)


def category(result: ToolResult) -> ErrorCategory | None:
    return None if result.error is None else result.error.category


# ------------------------------------------------------------------------ lookup and params


def test_unknown_tool(make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]) -> None:
    plugin = tool_plugin("echo")
    result = run(make_deck(FULL, {"p": plugin}), {"command": "hi"}, tool="ehco")
    assert category(result) is C.TOOL_NOT_FOUND
    assert result.text == (
        "[tool_error]\ncategory: tool_not_found\nerror: unknown tool: 'ehco'; did you mean "
        "'echo'?\nsuggestion: Check the tool name. Use tool_definitions to see available "
        "tools.\nretryable: false"
    )
    assert result.decision is None
    assert plugin.executor.calls == []


def test_tafc_fields_are_stripped_before_validation_and_audit(
    make_deck: Callable[..., Deck],
    tool_plugin: Callable[..., Any], fixed_gate: Gate,
    audit_records: Callable[[Deck], list[dict[str, Any]]],
) -> None:
    plugin = tool_plugin("echo")  # its params model forbids unknown keys
    gate = fixed_gate(Verdict.ALLOW)
    deck = make_deck(NO_PERMISSIONS, {"p": plugin, "g": gate})
    params = {"command": "hi", "_tafc_think": "secret plan", "_TAFC_Think_step2": "more plan"}
    result = run(deck, params)
    assert result.ok, result.text
    assert result.call.params == {"command": "hi"}
    ((executed, _ctx),) = plugin.executor.calls
    assert executed.params == {"command": "hi"}
    assert gate.seen[0].params == {"command": "hi"}
    (record,) = audit_records(deck)
    assert record["command"] == "hi"
    assert "plan" not in json.dumps(record)


def test_tafc_fields_never_reach_the_audit_even_for_unknown_tools(
    make_deck: Callable[..., Deck], audit_records: Callable[[Deck], list[dict[str, Any]]]
) -> None:
    deck = make_deck(FULL)
    result = run(deck, {"_tafc_think": "secret plan", "x": 1}, tool="nope")
    assert category(result) is C.TOOL_NOT_FOUND
    (record,) = audit_records(deck)
    assert "secret plan" not in json.dumps(record)
    assert "_tafc_think" not in json.dumps(record)
    assert record["command"] == '{"x": 1}'


def test_a_call_with_only_tafc_fields_is_refused(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    plugin = tool_plugin("echo")
    result = run(make_deck(FULL, {"p": plugin}), {"_tafc_think": "hmm"})
    assert category(result) is C.INVALID_PARAMETERS
    assert result.error is not None
    assert "only _tafc_think reasoning fields" in result.error.message
    assert plugin.executor.calls == []


class Counted(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")

    command: str
    count: int = 1


@pytest.mark.parametrize(
    ("params", "expected", "detail"),
    [
        ({"command": 5}, C.TYPE_MISMATCH, "command: Input should be a valid string"),
        ({"command": "x", "count": "many"}, C.TYPE_MISMATCH,
         "count: Input should be a valid integer"),
        ({"command": ["a"], "count": "many"}, C.TYPE_MISMATCH, "command: "),
        ({}, C.INVALID_PARAMETERS, "command: Field required"),
        ({"count": 2}, C.INVALID_PARAMETERS, "command: Field required"),
        ({"command": "x", "colour": "red"}, C.INVALID_PARAMETERS,
         "colour: Extra inputs are not permitted"),
        ({"command": 5, "colour": "red"}, C.INVALID_PARAMETERS, "colour: "),
    ],
)


def test_parameter_validation(
    make_deck: Callable[..., Deck],
    tool_plugin: Callable[..., Any],
    params: dict[str, Any],
    expected: ErrorCategory,
    detail: str,
) -> None:
    plugin = tool_plugin("echo", params=Counted)
    result = run(make_deck(FULL, {"p": plugin}), params)
    assert category(result) is expected
    assert result.error is not None
    assert result.error.message.startswith("invalid parameters for echo: ")
    assert detail in result.error.message
    assert result.error.category.needs_parameter_reformat
    assert plugin.executor.calls == []


def test_gates_see_validated_parameters_with_defaults(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Gate
) -> None:
    gate = fixed_gate(Verdict.ALLOW)
    plugin = tool_plugin("echo", params=Counted)
    run(make_deck(NO_PERMISSIONS, {"p": plugin, "g": gate}), {"command": "x"})
    assert gate.seen[0].params == {"command": "x", "count": 1}
    ((_, ctx),) = plugin.executor.calls
    assert ctx.params == Counted(command="x", count=1)


# ------------------------------------------------------------------------------- execution


def test_executor_tool_error_is_passed_through(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    failure = ToolError(C.TIMEOUT, "took longer than 30s", exit_code=124)
    result = run(make_deck(FULL, {"p": tool_plugin("echo", raises=failure)}), {"command": "x"})
    assert result.error is failure
    assert result.text.endswith("retryable: true")
    assert result.decision is not None and result.decision.verdict is A


def test_executor_crash_is_a_permanent_failure_naming_the_executor(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    plugin = tool_plugin("echo", raises=ValueError("bad value"))
    result = run(make_deck(FULL, {"p": plugin}), {"command": "x"})
    assert category(result) is C.PERMANENT_FAILURE
    assert result.error is not None
    assert result.error.message == "executor 'recorder' failed: ValueError: bad value"


def test_tools_disabled_blocks_everything(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Gate
) -> None:
    plugin = tool_plugin("echo")
    deck = make_deck(NO_PERMISSIONS + "[tools]\nenabled = false\n",
                     {"p": plugin, "g": fixed_gate(A)})
    result = run(deck, {"command": "hi"}, confirm=True)
    assert category(result) is C.POLICY_BLOCKED
    assert result.decision is not None
    assert (result.decision.gate, result.decision.rule) == ("core", "tools.enabled")
    assert plugin.executor.calls == []


def test_session_quota(make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]) -> None:
    plugin = tool_plugin("echo")
    deck = make_deck(FULL + "[tools]\nmax_tool_calls_per_session = 2\n", {"p": plugin})
    outcomes = [run(deck, {"command": str(i)}) for i in range(3)]
    assert [r.ok for r in outcomes] == [True, True, False]
    third = outcomes[2]
    assert category(third) is C.QUOTA_BLOCKED
    assert third.error is not None
    assert third.error.message == "tool call quota exhausted (max_tool_calls_per_session=2)"
    assert third.decision is not None
    assert third.decision.rule == "tools.max_tool_calls_per_session"
    assert len(plugin.executor.calls) == 2


def test_the_quota_is_per_caller(make_deck: Callable[..., Deck],
                                 tool_plugin: Callable[..., Any]) -> None:
    """One deck serving several sessions: each caller has its own quota."""
    plugin = tool_plugin("echo")
    deck = make_deck(FULL + "[tools]\nmax_tool_calls_per_session = 2\n", {"p": plugin})

    def call(caller: str) -> ToolResult:
        return deck.call_sync(ToolCall("echo", {"command": "x"}, caller_id=caller))

    assert [call("a").ok for _ in range(3)] == [True, True, False]
    assert [call("b").ok for _ in range(2)] == [True, True]
    blocked = call("a")
    assert blocked.error is not None and blocked.error.category is C.QUOTA_BLOCKED
    assert blocked.error.message == ("tool call quota of caller 'a' exhausted "
                                     "(max_tool_calls_per_session=2)")
    assert "quota_blocked" in blocked.text


@pytest.mark.parametrize(("name", "hint"), [
    ("ECHO", "; did you mean 'echo'? (tool names are case-sensitive)"),
    ("echp", "; did you mean 'echo'?"),
    ("zzzzzz", ""),
])
def test_an_unknown_tool_names_the_closest_ones(make_deck: Callable[..., Deck],
                                                tool_plugin: Callable[..., Any], name: str,
                                                hint: str) -> None:
    result = run(make_deck(FULL, {"p": tool_plugin("echo")}), {"command": "hi"}, tool=name)
    assert result.error is not None
    assert result.error.message == f"unknown tool: {name!r}{hint}"


def test_refused_calls_do_not_use_the_quota(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    plugin = tool_plugin("echo")
    deck = make_deck(FULL + "[tools]\nmax_tool_calls_per_session = 1\n", {"p": plugin})
    assert category(run(deck, {"command": 5})) is C.TYPE_MISMATCH
    assert category(run(deck, {"command": "x"}, tool="nope")) is C.TOOL_NOT_FOUND
    assert run(deck, {"command": "x"}).ok


def test_call_sync_and_async_call_agree(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    deck = make_deck(FULL, {"p": tool_plugin("echo")})
    sync = deck.call_sync(ToolCall("echo", {"command": "a"}, caller_id="s"))
    via_loop = asyncio.run(deck.call(ToolCall("echo", {"command": "a"}, caller_id="s")))
    assert sync.text == via_loop.text == "ran: a"
    assert sync.duration_ms >= 0 and via_loop.duration_ms >= 0
    assert deck.runtime.inflight == 0


# ----------------------------------------------------------- misbehaving executors, races


class ReturnsNothing:
    name = "nothing"

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        return None  # type: ignore[return-value]


def test_an_executor_returning_no_output_is_a_failure(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    plugin = tool_plugin("echo", executor="nothing")

    class Registers:
        @hookimpl
        def tooldeck_register_executors(self, register: Callable[..., None]) -> None:
            register(ReturnsNothing())

    class ToolsOnly:
        @hookimpl
        def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
            for tool in plugin.tools:
                register(tool)

    result = run(make_deck(FULL, {"t": ToolsOnly(), "e": Registers()}), {"command": "x"})
    assert category(result) is C.PERMANENT_FAILURE
    assert result.error is not None
    assert result.error.message == "executor 'nothing' returned NoneType, not a ToolOutput"


def test_quota_holds_for_concurrent_confirmed_calls(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Gate
) -> None:
    plugin = tool_plugin("echo")
    deck = make_deck(NO_PERMISSIONS + "[tools]\nmax_tool_calls_per_session = 1\n",
                     {"p": plugin, "g": fixed_gate(Q)})

    async def slow_yes(call: ToolCall, decision: Decision) -> bool:
        await asyncio.sleep(0.01)
        return True

    async def both() -> list[ToolResult]:
        calls = [deck.call(ToolCall("echo", {"command": str(i)}), confirm=slow_yes)
                 for i in range(2)]
        return list(await asyncio.gather(*calls))

    results = asyncio.run(both())
    assert len(plugin.executor.calls) == 1
    assert sorted(r.ok for r in results) == [False, True]


class Sleeper:
    """Executor that starts, says so, and waits until cancelled."""

    name = "sleeper"

    def __init__(self) -> None:
        self.started = asyncio.Event()

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        self.started.set()
        await asyncio.sleep(60)
        return ToolOutput(tool_name=ctx.tool.id, summary="woke up")


def test_a_cancelled_call_is_still_audited(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any],
    audit_records: Callable[[Deck], list[dict[str, Any]]],
) -> None:
    sleeper = Sleeper()
    plugin = tool_plugin("echo", executor="sleeper")

    class Registers:
        @hookimpl
        def tooldeck_register_executors(self, register: Callable[..., None]) -> None:
            register(sleeper)

    class ToolsOnly:
        @hookimpl
        def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
            for tool in plugin.tools:
                register(tool)

    deck = make_deck(FULL, {"t": ToolsOnly(), "e": Registers()})
    call = ToolCall("echo", {"command": "long job"})

    async def start_then_cancel() -> None:
        task = asyncio.create_task(deck.call(call))
        await sleeper.started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(start_then_cancel())
    assert deck.runtime.inflight == 0
    (record,) = audit_records(deck)
    assert (record["tool"], record["call_id"]) == ("echo", call.call_id)
    assert record["error_category"] == "cancelled"


def test_a_failing_confirmation_callback_refuses_the_call(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Gate,
    audit_records: Callable[[Deck], list[dict[str, Any]]],
) -> None:
    plugin = tool_plugin("echo")
    deck = make_deck(NO_PERMISSIONS, {"p": plugin, "g": fixed_gate(Q)})

    def broken_prompt(call: ToolCall, decision: Decision) -> bool:
        raise EOFError("stdin closed")

    result = run(deck, {"command": "hi"}, confirm=broken_prompt)
    assert category(result) is C.CONFIRMATION_REQUIRED
    assert result.error is not None
    assert result.error.message.endswith("asking failed: EOFError: stdin closed")
    assert plugin.executor.calls == []
    assert len(audit_records(deck)) == 1


class BrokenRouter:
    @hookimpl
    def tooldeck_select_executor(self, tool: ToolDef) -> None:
        raise RuntimeError("routing table missing")


def test_a_failing_router_is_a_permanent_failure(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any],
    audit_records: Callable[[Deck], list[dict[str, Any]]],
) -> None:
    plugin = tool_plugin("echo")
    deck = make_deck(FULL, {"p": plugin, "router": BrokenRouter()})
    result = run(deck, {"command": "hi"})
    assert category(result) is C.PERMANENT_FAILURE
    assert result.error is not None
    assert result.error.message == "routing 'echo' failed: RuntimeError: routing table missing"
    assert plugin.executor.calls == []
    assert len(audit_records(deck)) == 1
