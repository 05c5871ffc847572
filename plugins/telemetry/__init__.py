"""Built-in plugin ``telemetry``: every call as an OpenTelemetry span, metric and log record.

=============  ==============================================================================
module         job
=============  ==============================================================================
``settings``   ``[tools.telemetry]``, validated (off by default)
``providers``  the tracer/meter/logger providers: the host program's, or OTLP / console ones
``recorder``   audit event -> span, counters and histogram, log record
=============  ==============================================================================

It listens on ``tooldeck_audit``, so it sees exactly what the audit log sees, already
redacted. With ``enabled = false`` (the default) it does nothing and never imports the SDK.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from tooldeck import hookimpl
from tooldeck.models import AuditEvent
from tooldeck.plugins.telemetry.settings import SECTION, TelemetrySettings
from tooldeck.runtime import Runtime, StashKey

if TYPE_CHECKING:
    from tooldeck.plugins.telemetry.providers import Providers
    from tooldeck.plugins.telemetry.recorder import Recorder

_RECORDER: StashKey[Recorder | None] = StashKey("telemetry.recorder")


class _Decks:
    """Per deck: the providers and recorder for each distinct settings (reloads reuse them)."""

    def __init__(self) -> None:
        self.by_settings: dict[str, tuple[Providers, Recorder]] = {}

    async def aclose(self) -> None:
        entries, self.by_settings = list(self.by_settings.values()), {}
        for providers, _ in entries:
            await providers.aclose()


_DECKS: StashKey[_Decks] = StashKey("telemetry.decks")


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[tools.telemetry]``."""
    register(SECTION, TelemetrySettings)


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Build (or reuse) the providers and recorder when telemetry is on.

    Raising refuses the configuration: an exporter configured but not installed is an error,
    never a silent no-op.
    """
    settings = runtime.settings.get(TelemetrySettings)
    if not settings.enabled:
        runtime.stash_set(_RECORDER, None)  # the audit hook then returns at once
        return
    from tooldeck.plugins.telemetry.providers import build_providers
    from tooldeck.plugins.telemetry.recorder import Recorder

    decks = runtime.session.setdefault(_DECKS, _Decks)
    key = settings.model_dump_json()
    if key not in decks.by_settings:
        try:
            providers = build_providers(settings)
        except ImportError as exc:
            raise RuntimeError(f"[tools.telemetry] exporter = {settings.exporter!r} needs "
                               f"the OpenTelemetry SDK: pip install 'tooldeck[otel]' "
                               f"({exc.name} is missing)") from None
        decks.by_settings[key] = (providers, Recorder(providers.tracer, providers.meter,
                                                      providers.logger))
    runtime.stash_set(_RECORDER, decks.by_settings[key][1])


@hookimpl
def tooldeck_audit(event: AuditEvent, runtime: Runtime) -> None:
    """Record the event when telemetry is on."""
    try:
        recorder = runtime.stash_get(_RECORDER)
    except KeyError:  # an event before configuring
        return
    if recorder is None:
        return
    try:
        recorder.record(event.kind, event.ts, event.fields)
    except Exception as exc:  # telemetry must never fail a call
        print(f"tooldeck: telemetry failed: {type(exc).__name__}: {exc}", file=sys.stderr)
