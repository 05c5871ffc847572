"""Turn audit events into OpenTelemetry spans, metrics and log records.

The recorder reads only what the audit record holds, which the core has already redacted and
cut: a span never carries a parameter value, and the command text is left out entirely.

==========================  ====================================================================
instrument                  what it counts
==========================  ====================================================================
``tooldeck.calls``          calls, by ``tool`` and ``outcome`` (success, error, blocked …)
``tooldeck.denials``        calls a gate refused, by ``tool`` and ``gate``
``tooldeck.call.duration``  call duration in ms, by ``tool`` (histogram)
``tooldeck.events``         runtime events (policy reloads, scheduler firings …), by ``kind``
==========================  ====================================================================
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["Recorder", "span_attributes"]

_SCOPE = "tooldeck"
_NS = 1_000_000  # nanoseconds per millisecond


def span_attributes(fields: Mapping[str, Any]) -> dict[str, str | int | float | bool]:
    """The span attributes of one ``tool_call`` audit record.

    :param fields: the record's fields (redacted by the core).
    :returns: ``tooldeck.*`` attributes: tool, call id, caller, turn, outcome, category,
        phase, exit code, verdict, gate, rule, policy generation, MCP server.
    """
    result = fields.get("result") or {}
    decision = fields.get("decision") or {}
    pairs: dict[str, Any] = {
        "tooldeck.tool": fields.get("tool"),
        "tooldeck.call_id": fields.get("call_id"),
        "tooldeck.caller_id": fields.get("caller_id"),
        "tooldeck.turn": fields.get("turn"),
        "tooldeck.outcome": result.get("type") if isinstance(result, Mapping) else None,
        "tooldeck.error.category": fields.get("error_category"),
        "tooldeck.error.phase": fields.get("phase"),
        "tooldeck.exit_code": fields.get("exit_code"),
        "tooldeck.verdict": decision.get("verdict") if isinstance(decision, Mapping) else None,
        "tooldeck.gate": decision.get("gate") if isinstance(decision, Mapping) else None,
        "tooldeck.rule": decision.get("rule") if isinstance(decision, Mapping) else None,
        "tooldeck.policy": fields.get("policy"),
        "tooldeck.mcp_server_id": fields.get("mcp_server_id"),
        "tooldeck.duration_ms": fields.get("duration_ms"),
    }
    return {key: value for key, value in pairs.items()
            if isinstance(value, (str, int, float, bool)) and value != ""}


class Recorder:
    """Record audit events on a tracer, a meter and a logger.

    :param tracer_provider: an OpenTelemetry ``TracerProvider``.
    :param meter_provider: an OpenTelemetry ``MeterProvider``.
    :param logger_provider: an OpenTelemetry ``LoggerProvider``.
    """

    def __init__(self, tracer_provider: Any, meter_provider: Any, logger_provider: Any) -> None:
        from tooldeck import __version__

        self._tracer = tracer_provider.get_tracer(_SCOPE, __version__)
        meter = meter_provider.get_meter(_SCOPE, __version__)
        self._logger = logger_provider.get_logger(_SCOPE, __version__)
        self._calls = meter.create_counter("tooldeck.calls", unit="{call}",
                                           description="Tool calls, by tool and outcome.")
        self._denials = meter.create_counter("tooldeck.denials", unit="{call}",
                                             description="Calls a gate refused.")
        self._duration = meter.create_histogram("tooldeck.call.duration", unit="ms",
                                                description="Duration of tool calls.")
        self._events = meter.create_counter("tooldeck.events", unit="{event}",
                                            description="Runtime events, by kind.")

    def record(self, kind: str, ts: float, fields: Mapping[str, Any]) -> None:
        """Record one audit event.

        :param kind: ``tool_call`` or a runtime event kind.
        :param ts: when the event was written (Unix seconds).
        :param fields: the redacted record.
        """
        if kind == "tool_call":
            self._call(ts, fields)
        else:
            self._events.add(1, {"kind": kind})
        self._log(kind, ts, fields)

    def _call(self, ts: float, fields: Mapping[str, Any]) -> None:
        from opentelemetry.trace import Status, StatusCode

        attributes = span_attributes(fields)
        tool = str(attributes.get("tooldeck.tool", "?"))
        outcome = str(attributes.get("tooldeck.outcome", "unknown"))
        duration = attributes.get("tooldeck.duration_ms", 0.0)
        end = int(ts * 1e9)
        start = end - int(float(duration) * _NS)
        span = self._tracer.start_span(f"tool_call {tool}", start_time=start,
                                       attributes=attributes)
        if outcome != "success":
            span.set_status(Status(StatusCode.ERROR, outcome))
        span.end(end_time=end)
        self._calls.add(1, {"tool": tool, "outcome": outcome})
        self._duration.record(float(duration), {"tool": tool})
        if attributes.get("tooldeck.verdict") == "deny" or outcome in ("blocked",
                                                                        "quota_blocked"):
            self._denials.add(1, {"tool": tool,
                                  "gate": str(attributes.get("tooldeck.gate", "unknown"))})

    def _log(self, kind: str, ts: float, fields: Mapping[str, Any]) -> None:
        from opentelemetry._logs import SeverityNumber

        failed = kind == "tool_call" and (fields.get("result") or {}).get("type") != "success"
        body = json.dumps({"kind": kind, **fields}, sort_keys=True, default=str)
        self._logger.emit(timestamp=int(ts * 1e9), body=body, event_name=f"tooldeck.{kind}",
                          severity_number=SeverityNumber.WARN if failed else SeverityNumber.INFO,
                          attributes={"tooldeck.kind": kind})
