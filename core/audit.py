"""Build audit events: one record per finished call, and records for runtime events.

A call record has, in this order: ``tool``, ``call_id``, ``command`` (the tool's input, or
its parameters as JSON, secrets redacted and cut), ``result`` (``{"type": "success"}``,
``{"type": "blocked", "reason": …}``, ``{"type": "error", "message": …}``,
``{"type": "timeout", …}`` or ``{"type": "rollback", "restored": n, "deleted": m}``),
``duration_ms``; then, only when they have a value, ``error_category``, ``exit_code``,
``truncated``, ``caller_id``, ``turn``, ``decision`` (verdict, gate, rule, source),
``approved_by`` and ``policy`` (the digest of the policy generation that decided the call:
the ``new_digest`` of the reload event that put it in place). ``_tafc_think`` fields never
reach a record: the pipeline strips them first.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tooldeck.errors import ErrorCategory
from tooldeck.models import AuditEvent, ToolDef
from tooldeck.secrets import redact

if TYPE_CHECKING:
    from tooldeck.deck import ToolResult

__all__ = ["call_event", "cut", "runtime_event"]


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the cut marked with ``…``."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _command(result: ToolResult, tool: ToolDef | None, limit: int) -> str:
    text = result.call.input_text(tool)
    if not text:
        text = json.dumps(dict(result.call.params), sort_keys=True, default=str)
    return cut(redact(text), limit)


def _outcome(result: ToolResult, limit: int) -> dict[str, Any]:
    error = result.error
    if error is None:
        rollback = result.output.rollback if result.output is not None else None
        if rollback is not None:
            return {"type": "rollback", "restored": rollback.restored,
                    "deleted": rollback.deleted}
        return {"type": "success"}
    message = cut(redact(error.message), limit)
    if error.category is ErrorCategory.TIMEOUT:
        return {"type": "timeout", "message": message}
    if error.category is ErrorCategory.POLICY_BLOCKED:
        return {"type": "blocked", "reason": message}
    return {"type": "error", "message": message}


def call_event(result: ToolResult, tool: ToolDef | None, limit: int, *,
               policy: str | None = None) -> AuditEvent:
    """The audit event for a finished call.

    :param result: how the call ended.
    :param tool: the tool's definition, when the tool exists.
    :param limit: the longest string kept in the record.
    :param policy: the digest of the policy generation that decided the call.
    """
    fields: dict[str, Any] = {
        "tool": result.call.tool_id,
        "call_id": result.call.call_id,
        "command": _command(result, tool, limit),
        "result": _outcome(result, limit),
        "duration_ms": round(result.duration_ms, 3),
    }
    if result.error is not None:
        fields["error_category"] = result.error.category.label
        if result.error.exit_code is not None:
            fields["exit_code"] = result.error.exit_code
    output = result.output
    if output is not None:
        if output.exit_code is not None:
            fields["exit_code"] = output.exit_code
        if output.truncated:
            fields["truncated"] = True
    if result.call.caller_id:
        fields["caller_id"] = result.call.caller_id
    if result.call.turn is not None:
        fields["turn"] = result.call.turn
    if result.decision is not None:
        fields["decision"] = {"verdict": result.decision.verdict.value,
                              **result.decision.provenance()}
    if result.approved_by:
        fields["approved_by"] = result.approved_by
    if policy is not None:
        fields["policy"] = policy
    return AuditEvent(kind="tool_call", ts=time.time(), fields=fields)


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {k: _redact_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact_value(v) for v in value]
    return value


def runtime_event(kind: str, fields: Mapping[str, Any]) -> AuditEvent:
    """An audit event about the runtime itself (``policy.reloaded``, ``policy.reload_failed``).

    String values are redacted: a refused policy's reason can quote rule examples and config
    values, and sinks write ``fields`` as they are.
    """
    return AuditEvent(kind=kind, ts=time.time(), fields=_redact_value(fields))
