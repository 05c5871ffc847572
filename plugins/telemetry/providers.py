"""The OpenTelemetry providers a deck records on, per ``[tools.telemetry] exporter``.

``host`` takes the global providers of the program tooldeck is embedded in (whatever it set
with ``opentelemetry.trace.set_tracer_provider`` and friends; no-ops when it set none).
``otlp`` and ``console`` build the deck's own SDK providers, flushed and shut down with the
deck. The SDK is imported only here, so a deck with telemetry off never loads it.
"""

from __future__ import annotations

import os
from typing import Any

from tooldeck.plugins.telemetry.settings import TelemetrySettings

__all__ = ["Providers", "build_providers"]


class Providers:
    """A tracer, meter and logger provider, and whether this deck must shut them down."""

    def __init__(self, tracer: Any, meter: Any, logger: Any, *, owned: bool) -> None:
        self.tracer, self.meter, self.logger = tracer, meter, logger
        self.owned = owned

    async def aclose(self) -> None:
        """Flush and shut down the providers the deck built (never the host's)."""
        if not self.owned:
            return
        for provider in (self.tracer, self.meter, self.logger):
            provider.shutdown()


def _headers(settings: TelemetrySettings) -> dict[str, str]:
    headers = {}
    for header, variable in settings.headers_from_env.items():
        value = os.environ.get(variable)
        if value is None:
            raise ValueError(f"[tools.telemetry] headers_from_env: ${variable} is not set "
                             f"(for header {header!r})")
        headers[header] = value
    return headers


def build_providers(settings: TelemetrySettings) -> Providers:
    """The providers ``settings`` ask for.

    :raises ValueError: when a header's environment variable is unset.
    :raises ImportError: when the OpenTelemetry SDK (or the OTLP exporter) is not installed.
    """
    if settings.exporter == "host":
        from opentelemetry import _logs, metrics, trace

        return Providers(trace.get_tracer_provider(), metrics.get_meter_provider(),
                         _logs.get_logger_provider(), owned=False)
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create({"service.name": settings.service_name})
    if settings.exporter == "console":
        from opentelemetry.sdk._logs.export import ConsoleLogRecordExporter
        from opentelemetry.sdk.metrics.export import ConsoleMetricExporter
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        spans: Any = ConsoleSpanExporter()
        points: Any = ConsoleMetricExporter()
        logs: Any = ConsoleLogRecordExporter()
    else:
        from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        headers = _headers(settings)
        base = settings.endpoint.rstrip("/") if settings.endpoint else None

        def at(path: str) -> dict[str, Any]:
            return {"headers": headers or None,
                    **({"endpoint": f"{base}/v1/{path}"} if base else {})}

        spans, points, logs = (OTLPSpanExporter(**at("traces")),
                               OTLPMetricExporter(**at("metrics")), OTLPLogExporter(**at("logs")))
    tracer = TracerProvider(resource=resource)
    tracer.add_span_processor(BatchSpanProcessor(spans))
    meter = MeterProvider(resource=resource,
                          metric_readers=[PeriodicExportingMetricReader(points)])
    logger = LoggerProvider(resource=resource)
    logger.add_log_record_processor(BatchLogRecordProcessor(logs))
    return Providers(tracer, meter, logger, owned=True)
