"""The utility of one call and what to do about it (Zeph §7.6): pure functions, no state.

The gain of a tool, by name (the first row that matches):

=============================================================  =====
tool                                                           gain
=============================================================  =====
listed in ``high_gain_tools`` (case-insensitive)               0.75
name starting with ``memory``                                  0.8
``bash``, ``shell``                                            0.6
``read``, ``write``                                            0.55
``search_code``, ``grep``, ``glob``, ``find_path``,            0.65
``list_directory``
``diagnostics``, ``edit``, ``format``, ``create_directory``,   0.75
``delete_path``, ``move_path``, ``copy_path``
anything else                                                  0.5
=============================================================  =====

The score::

    cost        = clamp(tokens_consumed / token_budget, 0, 1)   (0 when the budget is 0)
    redundancy  = 1 if the same tool and parameters were already called this turn, else 0
    uncertainty = clamp(1 - calls_made / 10, 0, 1)
    total       = gain_weight·gain - cost_weight·cost - redundancy_weight·redundancy
                  + uncertainty_bonus·uncertainty

A score with a component that is not finite is no score (huge weights can overflow).

The recommendation, the first rule that applies:

====  ====================  ===================================================  ==========
#     rule                  when                                                 action
====  ====================  ===================================================  ==========
1     explicit-request      the user's message asks for a tool (:mod:`.explicit`)  ToolCall
2     disabled              ``enabled = false``: the gate is not registered      ToolCall
3     mandated-retry        the call is the retry a Retrieve asked for           ToolCall
4     no-score              the score is not finite                              Stop
5     budget                cost > 0.9                                           Stop
6     redundant             redundancy = 1                                       Respond
7     high-gain             gain ≥ 0.7 and total ≥ threshold                     ToolCall
8     uncertain             gain ≥ 0.5 and uncertainty > 0.5                     Retrieve
9     below-threshold       total < threshold and calls made > 0                 Verify
10    above-threshold       total ≥ threshold                                    ToolCall
11    otherwise             —                                                    Respond
====  ====================  ===================================================  ==========
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable

import attrs

from tooldeck.plugins.utility.settings import UtilitySettings

__all__ = ["DIRECT_GAIN", "Action", "Score", "Situation", "gain_of", "recommend", "score"]

DIRECT_GAIN = 0.75
"""The gain of direct actions, and of the tools ``high_gain_tools`` lists."""

_MEMORY_PREFIX, _MEMORY_GAIN = "memory", 0.8
_GAINS: tuple[tuple[frozenset[str], float], ...] = (
    (frozenset({"bash", "shell"}), 0.6),
    (frozenset({"read", "write"}), 0.55),
    (frozenset({"search_code", "grep", "glob", "find_path", "list_directory"}), 0.65),
    (frozenset({"diagnostics", "edit", "format", "create_directory", "delete_path",
                "move_path", "copy_path"}), DIRECT_GAIN),
)
_DEFAULT_GAIN = 0.5
_CALLS_OF_FULL_CERTAINTY = 10
_BUDGET_STOP = 0.9
_HIGH_GAIN = 0.7
_RETRIEVE_GAIN = 0.5
_RETRIEVE_UNCERTAINTY = 0.5


class Action(str, enum.Enum):
    """What the utility policy recommends for a call; the value is what audit records say."""

    TOOL_CALL = "tool_call"
    """Run the call."""
    RESPOND = "respond"
    """Answer the user without this call."""
    RETRIEVE = "retrieve"
    """Gather context first, then make the same call again."""
    VERIFY = "verify"
    """Check the previous result before calling again."""
    STOP = "stop"
    """Stop using tools: the budget is nearly spent, or the call could not be scored."""


@attrs.frozen
class Score:
    """The components of a call's utility and their weighted total.

    :param gain: the tool's expected gain (the table above).
    :param cost: the share of the token budget used, 0 to 1.
    :param redundancy: 1 when the same call was already made this turn, else 0.
    :param uncertainty: 1 at the turn's first call, down to 0 at its tenth.
    :param total: the weighted sum.
    """

    gain: float
    cost: float
    redundancy: float
    uncertainty: float
    total: float


@attrs.frozen
class Situation:
    """What the recommendation needs besides the score.

    :param explicit_request: the user's message asks for a tool.
    :param mandated_retry: the call repeats one a ``Retrieve`` told the model to make again.
    :param calls_made: calls the turn made before this one.
    """

    explicit_request: bool
    mandated_retry: bool
    calls_made: int


def _listed(tool_id: str, names: Iterable[str]) -> bool:
    lowered = tool_id.lower()
    return any(lowered == name.lower() for name in names)


def gain_of(tool_id: str, high_gain_tools: Iterable[str] = ()) -> float:
    """The expected gain of calling ``tool_id``.

    :param tool_id: the tool.
    :param high_gain_tools: tools the operator raised to :data:`DIRECT_GAIN`.
    :returns: the gain, by the table above.
    """
    if _listed(tool_id, high_gain_tools):
        return DIRECT_GAIN
    if tool_id.startswith(_MEMORY_PREFIX):
        return _MEMORY_GAIN
    for names, gain in _GAINS:
        if tool_id in names:
            return gain
    return _DEFAULT_GAIN


def _clamp(value: float) -> float:
    return min(max(value, 0.0), 1.0)


def score(tool_id: str, settings: UtilitySettings, *, tokens_consumed: int, token_budget: int,
          redundant: bool, calls_made: int) -> Score | None:
    """Score a call.

    :param tool_id: the called tool.
    :param settings: the weights and ``high_gain_tools``.
    :param tokens_consumed: the tokens the conversation uses.
    :param token_budget: the tokens it may use; ``0`` when unknown (no cost).
    :param redundant: the same tool and parameters were already called this turn.
    :param calls_made: calls the turn made before this one.
    :returns: the score, or ``None`` when a component or the total is not finite.
    """
    gain = gain_of(tool_id, settings.high_gain_tools)
    cost = _clamp(tokens_consumed / token_budget) if token_budget > 0 else 0.0
    redundancy = 1.0 if redundant else 0.0
    uncertainty = _clamp(1.0 - calls_made / _CALLS_OF_FULL_CERTAINTY)
    total = (settings.gain_weight * gain - settings.cost_weight * cost
             - settings.redundancy_weight * redundancy
             + settings.uncertainty_bonus * uncertainty)
    parts = (gain, cost, redundancy, uncertainty, total)
    if not all(math.isfinite(part) for part in parts):
        return None
    return Score(*parts)


def recommend(result: Score | None, situation: Situation,
              threshold: float) -> tuple[Action, str]:
    """The action the decision order recommends, and the rule that chose it.

    Rule 2 (``enabled = false``) is not here: a disabled gate is never registered.

    :param result: the call's score, or ``None`` when it has none.
    :param situation: the explicit request, the mandated retry, the calls made.
    :param threshold: ``[tools.utility] threshold``.
    :returns: the action and the rule's name (the table above).
    """
    if situation.explicit_request:
        return Action.TOOL_CALL, "explicit-request"
    if situation.mandated_retry:
        return Action.TOOL_CALL, "mandated-retry"
    if result is None:
        return Action.STOP, "no-score"
    if result.cost > _BUDGET_STOP:
        return Action.STOP, "budget"
    if result.redundancy >= 1.0:
        return Action.RESPOND, "redundant"
    if result.gain >= _HIGH_GAIN and result.total >= threshold:
        return Action.TOOL_CALL, "high-gain"
    if result.gain >= _RETRIEVE_GAIN and result.uncertainty > _RETRIEVE_UNCERTAINTY:
        return Action.RETRIEVE, "uncertain"
    if result.total < threshold and situation.calls_made > 0:
        return Action.VERIFY, "below-threshold"
    if result.total >= threshold:
        return Action.TOOL_CALL, "above-threshold"
    return Action.RESPOND, "otherwise"
