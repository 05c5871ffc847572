"""Built-in sink ``audit``: one JSON line per audit event, in the deck's audit log.

The log is the storage backend's append log ``audit`` (``runtime.storage``): embedded, the
file ``[tools.audit] path`` or ``audit.jsonl`` in the user data directory (mode 0600, each
record written with one ``write`` call so lines never interleave); with ``[storage] url``,
a table every worker of the namespace appends to. Either way a record is durable before the
call's result is returned. Every record becomes one line of strict JSON in valid UTF-8,
however odd its values (see :mod:`tooldeck.safe_json`); a line is at most about
:data:`MAX_LINE_CHARS` characters. A sink that cannot write reports on stderr; the call
itself never fails because of the audit log.
"""

from __future__ import annotations

import contextlib

from tooldeck import hookimpl
from tooldeck.models import AuditEvent
from tooldeck.runtime import Runtime, StashKey
from tooldeck.safe_json import fits_line, json_line
from tooldeck.storage_api import AppendLog

LOG = StashKey[AppendLog]("audit.log")
MAX_LINE_CHARS = 1 << 20
"""The size budget of one line (call records are far smaller: see ``RECORD_BUDGET``)."""


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Open the audit log for this runtime, when auditing is enabled."""
    config = runtime.settings.core.audit
    if config.enabled:
        path = config.resolved_path(runtime.settings.document.directory)
        runtime.stash_set(LOG, runtime.storage.append_log("audit", path))


@hookimpl
def tooldeck_audit(event: AuditEvent, runtime: Runtime) -> None:
    """Append ``event`` as one JSON line."""
    if not runtime.settings.core.audit.enabled:
        return
    line = event.line  # encoded once, by whoever built the event, when it could be
    if line is None or not fits_line(line, max_chars=MAX_LINE_CHARS):
        line = json_line(event.as_record(), max_chars=MAX_LINE_CHARS)
    runtime.stash_get(LOG).append(line)


@hookimpl
def tooldeck_unconfigure(runtime: Runtime) -> None:
    """Close this runtime's audit log."""
    if runtime.settings.core.audit.enabled:
        with contextlib.suppress(KeyError):
            runtime.stash_get(LOG).close()
