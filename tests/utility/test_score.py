"""Zeph §7.6, row by row: defaults, weights, the gain table, the score, the decision order and
the explicit-request phrases (pure functions; the gate itself is in test_gate.py)."""

from __future__ import annotations

import math
from typing import Any

import pydantic
import pytest

from tooldeck.models import ToolCall
from tooldeck.plugins.utility.explicit import explicit_request
from tooldeck.plugins.utility.gate import call_key
from tooldeck.plugins.utility.score import Action, Score, Situation, gain_of, recommend, score
from tooldeck.plugins.utility.settings import UtilitySettings

ON = UtilitySettings(enabled=True)
FIRST = Situation(explicit_request=False, mandated_retry=False, calls_made=0)
LATER = Situation(explicit_request=False, mandated_retry=False, calls_made=1)


# -- defaults and weights ------------------------------------------------------------------


def test_defaults_are_zephs() -> None:
    section = UtilitySettings()
    assert section.enabled is False
    assert (section.threshold, section.gain_weight, section.cost_weight,
            section.redundancy_weight, section.uncertainty_bonus) == (0.1, 1.0, 0.5, 0.3, 0.2)
    assert section.exempt_tools == ("invoke_skill", "load_skill")
    assert section.high_gain_tools == () and section.utility_window == 0


@pytest.mark.parametrize("key", ["gain_weight", "cost_weight", "redundancy_weight",
                                 "uncertainty_bonus"])
@pytest.mark.parametrize("value", [-0.01, -1, math.nan, math.inf, -math.inf])
def test_a_weight_must_be_finite_and_not_negative(key: str, value: float) -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        UtilitySettings(**{key: value})
    assert caught.value.errors()[0]["loc"] == (key,)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_the_threshold_must_be_finite(value: float) -> None:
    with pytest.raises(pydantic.ValidationError):
        UtilitySettings(threshold=value)


def test_zero_weights_and_any_finite_threshold_are_accepted() -> None:
    section = UtilitySettings(gain_weight=0, cost_weight=0, redundancy_weight=0,
                              uncertainty_bonus=0, threshold=-3.5, utility_window=4)
    assert section.gain_weight == 0.0 and section.threshold == -3.5


def test_the_window_is_not_negative() -> None:
    with pytest.raises(pydantic.ValidationError):
        UtilitySettings(utility_window=-1)


# -- the gain table --------------------------------------------------------------------------


@pytest.mark.parametrize(("tool", "gain"), [
    ("memory_search", 0.8), ("memory_save", 0.8), ("memory", 0.8), ("memoryless", 0.8),
    ("bash", 0.6), ("shell", 0.6),
    ("read", 0.55), ("write", 0.55),
    ("search_code", 0.65), ("grep", 0.65), ("glob", 0.65), ("find_path", 0.65),
    ("list_directory", 0.65),
    ("diagnostics", 0.75), ("edit", 0.75), ("format", 0.75), ("create_directory", 0.75),
    ("delete_path", 0.75), ("move_path", 0.75), ("copy_path", 0.75),
    ("fetch", 0.5), ("web_scrape", 0.5), ("mcp_github__create_issue", 0.5), ("Bash", 0.5),
    ("my_memory", 0.5),
])
def test_gain_by_tool_name(tool: str, gain: float) -> None:
    assert gain_of(tool) == gain


def test_configured_high_gain_tools_get_the_direct_gain_case_insensitively() -> None:
    assert gain_of("mcp_github__create_issue", ["MCP_GitHub__Create_Issue"]) == 0.75
    assert gain_of("fetch", ["mcp_github__create_issue"]) == 0.5
    assert gain_of("memory_search", ["memory_search"]) == 0.75  # the list is looked at first


# -- the score -----------------------------------------------------------------------------


def scored(tool: str = "fetch", settings: UtilitySettings = ON, **context: Any) -> Score:
    values = {"tokens_consumed": 0, "token_budget": 0, "redundant": False, "calls_made": 0,
              **context}
    result = score(tool, settings, **values)
    assert result is not None
    return result


@pytest.mark.parametrize(("consumed", "budget", "cost"), [
    (0, 1000, 0.0), (100, 1000, 0.1), (900, 1000, 0.9), (1000, 1000, 1.0), (5000, 1000, 1.0),
    (500, 0, 0.0),
])
def test_cost_is_the_clamped_share_of_the_budget(consumed: int, budget: int,
                                                 cost: float) -> None:
    assert scored(tokens_consumed=consumed, token_budget=budget).cost == pytest.approx(cost)


@pytest.mark.parametrize(("calls", "uncertainty"), [
    (0, 1.0), (1, 0.9), (5, 0.5), (9, 0.1), (10, 0.0), (25, 0.0),
])
def test_uncertainty_falls_with_the_calls_made(calls: int, uncertainty: float) -> None:
    assert scored(calls_made=calls).uncertainty == pytest.approx(uncertainty)


def test_redundancy_is_one_for_a_repeated_call() -> None:
    assert scored(redundant=True).redundancy == 1.0
    assert scored(redundant=False).redundancy == 0.0


def test_total_is_the_weighted_sum() -> None:
    settings = UtilitySettings(enabled=True, gain_weight=2, cost_weight=3,
                               redundancy_weight=5, uncertainty_bonus=7)
    result = scored("bash", settings, tokens_consumed=250, token_budget=1000, redundant=True,
                    calls_made=4)
    assert (result.gain, result.cost, result.redundancy) == (0.6, 0.25, 1.0)
    assert result.uncertainty == pytest.approx(0.6)
    assert result.total == pytest.approx(2 * 0.6 - 3 * 0.25 - 5 * 1.0 + 7 * 0.6)


def test_a_total_that_overflows_is_no_score() -> None:
    huge = UtilitySettings(enabled=True, gain_weight=1e308, uncertainty_bonus=1e308)
    assert score("memory_search", huge, tokens_consumed=0, token_budget=0, redundant=False,
                 calls_made=0) is None


# -- the decision order ----------------------------------------------------------------------


def made(gain: float = 0.6, cost: float = 0.1, redundancy: float = 0.0,
         uncertainty: float = 0.4, total: float = 0.5) -> Score:
    return Score(gain, cost, redundancy, uncertainty, total)


HOPELESS = made(gain=0.0, cost=1.0, redundancy=1.0, uncertainty=0.0, total=-100.0)


@pytest.mark.parametrize(("result", "situation", "expected"), [
    # 1: the user asked for a tool: runs, whatever the score, even without one
    (HOPELESS, Situation(True, False, 3), (Action.TOOL_CALL, "explicit-request")),
    (None, Situation(True, False, 0), (Action.TOOL_CALL, "explicit-request")),
    # 3: the retry a Retrieve asked for runs, though it repeats a call
    (made(gain=0.65, redundancy=1.0, uncertainty=0.7), Situation(False, True, 1),
     (Action.TOOL_CALL, "mandated-retry")),
    (None, Situation(False, True, 0), (Action.TOOL_CALL, "mandated-retry")),
    # 4: no score: stop (fail closed)
    (None, FIRST, (Action.STOP, "no-score")),
    # 5: the budget is nearly spent
    (made(gain=0.8, cost=0.95, uncertainty=0.5, total=0.5), FIRST, (Action.STOP, "budget")),
    (made(gain=0.8, cost=0.95, redundancy=1.0), FIRST, (Action.STOP, "budget")),
    (made(gain=0.8, cost=0.9, uncertainty=0.4, total=0.5), FIRST,
     (Action.TOOL_CALL, "high-gain")),  # 0.9 is not > 0.9
    # 6: a repeated call
    (made(gain=0.8, cost=0.1, redundancy=1.0, uncertainty=0.5, total=0.5), FIRST,
     (Action.RESPOND, "redundant")),
    # 7: high gain, above the threshold
    (made(gain=0.8, cost=0.1, uncertainty=0.4, total=0.6), FIRST,
     (Action.TOOL_CALL, "high-gain")),
    (made(gain=0.7, uncertainty=1.0, total=0.1), FIRST, (Action.TOOL_CALL, "high-gain")),
    # 8: uncertain: retrieve context first
    (made(gain=0.6, cost=0.1, uncertainty=0.8, total=0.4), FIRST,
     (Action.RETRIEVE, "uncertain")),
    (made(gain=0.7, uncertainty=0.8, total=0.05), FIRST, (Action.RETRIEVE, "uncertain")),
    (made(gain=0.5, uncertainty=0.51, total=0.05), LATER, (Action.RETRIEVE, "uncertain")),
    # 9: below the threshold after other calls: verify
    (made(gain=0.3, cost=0.1, uncertainty=0.2, total=0.05), LATER,
     (Action.VERIFY, "below-threshold")),
    (made(gain=0.6, uncertainty=0.5, total=0.05), LATER, (Action.VERIFY, "below-threshold")),
    # 10: above the threshold
    (made(gain=0.3, uncertainty=0.2, total=0.1), LATER, (Action.TOOL_CALL, "above-threshold")),
    (made(gain=0.6, uncertainty=0.5, total=0.4), FIRST, (Action.TOOL_CALL, "above-threshold")),
    # 11: otherwise
    (made(gain=0.3, cost=0.1, uncertainty=0.2, total=0.05), FIRST, (Action.RESPOND, "otherwise")),
])
def test_the_decision_order(result: Score | None, situation: Situation,
                            expected: tuple[Action, str]) -> None:
    assert recommend(result, situation, threshold=0.1) == expected


def test_first_calls_of_a_turn_with_the_defaults() -> None:
    """What a fresh turn's first call gets, tool by tool (Zeph's own regressions)."""
    for tool, action in [("bash", Action.RETRIEVE), ("fetch", Action.RETRIEVE),
                         ("find_path", Action.RETRIEVE), ("read", Action.RETRIEVE),
                         ("diagnostics", Action.TOOL_CALL), ("edit", Action.TOOL_CALL),
                         ("memory_search", Action.TOOL_CALL)]:
        result = scored(tool, token_budget=1000)
        assert recommend(result, FIRST, ON.threshold)[0] is action, tool
    repeated = scored("diagnostics", redundant=True)
    assert recommend(repeated, FIRST, ON.threshold) == (Action.RESPOND, "redundant")


def test_threshold_one_runs_no_first_call() -> None:
    result = scored("bash")
    assert result.total < 1.0
    assert recommend(result, FIRST, threshold=1.0)[0] is not Action.TOOL_CALL


# -- explicit requests -----------------------------------------------------------------------


@pytest.mark.parametrize("message", [
    "Please list the files in the current directory using a tool",
    "USING A TOOL to find files",
    "call the list_directory tool", "use the shell tool to run ls", "run the bash tool",
    "invoke the search_code tool", "execute the grep tool for me", "Use grep tool please",
    "show me the result of: echo hello", "Show me the result of : ls",
    "run: echo hello", "execute: ls -la", "RUN : make",
    "what does echo hello output?", "what would cat /etc/hosts show?",
    "what is the output of ls | grep foo?",
    "what does this function do?",  # Zeph's accepted false positive
    "try running `ls | grep foo`", "run `echo hello > /tmp/out`", "check `$HOME/bin`",
    "try `git fetch && git rebase`", "is `a < b` true", "then `cd x; make`",
])
def test_explicit_requests(message: str) -> None:
    assert explicit_request(message)


@pytest.mark.parametrize("message", [
    "what is the weather today?", "the shell tool is very useful in general",
    "run the tests please", "execute the plan we discussed",
    "the function `process_items` handles it", "show me the result of running it",
    "call me when the shell tool finishes", "`ls` and then | grep", "",
])
def test_not_explicit_requests(message: str) -> None:
    assert not explicit_request(message)


def test_the_same_call_is_the_same_key_in_any_parameter_order() -> None:
    one = call_key(ToolCall("grep", {"pattern": "x", "path": {"a": 1, "b": [2]}}))
    assert one == call_key(ToolCall("grep", {"path": {"b": [2], "a": 1}, "pattern": "x"}))
    assert one != call_key(ToolCall("grep", {"pattern": "y", "path": {"a": 1, "b": [2]}}))
    assert one != call_key(ToolCall("glob", {"pattern": "x", "path": {"a": 1, "b": [2]}}))
    assert call_key(ToolCall("t", {"k": {1: "a", "b": 2}})) == call_key(
        ToolCall("t", {"k": {1: "a", "b": 2}}))  # keys that do not sort still have a key
