"""``[tools.telemetry]``: whether, and where, calls are exported through OpenTelemetry."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from tooldeck.config import StrictModel

__all__ = ["SECTION", "TelemetrySettings"]

SECTION = "tools.telemetry"
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_HEADER_NAME = re.compile(r"^[A-Za-z0-9-]+$")


class TelemetrySettings(StrictModel):
    """``[tools.telemetry]``: spans, metrics and log records of every call (off by default)."""

    enabled: bool = Field(False, description="Export every call through OpenTelemetry.")
    exporter: Literal["host", "otlp", "console"] = Field(
        "host",
        description="host: the providers the embedding program set up (opentelemetry's "
        "global API); otlp: OTLP over HTTP to `endpoint`; console: print to stderr.",
    )
    endpoint: str | None = Field(
        None, description="otlp: the collector's base URL (default: the OTEL_EXPORTER_OTLP_* "
        "environment variables, else http://localhost:4318).",
    )
    headers_from_env: dict[str, str] = Field(
        default_factory=dict,
        description="otlp: header name -> environment variable holding its value (tokens "
        "never sit in the TOML).",
    )
    service_name: str = Field("tooldeck", min_length=1, description="The service.name resource.")

    @field_validator("headers_from_env")
    @classmethod
    def _names(cls, value: dict[str, str]) -> dict[str, str]:
        for header, variable in value.items():
            if not _HEADER_NAME.match(header):
                raise ValueError(f"{header!r} is not a header name")
            if not _ENV_NAME.match(variable):
                raise ValueError(f"{variable!r} is not an environment variable name")
        return value
