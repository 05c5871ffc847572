"""Build audit events: one record per finished call, and records for runtime events.

A call record has, in this order: ``v`` (:data:`SCHEMA_VERSION`), ``tool``, ``call_id``,
``command`` (the tool's input, or
its parameters as JSON, secrets redacted and cut), ``result`` (``{"type": "success"}``,
``{"type": "blocked", "reason": …}``, ``{"type": "error", "message": …}``,
``{"type": "timeout", …}``, ``{"type": "quota_blocked", "reason": …}`` or
``{"type": "rollback", "restored": n, "deleted": m}``, plus
``"unrestored": ["path: reason", …]`` when a change could not be undone),
``duration_ms``; then, only when they have a value, ``error_category`` and ``phase`` (where
the call failed: setup, param_handling, execution), ``exit_code``,
``truncated``, ``cache`` (``hit``, ``miss`` or ``stale``: see the ``result_cache`` plugin),
``caller_id``, ``turn``, ``model`` (which model asked, when known), ``decision``
(``verdict`` and the provenance of
:meth:`tooldeck.models.Decision.provenance`: ``gate``, ``source``, then ``rule``,
``pattern``, ``line``, ``segment`` when known),
``approved_by``, ``mcp_server_id`` (the server of a tool whose :attr:`ToolDef.source`
is ``mcp:<server>``) and ``policy`` (the digest of the policy generation that decided the call:
the ``new_digest`` of the reload event that put it in place). ``_tafc_think`` fields never
reach a record: the pipeline strips them first.

:func:`safe_call_event` is what the pipeline calls: it never raises, and the fields it
returns are JSON-safe (see :mod:`tooldeck.safe_json`): strings cut to ``max_value_chars``
with lone surrogates escaped, nesting and the record's size capped, whatever the model sent.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping
from typing import Any

from tooldeck.errors import ErrorCategory
from tooldeck.models import AuditEvent, ToolDef
from tooldeck.results import ToolResult
from tooldeck.safe_json import json_safe, plain_json, safe_repr
from tooldeck.secrets import redact

__all__ = [
    "MCP_SOURCE", "RECORD_BUDGET", "SCHEMA_VERSION", "call_event", "cut", "runtime_event",
    "safe_call_event",
]

MCP_SOURCE = "mcp:"
"""The :attr:`ToolDef.source` prefix of tools served by an MCP server."""

SCHEMA_VERSION = 2
"""The ``v`` of every call record. Records without ``v`` are version 1: a decision had only
``gate``, ``rule`` (a permission rule's pattern) and ``source``, and no ``line``, ``pattern``
or ``segment``."""

RECORD_BUDGET = 16
"""A call record's whole size is capped at this many times ``max_value_chars``."""


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the cut marked with ``…``."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _command(result: ToolResult, tool: ToolDef | None, limit: int) -> str:
    text = result.call.input_text(tool)
    if not text:
        params = json_safe(result.call.params, max_chars=limit * 2)
        text = json.dumps(params, sort_keys=True, allow_nan=False)
    return cut(redact(text), limit)


def _outcome(result: ToolResult, limit: int) -> dict[str, Any]:
    error = result.error
    if error is None:
        rollback = result.output.rollback if result.output is not None else None
        if rollback is not None:
            record: dict[str, Any] = {"type": "rollback", "restored": rollback.restored,
                                      "deleted": rollback.deleted}
            if rollback.unrestored:
                record["unrestored"] = [cut(redact(item), limit) for item in rollback.unrestored]
            return record
        return {"type": "success"}
    message = cut(redact(error.message), limit)
    if error.category is ErrorCategory.TIMEOUT:
        return {"type": "timeout", "message": message}
    if error.category is ErrorCategory.POLICY_BLOCKED:
        return {"type": "blocked", "reason": message}
    if error.category is ErrorCategory.QUOTA_BLOCKED:
        return {"type": "quota_blocked", "reason": message}
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
        "v": SCHEMA_VERSION,
        "tool": result.call.tool_id,
        "call_id": result.call.call_id,
        "command": _command(result, tool, limit),
        "result": _outcome(result, limit),
        "duration_ms": round(result.duration_ms, 3),
    }
    if result.error is not None:
        fields["error_category"] = result.error.category.label
        fields["phase"] = result.error.category.phase.value
        if result.error.exit_code is not None:
            fields["exit_code"] = result.error.exit_code
    output = result.output
    if output is not None:
        if output.exit_code is not None:
            fields["exit_code"] = output.exit_code
        if output.truncated:
            fields["truncated"] = True
        if output.cache is not None:
            fields["cache"] = output.cache
    if result.call.caller_id:
        fields["caller_id"] = result.call.caller_id
    if result.call.turn is not None:
        fields["turn"] = result.call.turn
    if result.call.model:
        fields["model"] = cut(redact(result.call.model), limit)
    if result.decision is not None:
        fields["decision"] = {"verdict": result.decision.verdict.value,
                              **result.decision.provenance()}
    if result.approved_by:
        fields["approved_by"] = result.approved_by
    if result.approval_id:
        fields["approval_id"] = result.approval_id
    if tool is not None and tool.source is not None and tool.source.startswith(MCP_SOURCE):
        fields["mcp_server_id"] = tool.source[len(MCP_SOURCE):]
    if policy is not None:
        fields["policy"] = policy
    return AuditEvent(kind="tool_call", ts=time.time(), fields=fields)


def safe_call_event(result: ToolResult, tool: ToolDef | None, limit: int, *,
                    policy: str | None = None) -> AuditEvent:
    """:func:`call_event` with JSON-safe fields; never raises, so no call goes unaudited.

    Should building the record fail, a minimal record (tool, call id, the failure) stands in
    for it and the failure is reported on stderr.

    :param result: how the call ended.
    :param tool: the tool's definition, when the tool exists.
    :param limit: the longest string kept in the record.
    :param policy: the digest of the policy generation that decided the call.
    """
    try:
        event = call_event(result, tool, limit, policy=policy)
    except Exception as exc:
        print(f"tooldeck: building the audit record of {safe_repr(result.call.tool_id)} failed: "
              f"{type(exc).__name__}", file=sys.stderr)
        fields: dict[str, Any] = {
            "v": SCHEMA_VERSION,
            "tool": result.call.tool_id,
            "call_id": result.call.call_id,
            "command": "",
            "result": {"type": "error",
                       "message": f"audit record incomplete: {type(exc).__name__}"},
            "duration_ms": result.duration_ms,
        }
        if result.error is not None:
            fields["error_category"] = result.error.category.label
        if policy is not None:
            fields["policy"] = policy
        event = AuditEvent(kind="tool_call", ts=time.time(), fields=fields)
    budget = limit * RECORD_BUDGET
    # every key of a call record is a string this module wrote, so the unsorted encoding
    # plain_json checks is also the line the sinks write: it is kept on the event
    encoded = plain_json(event.fields, max_chars=budget, max_string=limit)
    if encoded is not None:  # a short plain record (most calls): nothing to escape, cut or convert
        object.__setattr__(event, "line", f'{{"ts": "{event.ts:.3f}", "kind": "{event.kind}", '
                           f"{encoded[1:]}")
        return event
    safe = json_safe(event.fields, max_chars=budget, max_string=limit)
    return AuditEvent(kind=event.kind, ts=event.ts, fields=safe)


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
