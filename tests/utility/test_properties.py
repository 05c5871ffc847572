"""Properties of the utility score and decision order, for any weights and any turn."""

from __future__ import annotations

import math

import pydantic
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.plugins.utility.score import Action, Score, Situation, recommend, score
from tooldeck.plugins.utility.settings import UtilitySettings

TOOLS = st.sampled_from(["bash", "read", "grep", "edit", "memory_search", "fetch", "other"])
ANY_WEIGHT = st.floats(min_value=0, max_value=1.7e308, allow_nan=False, allow_infinity=False)
SANE_WEIGHT = st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False)
THRESHOLD = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)
TOKENS = st.integers(min_value=0, max_value=10**7)
CALLS = st.integers(min_value=0, max_value=40)
UNSCORED = Situation(explicit_request=False, mandated_retry=False, calls_made=0)


@st.composite
def weighted(draw: st.DrawFn, weight: st.SearchStrategy[float]) -> UtilitySettings:
    return UtilitySettings(enabled=True, gain_weight=draw(weight), cost_weight=draw(weight),
                           redundancy_weight=draw(weight), uncertainty_bonus=draw(weight),
                           threshold=draw(THRESHOLD))


def scored(tool: str, section: UtilitySettings, consumed: int, budget: int, redundant: bool,
           calls: int) -> Score | None:
    return score(tool, section, tokens_consumed=consumed, token_budget=budget,
                 redundant=redundant, calls_made=calls)


def action(result: Score | None, calls: int, threshold: float) -> Action:
    return recommend(result, Situation(False, False, calls), threshold)[0]


@settings(max_examples=400)
@given(TOOLS, weighted(ANY_WEIGHT), TOKENS, TOKENS, st.booleans(), CALLS)
def test_a_score_is_finite_or_none_and_none_stops(tool: str, section: UtilitySettings,
                                                  consumed: int, budget: int,
                                                  redundant: bool, calls: int) -> None:
    result = scored(tool, section, consumed, budget, redundant, calls)
    if result is None:
        assert action(result, calls, section.threshold) is Action.STOP
        return
    assert all(math.isfinite(v) for v in (result.gain, result.cost, result.redundancy,
                                           result.uncertainty, result.total))
    assert 0 <= result.cost <= 1 and 0 <= result.uncertainty <= 1


UNIT = st.floats(min_value=0, max_value=1, allow_nan=False)


@given(UNIT, UNIT, UNIT, CALLS, THRESHOLD)
def test_a_nan_total_never_runs_a_call(gain: float, cost: float, uncertainty: float,
                                       calls: int, threshold: float) -> None:
    """Even handed a NaN score (score() never builds one), no rule reads it as a run."""
    result = Score(gain=gain, cost=cost, redundancy=0.0, uncertainty=uncertainty,
                   total=math.nan)
    assert action(result, calls, threshold) is not Action.TOOL_CALL


@given(st.sampled_from(["gain_weight", "cost_weight", "redundancy_weight",
                        "uncertainty_bonus"]), st.floats())
def test_a_weight_validates_exactly_when_finite_and_not_negative(key: str,
                                                                 value: float) -> None:
    try:
        UtilitySettings(**{key: value})
    except pydantic.ValidationError as exc:
        assert not (math.isfinite(value) and value >= 0)
        assert exc.errors()[0]["loc"] == (key,)
    else:
        assert math.isfinite(value) and value >= 0


@given(TOOLS, weighted(SANE_WEIGHT), TOKENS, TOKENS, st.integers(min_value=1, max_value=10**7),
       st.booleans(), CALLS)
def test_spending_more_of_the_budget_never_raises_the_score_or_runs_a_skipped_call(
        tool: str, section: UtilitySettings, low: int, extra: int, budget: int,
        redundant: bool, calls: int) -> None:
    cheap = scored(tool, section, low, budget, redundant, calls)
    dear = scored(tool, section, low + extra, budget, redundant, calls)
    assert cheap is not None and dear is not None
    assert dear.total <= cheap.total
    if action(cheap, calls, section.threshold) is not Action.TOOL_CALL:
        assert action(dear, calls, section.threshold) is not Action.TOOL_CALL


@given(TOOLS, weighted(SANE_WEIGHT), TOKENS, TOKENS, st.booleans(), CALLS, CALLS)
def test_later_calls_never_score_higher(tool: str, section: UtilitySettings, consumed: int,
                                        budget: int, redundant: bool, calls: int,
                                        more: int) -> None:
    early = scored(tool, section, consumed, budget, redundant, calls)
    late = scored(tool, section, consumed, budget, redundant, calls + more)
    assert early is not None and late is not None
    assert late.total <= early.total and late.uncertainty <= early.uncertainty


@given(TOOLS, weighted(SANE_WEIGHT), TOKENS, TOKENS, CALLS)
def test_a_repeated_call_never_scores_higher_and_never_runs(tool: str, section: UtilitySettings,
                                                            consumed: int, budget: int,
                                                            calls: int) -> None:
    fresh = scored(tool, section, consumed, budget, False, calls)
    again = scored(tool, section, consumed, budget, True, calls)
    assert fresh is not None and again is not None
    assert again.total <= fresh.total
    assert action(again, calls, section.threshold) in (Action.RESPOND, Action.STOP)


@given(TOOLS, weighted(SANE_WEIGHT), TOKENS, TOKENS, st.booleans(), CALLS,
       st.floats(min_value=0, max_value=5, allow_nan=False))
def test_raising_the_threshold_never_runs_a_skipped_call(tool: str, section: UtilitySettings,
                                                         consumed: int, budget: int,
                                                         redundant: bool, calls: int,
                                                         rise: float) -> None:
    result = scored(tool, section, consumed, budget, redundant, calls)
    assert result is not None
    if action(result, calls, section.threshold) is not Action.TOOL_CALL:
        assert action(result, calls, section.threshold + rise) is not Action.TOOL_CALL


@given(st.one_of(st.none(), st.builds(Score, st.floats(), st.floats(), st.floats(),
                                      st.floats(), st.floats())),
       st.booleans(), st.booleans(), CALLS, st.floats(allow_nan=False))
def test_an_explicit_request_or_a_mandated_retry_always_runs(result: Score | None,
                                                             explicit: bool, mandated: bool,
                                                             calls: int,
                                                             threshold: float) -> None:
    chosen = recommend(result, Situation(explicit, mandated, calls), threshold)[0]
    if explicit or mandated:
        assert chosen is Action.TOOL_CALL
    elif result is None:
        assert chosen is Action.STOP
