"""Deck.call and its gates: deny > ask > allow, failing gates, confirmation of an ask."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tooldeck import hookimpl
from tooldeck.deck import Approval, Deck, ToolResult, combine_decisions
from tooldeck.errors import ErrorCategory
from tooldeck.models import Decision, ToolCall, Verdict

C = ErrorCategory
NO_PERMISSIONS = '[plugins]\ndisable = ["permissions"]\n'
FULL = '[agent]\nautonomy = "full"\n'
Gate = Callable[..., Any]
A, Q, D = Verdict.ALLOW, Verdict.ASK, Verdict.DENY


class RaisingGate:
    @hookimpl
    def tooldeck_check_call(self, call: ToolCall) -> Decision:
        raise RuntimeError("policy store unreachable")


class Confirmer:
    """Confirmation callback recording what it was asked; answers ``answer``."""

    def __init__(self, answer: object) -> None:
        self.answer = answer
        self.asked: list[tuple[ToolCall, Decision]] = []

    def __call__(self, call: ToolCall, decision: Decision) -> object:
        self.asked.append((call, decision))
        return self.answer


def run(deck: Deck, params: dict[str, Any], tool: str = "echo", **kwargs: Any) -> ToolResult:
    return deck.call_sync(ToolCall(tool, params), **kwargs)


def category(result: ToolResult) -> ErrorCategory | None:
    return None if result.error is None else result.error.category


# ----------------------------------------------------------------------------------- gates


@pytest.mark.parametrize(
    ("first", "second", "combined"),
    [
        (A, A, A), (A, Q, Q), (Q, A, Q), (A, D, D), (D, A, D),
        (Q, D, D), (D, Q, D), (Q, Q, Q), (D, D, D), (A, None, A), (None, D, D),
    ],
)


def test_deny_beats_ask_beats_allow_across_gates(
    make_deck: Callable[..., Deck],
    tool_plugin: Callable[..., Any], fixed_gate: Gate,
    first: Verdict | None,
    second: Verdict | None,
    combined: Verdict,
) -> None:
    plugin = tool_plugin("echo")
    gates = {"g1": fixed_gate(first, "one says"), "g2": fixed_gate(second, "two says")}
    deck = make_deck(NO_PERMISSIONS, {"p": plugin, **gates})
    result = run(deck, {"command": "hi"})
    assert result.decision is not None
    assert result.decision.verdict is combined
    votes = {"g1": first, "g2": second}
    # the first vote of the winning kind, in the order the gates are asked, explains it
    winner = next(g for g in deck.runtime.hooks.gate_names if votes[g] is combined)
    assert result.decision.gate == winner
    assert result.decision.reason == {"g1": "one says", "g2": "two says"}[winner]
    expected = {A: None, Q: C.CONFIRMATION_REQUIRED, D: C.POLICY_BLOCKED}[combined]
    assert category(result) is expected
    assert len(plugin.executor.calls) == (1 if combined is A else 0)


def test_combine_decisions_explains_with_the_first_vote_of_the_winning_kind() -> None:
    votes = [Decision(A, "a", "x"), Decision(D, "first deny", "y"), Decision(D, "later", "z"),
             Decision(Q, "q", "w")]
    assert combine_decisions(votes) == votes[1]
    assert combine_decisions([Decision(Q, "q1", "a"), Decision(Q, "q2", "b")]).reason == "q1"


@pytest.mark.parametrize("abstain", [False, True], ids=["no gates", "abstaining gate"])
def test_nobody_voting_means_ask(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Gate,
    abstain: bool,
) -> None:
    plugin = tool_plugin("echo")
    gates = {"quiet": fixed_gate(None)} if abstain else {}
    result = run(make_deck(NO_PERMISSIONS, {"p": plugin, **gates}), {"command": "hi"})
    assert result.decision == Decision(Q, "no gate allowed this call", gate="core",
                                       rule="no-vote")
    assert category(result) is C.CONFIRMATION_REQUIRED
    assert plugin.executor.calls == []


def test_a_gate_that_raises_denies_naming_itself(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Gate
) -> None:
    plugin = tool_plugin("echo")
    deck = make_deck(NO_PERMISSIONS, {"p": plugin, "ok": fixed_gate(A), "flaky": RaisingGate()})
    result = run(deck, {"command": "hi"}, confirm=True)
    assert category(result) is C.POLICY_BLOCKED
    assert result.decision is not None
    assert result.decision.gate == "flaky"
    assert result.decision.reason == (
        "gate 'flaky' failed: RuntimeError: policy store unreachable"
    )
    assert result.error is not None and "policy store unreachable" in result.error.message
    assert plugin.executor.calls == []


# ---------------------------------------------------------------------------- confirmation


@pytest.fixture
def asking_deck(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Gate
) -> tuple[Deck, Any]:
    plugin = tool_plugin("echo")
    deck = make_deck(NO_PERMISSIONS, {"p": plugin, "g": fixed_gate(Q, "sounds risky")})
    return deck, plugin


def test_ask_without_a_confirmer_requires_confirmation(asking_deck: tuple[Deck, Any]) -> None:
    deck, plugin = asking_deck
    for confirm in (None, False):
        result = run(deck, {"command": "hi"}, confirm=confirm)
        assert category(result) is C.CONFIRMATION_REQUIRED
        assert result.error is not None
        assert result.error.message == "echo requires confirmation: sounds risky"
        assert result.decision is not None and result.decision.verdict is Q
    assert plugin.executor.calls == []


def test_pre_approval_runs_the_call(asking_deck: tuple[Deck, Any]) -> None:
    deck, plugin = asking_deck
    result = run(deck, {"command": "hi"}, confirm=True)
    assert result.ok
    assert result.text == "ran: hi"
    assert result.approved_by == "pre-approved"
    ((_, ctx),) = plugin.executor.calls
    assert ctx.approved_by == "pre-approved"
    assert ctx.decision.verdict is Q


@pytest.mark.parametrize(
    ("answer", "approved_by", "expected"),
    [(True, "user", None), (Approval(by="alice"), "alice", None), (False, None, C.CANCELLED),
     ("yes", None, C.CONFIRMATION_REQUIRED), ("no", None, C.CONFIRMATION_REQUIRED),
     (None, None, C.CONFIRMATION_REQUIRED), (Approval(by=""), None, C.CONFIRMATION_REQUIRED)],
)


def test_confirmation_callback(
    asking_deck: tuple[Deck, Any],
    answer: object,
    approved_by: str | None,
    expected: ErrorCategory | None,
) -> None:
    deck, plugin = asking_deck
    confirmer = Confirmer(answer)
    result = run(deck, {"command": "hi"}, confirm=confirmer)
    assert category(result) is expected
    assert result.approved_by == approved_by
    ((asked_call, asked_decision),) = confirmer.asked
    assert asked_call.params == {"command": "hi"}
    assert asked_decision.reason == "sounds risky"
    assert len(plugin.executor.calls) == (0 if expected else 1)
    if expected is C.CANCELLED:
        assert result.error is not None
        assert result.error.message == "echo was declined by the user"
    if expected is C.CONFIRMATION_REQUIRED:
        assert result.error is not None and "only True or Approval" in result.error.message


def test_async_confirmation_callback(asking_deck: tuple[Deck, Any]) -> None:
    deck, plugin = asking_deck
    asked: list[str] = []

    async def confirm(call: ToolCall, decision: Decision) -> bool:
        await asyncio.sleep(0)
        asked.append(call.tool_id)
        return True

    result = run(deck, {"command": "hi"}, confirm=confirm)
    assert result.ok and result.approved_by == "user"
    assert asked == ["echo"]
    assert len(plugin.executor.calls) == 1


def test_a_deny_is_never_confirmable(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], fixed_gate: Gate
) -> None:
    plugin = tool_plugin("echo")
    deck = make_deck(NO_PERMISSIONS, {"p": plugin, "g": fixed_gate(D, "never")})
    confirmer = Confirmer(True)
    for confirm in (confirmer, True):
        result = run(deck, {"command": "hi"}, confirm=confirm)
        assert category(result) is C.POLICY_BLOCKED
        assert result.error is not None and result.error.message == "never"
    assert confirmer.asked == []
    assert plugin.executor.calls == []


# ------------------------------------------------------------- malformed votes


class PlainStringGate:
    """A gate that builds its Decision with a plain string verdict."""

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall) -> Decision:
        return Decision("deny", "plain string verdict")


def test_a_plain_string_deny_still_blocks(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    plugin = tool_plugin("echo")
    result = run(make_deck(FULL, {"p": plugin, "g": PlainStringGate()}), {"command": "x"})
    assert plugin.executor.calls == []
    assert category(result) is C.POLICY_BLOCKED
    assert result.decision is not None and result.decision.verdict is Verdict.DENY


class GarbageGate:
    @hookimpl
    def tooldeck_check_call(self, call: ToolCall) -> object:
        return "allow"


def test_a_gate_returning_garbage_counts_as_deny(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    plugin = tool_plugin("echo")
    result = run(make_deck(FULL, {"p": plugin, "g": GarbageGate()}), {"command": "x"},
                 confirm=True)
    assert category(result) is C.POLICY_BLOCKED
    assert result.decision is not None and result.decision.gate == "g"
    assert result.decision.reason.startswith("gate 'g' failed: TypeError: ")
    assert plugin.executor.calls == []

