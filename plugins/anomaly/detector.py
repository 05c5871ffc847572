"""The anomaly detector: counts each caller's outcomes and blocks the caller at the critical rate.

=================  ===========================================================================
step               behaviour
=================  ===========================================================================
judge              every call a gate is asked about is remembered (by its call id and caller
                   as the audit record will show them) with its caller; a caller this
                   detector blocked is denied: ``all tools blocked (trust=blocked)``
count              the call's audit record gives its outcome (see :mod:`.window`); calls that
                   never reached the gates (malformed, unknown tool, bad parameters) are not
                   counted, nor are the denials of a caller that is already blocked
warning            entering the warning rate writes an ``anomaly.warning`` audit event
critical           the caller's trust becomes ``blocked`` in the user's trust state (by
                   ``anomaly``), audited as ``trust.blocked``; it stays until an operator
                   runs ``tooldeck trust reset CALLER`` (or sets another level)
reset seen         when the block is gone from the trust state, the caller starts with an
                   empty window, audited as ``anomaly.reset_observed``
fail closed        an unreadable trust state denies; a block that cannot be written is kept
                   in memory for the deck's life (and ``trust.blocked`` says
                   ``persisted: false``)
=================  ===========================================================================

The detector also answers ``tooldeck_trust_level`` (``blocked`` for the callers it blocked), so
trust-aware rules see the block, and its own gate enforces it even with the trust gate
disabled.
"""

from __future__ import annotations

import sys

from tooldeck import hookimpl
from tooldeck.audit import cut, runtime_event
from tooldeck.models import AuditEvent, Decision, ToolCall, Verdict
from tooldeck.plugins.anomaly.reasoning import QUALITY_FAILURES, is_reasoning_model
from tooldeck.plugins.anomaly.settings import AnomalySettings
from tooldeck.plugins.anomaly.watch import Block, Pending, Watch
from tooldeck.plugins.anomaly.window import Alert, Severity, outcome_of
from tooldeck.runtime import Runtime, StashKey
from tooldeck.safe_json import safe_text
from tooldeck.trust_levels import TrustLevel
from tooldeck.trust_state import (
    MAX_NAME_CHARS,
    Override,
    Subject,
    TrustStateError,
    session_trust_state,
)

__all__ = ["BY", "WATCH", "AnomalyDetector"]

BY = "anomaly"
"""The ``by`` of the trust rows the detector writes."""

WATCH = StashKey[Watch]("anomaly.watch")
"""Where the deck's detector memory lives in :attr:`Runtime.session`."""

_DENIED = "all tools blocked (trust=blocked)"


def _caller(call: ToolCall) -> str | None:
    """The caller's name (``''`` for none), or ``None`` when no row could name it."""
    caller = call.caller_id
    if caller is None:
        return ""
    if not isinstance(caller, str) or len(caller) > MAX_NAME_CHARS:
        return None
    return caller


def _as_audited(text: str, runtime: Runtime) -> str:
    """``text`` exactly as an audit record carries it (cut, lone surrogates escaped)."""
    return safe_text(cut(text, runtime.settings.core.audit.max_value_chars))


class AnomalyDetector:
    """Counts outcomes per caller and blocks callers at the critical rate.

    :param settings: ``[tools.anomaly]``.
    """

    name = "detector"

    def __init__(self, settings: AnomalySettings) -> None:
        self.settings = settings

    def _block_reason(self, caller: str, runtime: Runtime) -> tuple[str | None, bool]:
        """Why this detector blocks ``caller``, and whether anyone blocked it.

        :returns: the block's reason (``None``: this detector does not block the caller) and
            whether the caller's run-time level is ``blocked`` at all.
        :raises TrustStateError: the trust state cannot be read.
        """
        watch = runtime.session.setdefault(WATCH, Watch)
        row = session_trust_state(runtime).get(Subject.caller(caller))
        blocked = row is not None and row.level is TrustLevel.BLOCKED
        if blocked and row is not None and row.by == BY:
            return row.reason, True
        remembered = watch.blocks.get(caller)
        if remembered is None:
            return None, blocked
        if remembered.persisted:  # the row is gone or replaced: an operator reset it
            watch.forget(caller)
            runtime.hooks.audit(runtime_event("anomaly.reset_observed", {
                "subject": "caller", "name": caller,
                "now": None if row is None else str(row.level),
                "now_by": None if row is None else row.by}), runtime)
            return None, blocked
        return remembered.reason, True

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, runtime: Runtime) -> Decision | None:
        """Deny a caller this detector blocked; remember the call to count its outcome."""
        if not self.settings.enabled:
            return None
        caller = _caller(call)
        if caller is None:
            return Decision(Verdict.DENY, _DENIED, gate="anomaly",
                            rule="anomaly-caller (the caller id cannot be tracked)")
        try:
            reason, blocked = self._block_reason(caller, runtime)
        except TrustStateError as exc:
            return Decision(Verdict.DENY, _DENIED, gate="anomaly",
                            rule=f"anomaly-state (trust state unreadable: {exc})")
        watch = runtime.session.setdefault(WATCH, Watch)
        watch.expect(_as_audited(str(call.call_id), runtime),
                     Pending(caller, _as_audited(caller, runtime), counted=not blocked))
        if reason is not None:
            return Decision(Verdict.DENY, _DENIED, gate="anomaly",
                            rule=f"anomaly-block (caller {caller!r}: {reason}; an operator "
                                 f"resets it with: tooldeck trust reset)")
        return None

    @hookimpl
    def tooldeck_trust_level(self, call: ToolCall, runtime: Runtime) -> TrustLevel | None:
        """``blocked`` for a caller this detector blocked; otherwise abstain."""
        if not self.settings.enabled:
            return None
        caller = _caller(call)
        if caller is None:
            return TrustLevel.BLOCKED
        reason, _ = self._block_reason(caller, runtime)  # unreadable state: raises, blocked
        return TrustLevel.BLOCKED if reason is not None else None

    @hookimpl(trylast=True)  # after the sinks: the call's record is written before the block's
    def tooldeck_audit(self, event: AuditEvent, runtime: Runtime) -> None:
        """Count a judged call's outcome; warn or block when the rate crosses a threshold."""
        if not self.settings.enabled or event.kind != "tool_call":
            return
        self._reasoning_amplification(event, runtime)
        watch = runtime.session.setdefault(WATCH, Watch)
        pending = watch.take(str(event.fields.get("call_id")),
                             str(event.fields.get("caller_id") or ""))
        if pending is None or not pending.counted or pending.caller in watch.blocks:
            return
        outcome = outcome_of(event.fields)
        if outcome is None:
            return
        settings = self.settings
        window = watch.window(pending.caller, settings.window_size)
        window.record(outcome)
        alert = window.alert(settings.error_threshold, settings.critical_threshold)
        before = watch.severity.pop(pending.caller, None)
        if alert is None:
            return
        watch.severity[pending.caller] = alert.severity
        if alert.severity is Severity.CRITICAL:
            self._block(pending.caller, alert, runtime, watch)
        elif before is None:
            runtime.hooks.audit(runtime_event("anomaly.warning", {
                "subject": "caller", "name": pending.caller, "message": alert.message,
                "failures": alert.failures, "total": alert.total}), runtime)

    def _reasoning_amplification(self, event: AuditEvent, runtime: Runtime) -> None:
        """Audit a reasoning model's own mistake as ``anomaly.reasoning_amplification``.

        Such a call never reaches the gates, so the failure window does not count it.
        """
        fields = event.fields
        model = fields.get("model")
        if (self.settings.reasoning_model_warning and isinstance(model, str)
                and fields.get("error_category") in QUALITY_FAILURES
                and is_reasoning_model(model)):
            runtime.hooks.audit(runtime_event("anomaly.reasoning_amplification", {
                "subject": "caller", "name": str(fields.get("caller_id") or ""),
                "model": model, "call_id": fields.get("call_id"),
                "category": fields.get("error_category")}), runtime)

    def _block(self, caller: str, alert: Alert, runtime: Runtime, watch: Watch) -> None:
        previous: Override | None = None
        try:
            state = session_trust_state(runtime)
            current = state.get(Subject.caller(caller))
            if current is not None and current.level is TrustLevel.BLOCKED:
                return  # blocked already, by an operator: their row stays as it is
            previous = state.set(Subject.caller(caller), TrustLevel.BLOCKED, by=BY,
                                 reason=alert.message)
            persisted = True
        except (TrustStateError, ValueError) as exc:
            print(f"tooldeck: anomaly: cannot record the block of caller {caller!r} in the "
                  f"trust state; it holds for this deck only: {exc}", file=sys.stderr)
            persisted = False
        watch.blocks[caller] = Block(alert.message, persisted)
        runtime.hooks.audit(runtime_event("trust.blocked", {
            "subject": "caller", "name": caller, "level": str(TrustLevel.BLOCKED), "by": BY,
            "reason": alert.message, "failures": alert.failures, "total": alert.total,
            "persisted": persisted,
            "previous": None if previous is None else str(previous.level)}), runtime)
