"""The anomaly detector in a real deck: a failing caller is blocked until an operator resets it."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.anomaly.conftest import ON, job
from tests.trust_gate.conftest import audit_records, config_text
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.plugins.trust_gate.api import reset_trust, set_trust
from tooldeck.trust_levels import TrustLevel
from tooldeck.trust_state import Subject, TrustState, TrustStateError

TOOLDECK = shutil.which("tooldeck", path=str(Path(sys.executable).parent)) or "tooldeck"
BLOCKED = "all tools blocked (trust=blocked)"


async def run(deck: Deck, *values: str, caller: str | None = "alice") -> list[bool]:
    return [(await deck.call(job(v, caller))).ok for v in values]


def events(audit: Path, prefix: str = "") -> list[dict]:
    return [r for r in audit_records(audit) if r["kind"].startswith(prefix)]


async def test_a_caller_is_blocked_at_the_critical_rate_until_reset(
        make_deck: Callable[..., Deck], audit_path: Path, config_path: Path,
        project: Path) -> None:
    deck = make_deck()
    assert await run(deck, "ok", "fail", "fail", "fail") == [True, False, False, False]
    assert not any(e["kind"] == "trust.blocked" for e in events(audit_path))
    assert not (await deck.call(job("fail"))).ok  # 4 of 5: 80 %
    for confirm in (None, True):
        denied = await deck.call(job("ok"), confirm=confirm)
        assert denied.error is not None and denied.error.message == BLOCKED
        assert denied.error.category is ErrorCategory.POLICY_BLOCKED
    assert await run(deck, "ok", caller="bob") == [True]
    runtime = deck.runtime
    assert runtime.trust_level(job("ok"), runtime.tools["job"]) is TrustLevel.BLOCKED

    kinds = [r["kind"] for r in audit_records(audit_path)]
    assert kinds[:6] == ["tool_call"] * 3 + ["anomaly.warning", "tool_call", "tool_call"]
    assert kinds[6] == "trust.blocked", "written after the call record that triggered it"
    warning, blocked = events(audit_path, "anomaly.warning")[0], events(audit_path, "trust.")[0]
    assert warning["message"] == "error rate 67% (2/3) exceeds warning threshold"
    assert (blocked["name"], blocked["by"], blocked["reason"], blocked["persisted"]) == (
        "alice", "anomaly", "error rate 80% (4/5) exceeds critical threshold", True)

    # the operator's configuration: the same audit log, without the test's own tool
    operator = config_path.with_name("operator.toml")
    operator.write_text(config_text("", audit_path))
    reset = subprocess.run([TOOLDECK, "trust", "reset", "alice", "--config", str(operator)],
                           cwd=project, capture_output=True, text=True, env=dict(os.environ),
                           timeout=60)
    assert reset.returncode == 0, reset.stderr
    assert "blocked (set by anomaly) reset" in reset.stdout
    # the window starts afresh: two failures are too few to judge
    assert await run(deck, "fail", "fail") == [False, False]
    assert (await deck.call(job("ok"))).ok
    lifecycle = [(e["kind"], e.get("by")) for e in events(audit_path)
                 if e["kind"] != "tool_call"]
    assert lifecycle == [("anomaly.warning", None), ("trust.blocked", "anomaly"),
                         ("trust.reset", lifecycle[2][1]), ("anomaly.reset_observed", None),
                         ("anomaly.warning", None)]  # 2 of 3 in the fresh window
    assert str(lifecycle[2][1]).startswith("cli")


async def test_denials_count_as_failures(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck()
    assert await run(deck, "deny", "deny", "deny") == [False] * 3
    denied = await deck.call(job("ok"))
    assert denied.error is not None and denied.error.message == BLOCKED


@pytest.mark.parametrize("call", [
    ToolCall("job", {"value": "ask me"}, caller_id="alice"),   # confirmation_required
    ToolCall("job", {}, caller_id="alice"),                     # invalid parameters
    ToolCall("jbo", {"value": "x"}, caller_id="alice"),         # unknown tool
])
async def test_what_never_reached_the_gates_or_awaits_the_user_does_not_count(
        make_deck: Callable[..., Deck], call: ToolCall) -> None:
    deck = make_deck()
    for _ in range(6):
        assert not (await deck.call(call)).ok
    assert (await deck.call(job("ok"))).ok


async def test_a_block_outlives_the_deck_and_holds_without_the_trust_gate(
        make_deck: Callable[..., Deck]) -> None:
    first = make_deck()
    await run(first, "fail", "fail", "fail")
    await first.aclose()
    for body in (ON, ON + '[plugins]\ndisable = ["trust_gate"]\n'):
        deck = make_deck(body)
        denied = await deck.call(job("ok"))
        assert denied.error is not None and denied.error.message == BLOCKED
        assert await run(deck, "ok", caller="bob") == [True]
    assert TrustState().get(Subject.caller("alice")) is not None


@pytest.mark.parametrize("body", ["[tools.anomaly]\nenabled = false\n",
                                  ON + '[plugins]\ndisable = ["anomaly"]\n'],
                         ids=["enabled-false", "plugin-disabled"])
async def test_off_means_no_block(make_deck: Callable[..., Deck], body: str) -> None:
    deck = make_deck(body)
    assert await run(deck, "fail", "fail", "fail", "fail", "ok") == [False] * 4 + [True]
    if "disable" in body:
        assert any("[tools.anomaly] is not validated" in w for w in deck.runtime.warnings)


async def test_windows_survive_a_reload_and_new_thresholds_apply(
        make_deck: Callable[..., Deck], config_path: Path, audit_path: Path) -> None:
    deck = make_deck(settle_s=0.01)
    assert await run(deck, "ok", "fail", "fail") == [True, False, False]  # 2/3: warning
    config_path.write_text(config_text(
        '[[tools.permissions.job]]\npattern = "*"\naction = "allow"\n'
        "[tools.anomaly]\nenabled = true\ncritical_threshold = 0.7\n", audit_path))
    assert await deck.reload()
    assert not (await deck.call(job("fail"))).ok  # 3/4 = 75 % >= 70 %
    denied = await deck.call(job("ok"))
    assert denied.error is not None and denied.error.message == BLOCKED


async def test_odd_callers_and_long_call_ids_are_still_counted(
        make_deck: Callable[..., Deck]) -> None:
    deck = make_deck()
    for caller in ("\ud800\x00odd", "x" * 3000, ""):
        for i in range(3):
            call = ToolCall("job", {"value": "fail"}, caller_id=caller or None,
                            call_id=f"{'c' * 600}-{i}\ud800")
            assert not (await deck.call(call)).ok
        denied = await deck.call(job("ok", caller or None))
        assert denied.error is not None and denied.error.message == BLOCKED, repr(caller)
        assert reset_trust(deck, Subject.caller(caller)) is not None
        assert (await deck.call(job("ok", caller or None))).ok


async def test_calls_in_flight_with_one_call_id_are_told_apart_by_caller(
        make_deck: Callable[..., Deck]) -> None:
    """A host that reuses call ids: each outcome still goes to its own caller."""
    deck = make_deck()
    for _ in range(3):
        failed, ran = await asyncio.gather(
            deck.call(ToolCall("job", {"value": "pair-fail"}, caller_id="alice", call_id="1")),
            deck.call(ToolCall("job", {"value": "pair-ok"}, caller_id="bob", call_id="1")))
        assert not failed.ok and ran.ok
    assert await run(deck, "ok", caller="bob") == [True]
    denied = await deck.call(job("ok"))
    assert denied.error is not None and denied.error.message == BLOCKED


async def test_a_caller_no_row_could_name_is_denied(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(ON + '[plugins]\ndisable = ["trust_gate"]\n')
    denied = await deck.call(job("ok", "x" * 5000))
    assert denied.error is not None and denied.error.message == BLOCKED


async def test_an_operators_block_is_left_as_it_is(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck()
    set_trust(deck, Subject.caller("alice"), "blocked", by="ops", reason="on leave")
    await run(deck, "fail", "fail", "fail", "fail")
    row = TrustState().get(Subject.caller("alice"))
    assert row is not None and (row.by, row.reason) == ("ops", "on leave")


async def test_a_block_that_cannot_be_written_holds_for_the_deck(
        make_deck: Callable[..., Deck], audit_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    deck = make_deck()

    def disk_full(*args: object, **kw: object) -> None:
        raise TrustStateError("database or disk is full")

    monkeypatch.setattr(TrustState, "set", disk_full)
    await run(deck, "fail", "fail", "fail")
    assert events(audit_path, "trust.blocked")[0]["persisted"] is False
    assert TrustState().get(Subject.caller("alice")) is None
    denied = await deck.call(job("ok"))
    assert denied.error is not None and denied.error.message == BLOCKED


@pytest.mark.parametrize(("model", "reasoning"), [
    ("o1-preview", True), ("o3-mini", True), ("o4-mini", True), ("QwQ-32B", True),
    ("deepseek-r1:70b", True), ("deepseek_r1", True), ("claude-3-7-sonnet-thinking", True),
    ("gpt-4o", False), ("qwen2.5:14b", False), ("claude-sonnet-4", False),
])
def test_reasoning_models_are_named_by_zeph_s_rule(model: str, reasoning: bool) -> None:
    from tooldeck.plugins.anomaly.reasoning import is_reasoning_model

    assert is_reasoning_model(model) is reasoning


@pytest.mark.parametrize(("model", "warned"), [("o3-mini", True), ("gpt-4o", False)])
async def test_a_reasoning_model_s_malformed_call_is_called_out(
        make_deck: Callable[..., Deck], audit_path: Path, model: str, warned: bool) -> None:
    deck = make_deck()
    bad = ToolCall("job", {"value": 3}, caller_id="alice", model=model)  # not a string
    result = await deck.call(bad)
    assert result.error is not None and result.error.category.label in (
        "invalid_parameters", "type_mismatch")
    amplified = events(audit_path, "anomaly.reasoning_amplification")
    assert [(e["name"], e["model"]) for e in amplified] == ([("alice", model)] if warned else [])
    assert [r["model"] for r in events(audit_path, "tool_call")] == [model]
