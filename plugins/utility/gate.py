"""The utility gate: skip the calls of a user turn that are not worth making (Zeph §7.6).

It judges a call just before it runs (``tooldeck_probe_call``), so it only ever sees calls
the policy gates let through: it can skip a call, never let one run that a gate refused,
and a security deny is never reported as a skip.

=====================  ======================================================================
step                   behaviour
=====================  ======================================================================
exempt                 a tool in ``exempt_tools`` is not scored, remembered or audited
no turn                a call made outside a user turn (no :func:`~tooldeck.turns.turn_of`:
                       the command line, the MCP server, the scheduler) cannot be scored; it
                       runs, and a ``utility.verdict`` event with rule ``no-turn`` records
                       that it ran unscored
score, recommend       :mod:`.score` with the turn's explicit request (:mod:`.explicit`, on
                       the turn's user message), tokens, budget and calls made
remember               every scored call is remembered for the turn (rule 6, redundancy);
                       a ``Retrieve`` mandates the same call's next occurrence (rule 3),
                       once
ToolCall               no vote: the call runs
anything else          deny with category ``cancelled``: the model reads
                       ``[utility:<action>] …`` and a suggestion of what to do instead; the
                       call does not use the quota, and the anomaly detector does not count
                       it as a failure
window                 after ``utility_window`` scored calls in a row that were not run, the
                       gate ends the turn (rule ``utility.window``): the deck refuses the
                       turn's later calls and the tool loop stops with ``turn_ended``
audit                  each scored call: a ``utility.verdict`` event with the
                       recommendation, the rule and every score component
=====================  ======================================================================
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs

from tooldeck import hookimpl
from tooldeck.audit import runtime_event
from tooldeck.errors import ErrorCategory
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.utility.explicit import explicit_request
from tooldeck.plugins.utility.score import Action, Score, Situation, recommend, score
from tooldeck.plugins.utility.settings import UtilitySettings
from tooldeck.runtime import Runtime, StashKey
from tooldeck.turns import TurnContext, turn_of

__all__ = ["GATE", "MEMO", "TurnMemo", "UtilityGate", "call_key"]

GATE = "utility"
"""The gate's name in decisions, audit events and ended turns."""

WINDOW_RULE = "utility.window"
"""The rule of a turn the gate ended."""

_SAYS: dict[Action, str] = {
    Action.RESPOND: "the utility policy recommends answering directly, without more tool use",
    Action.RETRIEVE: "the utility policy recommends retrieving context first",
    Action.VERIFY: "the utility policy recommends verifying the previous result first",
    Action.STOP: "the utility policy stops tool use",
}

_SUGGESTIONS: dict[Action, str] = {
    Action.RESPOND: "Answer the user directly with what you already have.",
    Action.RETRIEVE: "Retrieve relevant context first (memory_search or a related lookup), "
                     "then call {tool} again with the same arguments: that call will run.",
    Action.VERIFY: "Check that the previous tool result is correct and that another call is "
                   "needed before calling {tool} again.",
    Action.STOP: "Stop calling tools and answer with what you have.",
}


def call_key(call: ToolCall) -> str:
    """The identity of a call for redundancy: a digest of its tool and canonical parameters.

    :param call: the call (validated parameters).
    :returns: a hex digest; equal for the same tool and parameters in any key order.
    """
    try:
        text = json.dumps([call.tool_id, call.params], sort_keys=True, default=repr,
                          ensure_ascii=False)
    except (TypeError, ValueError):  # keys that do not sort (a tool's own dict types)
        text = repr([call.tool_id, call.params])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@attrs.define
class TurnMemo:
    """What the gate remembers about one user turn (kept on the turn itself)."""

    seen: set[str] = attrs.field(factory=set)
    """Keys of the calls scored this turn."""
    mandated: set[str] = attrs.field(factory=set)
    """Keys of calls a ``Retrieve`` told the model to make again, not yet made."""
    skipped_in_a_row: int = 0
    """Scored calls not run since the last one that ran."""
    _explicit: tuple[str, bool] | None = None

    def explicit(self, message: str) -> bool:
        """Whether the turn's user message asks for a tool (computed once per message)."""
        if self._explicit is None or self._explicit[0] != message:
            self._explicit = (message, explicit_request(message))
        return self._explicit[1]

    def take_mandated(self, key: str) -> bool:
        """Whether ``key`` is a mandated retry; the mandate is used up."""
        if key in self.mandated:
            self.mandated.discard(key)
            return True
        return False


MEMO = StashKey[TurnMemo]("utility.turn")
"""Where the gate keeps its :class:`TurnMemo` on a :class:`~tooldeck.turns.TurnContext`."""


def _detail(rule: str, result: Score | None, threshold: float) -> str:
    if result is None:
        return "the call could not be scored"
    if rule == "budget":
        return f"{result.cost:.0%} of the token budget is used"
    if rule == "redundant":
        return "the same call was already made in this turn"
    if rule == "uncertain":
        return f"expected gain {result.gain:.2f}, and little is known yet this early in the turn"
    return f"utility {result.total:.2f} is below the threshold {threshold:.2f}"


def _components(result: Score | None) -> dict[str, float | None]:
    names = ("gain", "cost", "redundancy", "uncertainty", "total")
    if result is None:
        return dict.fromkeys(names)
    return {name: round(getattr(result, name), 6) for name in names}


class UtilityGate:
    """Scores each call of a user turn and skips those the decision order says not to run.

    :param settings: ``[tools.utility]``.
    :param source: where the settings came from, for the decisions' provenance.
    """

    name = GATE

    def __init__(self, settings: UtilitySettings, source: str) -> None:
        self.settings = settings
        self.source = source
        self.exempt = frozenset(name.lower() for name in settings.exempt_tools)

    def _audit(self, runtime: Runtime, call: ToolCall, fields: dict[str, Any]) -> None:
        runtime.hooks.audit(runtime_event(f"{GATE}.verdict", {
            "call_id": call.call_id, "tool": call.tool_id, "caller_id": call.caller_id,
            **fields}), runtime)

    def _judge(self, call: ToolCall, turn: TurnContext) -> tuple[Action, str, Score | None,
                                                                  Situation, bool]:
        """Score and recommend, and remember the call; the last item: the turn ends."""
        memo = turn.setdefault(MEMO, TurnMemo)
        key = call_key(call)
        situation = Situation(explicit_request=memo.explicit(turn.user_message),
                              mandated_retry=memo.take_mandated(key),
                              calls_made=turn.calls_made)
        result = score(call.tool_id, self.settings, tokens_consumed=turn.tokens_consumed,
                       token_budget=turn.token_budget, redundant=key in memo.seen,
                       calls_made=turn.calls_made)
        action, rule = recommend(result, situation, self.settings.threshold)
        memo.seen.add(key)
        if action is Action.RETRIEVE:
            memo.mandated.add(key)
        memo.skipped_in_a_row = 0 if action is Action.TOOL_CALL else memo.skipped_in_a_row + 1
        window = self.settings.utility_window
        return action, rule, result, situation, 0 < window <= memo.skipped_in_a_row

    @hookimpl
    def tooldeck_probe_call(self, call: ToolCall, tool: ToolDef,
                            runtime: Runtime) -> Decision | None:
        """Skip (deny as ``cancelled``) a call the decision order does not recommend."""
        if tool.id.lower() in self.exempt:
            return None
        turn = turn_of(call)
        if turn is None:
            self._audit(runtime, call, {"recommendation": Action.TOOL_CALL.value,
                                        "rule": "no-turn", "scored": False})
            return None
        action, rule, result, situation, ends = self._judge(call, turn)
        threshold = self.settings.threshold
        self._audit(runtime, call, {
            "turn_id": turn.turn_id, "recommendation": action.value, "rule": rule,
            "scored": True, **_components(result), "threshold": threshold,
            "calls_made": situation.calls_made, "tokens_consumed": turn.tokens_consumed,
            "token_budget": turn.token_budget, "explicit_request": situation.explicit_request,
            "mandated_retry": situation.mandated_retry, "ends_turn": ends})
        if ends:
            window = self.settings.utility_window
            turn.end(GATE, WINDOW_RULE, f"the utility gate did not let {window} calls in a "
                     f"row run (utility_window = {window}); the turn ends here")
        if action is Action.TOOL_CALL:
            return None
        reason = (f"[utility:{action.value}] {tool.id} was not run: {_SAYS[action]} "
                  f"({_detail(rule, result, threshold)})")
        if ends:
            reason += f"; {self.settings.utility_window} calls in a row were not run, so " \
                      "the turn ends here"
        return Decision(Verdict.DENY, reason, gate=GATE, rule=f"utility.{rule}",
                        source=self.source, category=ErrorCategory.CANCELLED,
                        suggestion=_SUGGESTIONS[action].format(tool=tool.id))
