"""tooldeck_probe_call (Zeph's shadow probe, §7.11): allow / skip / deny just before running."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError, ErrorCategory
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict


class Probe:
    """Throwaway probe answering ``answer`` (or raising it) and recording what it saw."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.seen: list[tuple[str, int | None, str, str]] = []

    @hookimpl
    def tooldeck_probe_call(self, call: ToolCall, turn: int | None, risk: str,
                            tool: ToolDef) -> Any:
        self.seen.append((call.tool_id, turn, risk, tool.id))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def deck_with(make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any],
              fixed_gate: Any, verdict: Verdict, *probes: Probe,
              toml: str = "") -> tuple[Deck, Any]:
    plugin = tool_plugin("echo")
    extra: dict[str, object] = {"p": plugin, "g": fixed_gate(verdict)}
    extra.update({f"probe{i}": probe for i, probe in enumerate(probes)})
    deck = make_deck('[plugins]\ndisable = ["permissions"]\n' + toml, extra)
    return deck, plugin.executor


@pytest.mark.parametrize("answer", [None, Decision(Verdict.ALLOW, "fine")])
def test_allow_and_skip_run_the_call(make_deck: Callable[..., Deck],
                                     tool_plugin: Callable[..., Any], fixed_gate: Any,
                                     answer: Decision | None) -> None:
    probe = Probe(answer)
    deck, executor = deck_with(make_deck, tool_plugin, fixed_gate, Verdict.ALLOW, probe)
    result = deck.call_sync(ToolCall("echo", {"command": "hi"}, turn=7))
    assert result.ok and len(executor.calls) == 1
    assert probe.seen == [("echo", 7, "low", "echo")]


def test_a_deny_is_a_tool_error_and_nothing_runs(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Any,
    audit_records: Callable[[Deck], list[dict[str, Any]]],
) -> None:
    probe = Probe(Decision(Verdict.DENY, "shadow run wrote outside the sandbox",
                           rule="shadow"))
    deck, executor = deck_with(make_deck, tool_plugin, fixed_gate, Verdict.ALLOW, probe,
                               toml="[tools]\nmax_tool_calls_per_session = 1\n")
    result = deck.call_sync(ToolCall("echo", {"command": "hi"}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
    assert result.error.message == "shadow run wrote outside the sandbox"
    assert executor.calls == []
    record = audit_records(deck)[-1]
    assert record["decision"] == {"verdict": "deny", "gate": "probe0", "rule": "shadow",
                                  "source": "builtin"}  # decided by code, not a file
    probe.answer = None
    assert deck.call_sync(ToolCall("echo", {"command": "again"})).ok  # quota not used up


def test_confirmed_calls_are_probed_as_elevated(make_deck: Callable[..., Deck],
                                                tool_plugin: Callable[..., Any],
                                                fixed_gate: Any) -> None:
    probe = Probe(None)
    deck, _ = deck_with(make_deck, tool_plugin, fixed_gate, Verdict.ASK, probe)
    assert deck.call_sync(ToolCall("echo", {"command": "hi"}), confirm=True).ok
    assert probe.seen[0][2] == "elevated"


def test_denied_calls_never_reach_the_probe(make_deck: Callable[..., Deck],
                                            tool_plugin: Callable[..., Any],
                                            fixed_gate: Any) -> None:
    probe = Probe(None)
    deck, _ = deck_with(make_deck, tool_plugin, fixed_gate, Verdict.DENY, probe)
    assert not deck.call_sync(ToolCall("echo", {"command": "hi"})).ok
    assert probe.seen == []


@pytest.mark.parametrize(("answer", "message"), [
    (RuntimeError("sandbox down"), "probe 'probe0' failed: RuntimeError: sandbox down"),
    (Decision(Verdict.ASK, "hmm"), "probe 'probe0' failed: TypeError: answered ask, but "
                                   "nobody is left to ask"),
    ("allow", "probe 'probe0' failed: TypeError: returned str, not a Decision or None"),
])
def test_a_broken_probe_denies(make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any],
                               fixed_gate: Any, answer: Any, message: str) -> None:
    deck, executor = deck_with(make_deck, tool_plugin, fixed_gate, Verdict.ALLOW, Probe(answer))
    result = deck.call_sync(ToolCall("echo", {"command": "hi"}))
    assert result.error is not None and result.error.message == message
    assert executor.calls == []


def test_the_first_deny_stops_the_other_probes(make_deck: Callable[..., Deck],
                                               tool_plugin: Callable[..., Any],
                                               fixed_gate: Any) -> None:
    first, second = Probe(Decision(Verdict.DENY, "no")), Probe(Decision(Verdict.DENY, "no"))
    deck, _ = deck_with(make_deck, tool_plugin, fixed_gate, Verdict.ALLOW, first, second)
    assert not deck.call_sync(ToolCall("echo", {"command": "hi"})).ok
    assert len(first.seen) + len(second.seen) == 1


class _BrokenProbe(Probe):
    @hookimpl
    def tooldeck_register_settings(self, register: Any) -> None:
        raise RuntimeError("cannot load the sandbox image")


def test_a_probe_plugin_that_breaks_refuses_the_configuration(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    """A probe can stop calls: losing it silently would let them run, so it fails closed."""
    with pytest.raises(ConfigError, match=r"plugin 'probe' failed while registering \(rule: "
                                          "gates fail closed\\): RuntimeError: cannot load"):
        make_deck("", {"p": tool_plugin("echo"), "probe": _BrokenProbe(None)})


def test_a_probe_deny_may_name_its_category_and_suggestion(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Any,
    audit_records: Callable[[Deck], list[dict[str, Any]]],
) -> None:
    """A probe that skips a call (the utility gate) says ``cancelled``: a skip is no policy
    block, and the anomaly detector must not count it as one."""
    probe = Probe(Decision(Verdict.DENY, "skipped: not worth it", rule="skip",
                           category=ErrorCategory.CANCELLED,
                           suggestion="Answer with what you have.\nNothing else."))
    deck, executor = deck_with(make_deck, tool_plugin, fixed_gate, Verdict.ALLOW, probe,
                               toml="[tools]\nmax_tool_calls_per_session = 1\n")
    result = deck.call_sync(ToolCall("echo", {"command": "hi"}))
    assert result.error is not None and executor.calls == []
    assert result.error.category is ErrorCategory.CANCELLED
    assert result.text.split("\n")[1:4] == [
        "category: cancelled", "error: skipped: not worth it",
        "suggestion: Answer with what you have.; Nothing else."]
    record = audit_records(deck)[-1]
    assert record["error_category"] == "cancelled" and record["decision"]["rule"] == "skip"
    probe.answer = None
    assert deck.call_sync(ToolCall("echo", {"command": "again"})).ok  # quota not used up


def test_a_gate_vote_keeps_the_policy_block_whatever_category_it_names(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any],
) -> None:
    """A vote's deny may be a security rule's: a gate cannot turn it into a mere skip."""

    class Disguising:
        @hookimpl
        def tooldeck_check_call(self) -> Decision:
            return Decision(Verdict.DENY, "no", category=ErrorCategory.CANCELLED,
                            suggestion="Ask the operator.")

    deck = make_deck('[plugins]\ndisable = ["permissions"]\n',
                     {"p": tool_plugin("echo"), "g": Disguising()})
    result = deck.call_sync(ToolCall("echo", {"command": "hi"}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
    assert result.text.split("\n")[3] == "suggestion: Ask the operator."
