"""The utility gate in a real deck: what it skips inside a user turn, what the model reads,
what is audited, and how the configuration turns it on, off, wrong and reloaded."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tooldeck.deck import Deck
from tooldeck.errors import ConfigError, ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.results import ToolResult
from tooldeck.turns import TurnContext

from .conftest import utility, write_config

MakeDeck = Callable[..., Any]
Audit = Callable[..., list[dict[str, Any]]]


async def no_wait() -> None:
    """The reload settle interval, driven by the test."""


def gate_names(deck: Deck) -> list[str]:
    return [name for name in deck.runtime.hooks.gate_names] + [
        impl.plugin_name for impl in deck.runtime.pm.hook.tooldeck_probe_call.get_hookimpls()]


async def calls(deck: Deck, turn: TurnContext | None,
                *made: tuple[str, str]) -> list[ToolResult]:
    async def each() -> list[ToolResult]:
        return [await deck.call(ToolCall(tool, {"value": value}, caller_id=caller))
                for tool, value in made]

    caller = None if turn is None else turn.caller_id
    if turn is None:
        return await each()
    with deck.turn(turn):
        return await each()


def lines(result: ToolResult) -> list[str]:
    return result.text.split("\n")


def skipped(result: ToolResult, action: str) -> str:
    """The error line of a call the gate skipped with ``action``."""
    assert result.error is not None and result.error.category is ErrorCategory.CANCELLED
    assert lines(result)[1] == "category: cancelled"
    error = lines(result)[2]
    assert error.startswith(f"error: [utility:{action}] ")
    return error


async def test_a_repeated_call_is_skipped_for_a_direct_answer(make_deck: MakeDeck,
                                                              audit: Audit,
                                                              config_path: Path) -> None:
    deck, stubs = make_deck(utility())
    turn = TurnContext("look this up", caller_id="agent", token_budget=1000)
    turn.tokens_consumed = 200
    first, again, other = await calls(deck, turn, ("memory_probe", "x"), ("memory_probe", "x"),
                                      ("memory_probe", "y"))
    assert first.ok and other.ok and stubs.ran == [("memory_probe", "x"), ("memory_probe", "y")]
    assert skipped(again, "respond") == (
        "error: [utility:respond] memory_probe was not run: the utility policy recommends "
        "answering directly, without more tool use (the same call was already made in this "
        "turn)")
    assert lines(again)[3] == "suggestion: Answer the user directly with what you already have."
    assert again.decision is not None and again.decision.rule == "utility.redundant"

    record = next(r for r in audit("tool_call") if r["call_id"] == again.call.call_id)
    assert record["error_category"] == "cancelled"
    assert record["decision"] == {"verdict": "deny", "gate": "utility",
                                  "rule": "utility.redundant", "source": str(config_path)}
    events = audit("utility.verdict")
    assert [(e["recommendation"], e["rule"]) for e in events] == [
        ("tool_call", "high-gain"), ("respond", "redundant"), ("tool_call", "high-gain")]
    first_event, second_event = events[0], events[1]
    assert {k: first_event[k] for k in ("gain", "cost", "redundancy", "uncertainty",
                                        "total")} == {
        "gain": 0.8, "cost": 0.2, "redundancy": 0.0, "uncertainty": 1.0,
        "total": pytest.approx(0.8 - 0.5 * 0.2 + 0.2)}
    assert second_event["redundancy"] == 1.0 and second_event["uncertainty"] == 0.9
    assert second_event["calls_made"] == 1 and second_event["token_budget"] == 1000
    assert second_event["tokens_consumed"] == 200 and second_event["threshold"] == 0.1
    assert second_event["turn_id"] == turn.turn_id and second_event["caller_id"] == "agent"
    assert second_event["call_id"] == again.call.call_id
    assert second_event["explicit_request"] is False and second_event["ends_turn"] is False


async def test_a_retrieve_is_followed_by_the_retry_it_asked_for_once(make_deck: MakeDeck,
                                                                      audit: Audit) -> None:
    deck, stubs = make_deck(utility())
    first, retry, third = await calls(deck, TurnContext("find it"), ("lookup", "q"),
                                      ("lookup", "q"), ("lookup", "q"))
    assert skipped(first, "retrieve").endswith(
        "the utility policy recommends retrieving context first (expected gain 0.50, and "
        "little is known yet this early in the turn)")
    assert lines(first)[3] == (
        "suggestion: Retrieve relevant context first (memory_search or a related lookup), "
        "then call lookup again with the same arguments: that call will run.")
    assert retry.ok and stubs.ran == [("lookup", "q")]
    skipped(third, "respond")  # the mandate was used up: a third one is a repeat
    assert [(e["rule"], e["mandated_retry"]) for e in audit("utility.verdict")] == [
        ("uncertain", False), ("mandated-retry", True), ("redundant", False)]


async def test_below_the_threshold_late_in_the_turn_is_verify(make_deck: MakeDeck) -> None:
    """Verify needs certainty (five calls made: uncertainty 0.5) and a score under the
    threshold; earlier, a tool of gain ≥ 0.5 gets Retrieve instead."""
    deck, _ = make_deck(utility(threshold=0.9, uncertainty_bonus=0, exempt_tools=["lookup"]))
    results = await calls(deck, TurnContext("go"), *[("lookup", str(n)) for n in range(5)],
                          ("memory_probe", "a"))
    assert all(r.ok for r in results[:5])
    assert skipped(results[5], "verify").endswith("(utility 0.80 is below the threshold 0.90)")
    assert lines(results[5])[3] == (
        "suggestion: Check that the previous tool result is correct and that another call "
        "is needed before calling memory_probe again.")


@pytest.mark.parametrize(("consumed", "runs"), [(950, False), (900, True)])
async def test_a_nearly_spent_budget_stops_tool_use(make_deck: MakeDeck, consumed: int,
                                                    runs: bool) -> None:
    deck, _ = make_deck(utility())
    (result,) = await calls(deck, TurnContext("go", token_budget=1000,
                                              tokens_consumed=consumed), ("memory_probe", "a"))
    assert result.ok is runs
    if not runs:
        assert skipped(result, "stop").endswith("(95% of the token budget is used)")
        assert lines(result)[3] == "suggestion: Stop calling tools and answer with what you have."


async def test_weights_that_overflow_stop_the_call(make_deck: MakeDeck, audit: Audit) -> None:
    deck, _ = make_deck(utility(gain_weight=1e308, uncertainty_bonus=1e308))
    (result,) = await calls(deck, TurnContext("go"), ("memory_probe", "a"))
    assert skipped(result, "stop").endswith("(the call could not be scored)")
    (event,) = audit("utility.verdict")
    assert event["rule"] == "no-score" and event["total"] is None


async def test_an_explicit_request_runs_every_call(make_deck: MakeDeck, audit: Audit) -> None:
    deck, stubs = make_deck(utility(utility_window=1))
    results = await calls(deck, TurnContext("what is the output of `ls | wc -l`?"),
                          ("lookup", "q"), ("lookup", "q"), ("lookup", "q"))
    assert all(r.ok for r in results) and len(stubs.ran) == 3
    assert {(e["rule"], e["explicit_request"]) for e in audit("utility.verdict")} == {
        ("explicit-request", True)}


async def test_the_window_ends_the_turn(make_deck: MakeDeck, audit: Audit) -> None:
    deck, stubs = make_deck(utility(utility_window=2))
    turn = TurnContext("go", caller_id="agent")
    first, second, third = await calls(deck, turn, ("lookup", "a"), ("lookup", "b"),
                                       ("memory_probe", "c"))
    skipped(first, "retrieve")
    assert skipped(second, "retrieve").endswith(
        "; 2 calls in a row were not run, so the turn ends here")
    assert turn.ended is not None and turn.ended.rule == "utility.window"
    assert third.error is not None and third.error.category is ErrorCategory.CANCELLED
    assert third.error.message == ("not run: the utility gate did not let 2 calls in a row "
                                   "run (utility_window = 2); the turn ends here")
    assert stubs.ran == [] and turn.calls_made == 3
    assert [e["ends_turn"] for e in audit("utility.verdict")] == [False, True]  # 3rd unscored
    refused = next(r for r in audit("tool_call") if r["call_id"] == third.call.call_id)
    assert refused["decision"]["rule"] == "utility.window"
    (fresh,) = await calls(deck, TurnContext("next", caller_id="agent"), ("memory_probe", "c"))
    assert fresh.ok  # a new turn starts afresh


async def test_a_call_that_runs_restarts_the_window(make_deck: MakeDeck) -> None:
    deck, _ = make_deck(utility(utility_window=2))
    turn = TurnContext("go")
    results = await calls(deck, turn, ("lookup", "a"), ("memory_probe", "b"), ("lookup", "c"))
    assert [r.ok for r in results] == [False, True, False] and turn.ended is None


async def test_exempt_tools_are_neither_scored_nor_counted(make_deck: MakeDeck,
                                                           audit: Audit) -> None:
    deck, stubs = make_deck(utility(exempt_tools=["LOOKUP"], utility_window=1))
    turn = TurnContext("go")
    results = await calls(deck, turn, ("lookup", "q"), ("lookup", "q"), ("lookup", "q"))
    assert all(r.ok for r in results) and len(stubs.ran) == 3
    assert audit("utility.verdict") == [] and turn.ended is None


async def test_calls_outside_a_turn_run_unscored_and_say_so(make_deck: MakeDeck,
                                                            audit: Audit) -> None:
    deck, stubs = make_deck(utility(utility_window=1))
    assert any("calls made outside one run unscored" in w for w in deck.runtime.warnings)
    bare = await calls(deck, None, ("lookup", "q"), ("lookup", "q"))
    other_caller = TurnContext("go", caller_id="someone-else")
    with deck.turn(other_caller):
        mismatched = await deck.call(ToolCall("lookup", {"value": "q"}, caller_id="agent"))
    assert all(r.ok for r in [*bare, mismatched]) and len(stubs.ran) == 3
    events = audit("utility.verdict")
    assert [(e["recommendation"], e["rule"], e["scored"]) for e in events] == [
        ("tool_call", "no-turn", False)] * 3
    assert "gain" not in events[0]


async def test_calls_the_policy_refuses_are_never_scored(make_deck: MakeDeck,
                                                         audit: Audit) -> None:
    deck, _ = make_deck(utility(utility_window=1))
    turn = TurnContext("go")
    (refused,) = await calls(deck, turn, ("refused", "q"))
    assert refused.error is not None
    assert refused.error.category is ErrorCategory.POLICY_BLOCKED  # never disguised as a skip
    assert audit("utility.verdict") == [] and turn.ended is None


async def test_a_confirmed_call_is_scored_after_the_confirmation(make_deck: MakeDeck) -> None:
    deck, stubs = make_deck(utility())
    asked: list[str] = []

    def confirm(call: ToolCall, decision: Any) -> bool:
        asked.append(call.tool_id)
        return True

    with deck.turn(TurnContext("go")):
        result = await deck.call(ToolCall("asked", {"value": "q"}), confirm=confirm)
    assert asked == ["asked"] and stubs.ran == []
    skipped(result, "retrieve")


async def test_skips_use_no_quota_and_are_no_failures_to_the_anomaly_detector(
        make_deck: MakeDeck, audit: Audit) -> None:
    deck, stubs = make_deck(utility() + "[tools.anomaly]\nenabled = true\nwindow_size = 3\n",
                            environ={"TOOLDECK_TOOLS_MAX_TOOL_CALLS_PER_SESSION": "1"})
    turn = TurnContext("go", caller_id="agent")
    results = await calls(deck, turn, *[("lookup", str(n)) for n in range(5)],
                          ("memory_probe", "last"))
    assert [r.ok for r in results] == [False] * 5 + [True]
    assert stubs.ran == [("memory_probe", "last")]
    assert audit("trust.blocked") == [] and audit("anomaly.warning") == []


# -- configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize(("keys", "key", "found"), [
    ({"gain_weight": -1}, "gain_weight", "-1"),
    ({"cost_weight": "nan"}, "cost_weight", "nan"),
    ({"redundancy_weight": "inf"}, "redundancy_weight", "inf"),
    ({"uncertainty_bonus": "-inf"}, "uncertainty_bonus", "-inf"),
    ({"threshold": "nan"}, "threshold", "nan"),
    ({"utility_window": -2}, "utility_window", "-2"),
])
def test_a_bad_value_is_an_error_naming_file_and_key(make_deck: MakeDeck, config_path: Path,
                                                     keys: dict[str, Any], key: str,
                                                     found: str) -> None:
    body = "[tools.utility]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items())
    with pytest.raises(ConfigError) as caught:
        make_deck(body)
    assert f"{config_path}: tools.utility.{key}: " in str(caught.value)
    assert found in str(caught.value)


def test_an_unknown_key_is_an_error(make_deck: MakeDeck, config_path: Path) -> None:
    with pytest.raises(ConfigError, match=f"{config_path}: tools.utility.treshold: "):
        make_deck("[tools.utility]\ntreshold = 0.2\n")


async def test_off_by_default_and_when_disabled(make_deck: MakeDeck, audit: Audit) -> None:
    for body in ("", utility(enabled=False)):
        deck, _stubs = make_deck(body)
        assert not any(name.startswith("utility") for name in gate_names(deck))
        results = await calls(deck, TurnContext("go"), ("lookup", "q"), ("lookup", "q"))
        assert all(r.ok for r in results)
    assert audit("utility.verdict") == []
    deck, _ = make_deck(utility())
    assert "utility.utility" in gate_names(deck)


async def test_disabling_the_plugin_keeps_its_section_unvalidated(make_deck: MakeDeck,
                                                                  audit: Audit) -> None:
    deck, _stubs = make_deck('[plugins]\ndisable = ["utility"]\n'
                            + utility(gain_weight=-1))
    assert any("tools.utility" in w for w in deck.runtime.warnings)
    results = await calls(deck, TurnContext("go"), ("lookup", "q"), ("lookup", "q"))
    assert all(r.ok for r in results) and audit("utility.verdict") == []


async def test_a_reload_applies_new_settings_and_refuses_bad_ones(make_deck: MakeDeck,
                                                                  config_path: Path,
                                                                  audit_path: Path,
                                                                  audit: Audit) -> None:
    deck, _stubs = make_deck(utility(enabled=False), settle_wait=no_wait)
    turn = TurnContext("go")
    assert all(r.ok for r in await calls(deck, turn, ("lookup", "q"), ("memory_probe", "m")))

    write_config(config_path, audit_path, utility())
    assert await deck.reload()
    skip, remembered = await calls(deck, turn, ("lookup", "z"), ("memory_probe", "n"))
    skipped(skip, "retrieve")
    assert remembered.ok

    write_config(config_path, audit_path, utility(high_gain_tools=["lookup"]))
    assert await deck.reload()
    fresh, repeat = await calls(deck, turn, ("lookup", "y"), ("memory_probe", "n"))
    assert fresh.ok  # lookup is a high-gain tool now
    skipped(repeat, "respond")  # the turn's memory outlives the reload

    write_config(config_path, audit_path, utility(cost_weight=-0.5))
    assert not await deck.reload()
    (failed,) = audit("policy.reload_failed")
    assert "tools.utility.cost_weight" in failed["reason"]
    (still,) = await calls(deck, turn, ("lookup", "w"))
    assert still.ok  # the last good settings stay
