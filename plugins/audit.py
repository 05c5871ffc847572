"""Built-in sink ``audit``: one JSON line per audit event, appended to a 0600 file.

The file is ``[tools.audit] path`` or ``audit.jsonl`` in the user data directory. Each
runtime opens it once (``O_APPEND``) and writes each record with a single ``write`` call,
so lines from a runtime being retired and its successor never interleave. Every record
becomes one line of strict JSON in valid UTF-8, however odd its values (see
:mod:`tooldeck.safe_json`); a line is at most about :data:`MAX_LINE_CHARS` characters. A sink
that cannot write reports on stderr; the call itself never fails because of the audit log.
"""

from __future__ import annotations

import contextlib
import os

from tooldeck import hookimpl
from tooldeck.models import AuditEvent
from tooldeck.runtime import Runtime, StashKey
from tooldeck.safe_json import json_line

FD = StashKey[int]("audit.fd")
MAX_LINE_CHARS = 1 << 20
"""The size budget of one line (call records are far smaller: see ``RECORD_BUDGET``)."""


def open_log(path: os.PathLike[str] | str) -> int:
    """Open (creating it and its directory) the audit file for appending, mode 0600."""
    directory = os.path.dirname(os.fspath(path))
    if directory:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    except OSError:
        os.close(fd)
        raise
    return fd


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Open the audit file for this runtime, when auditing is enabled."""
    config = runtime.settings.core.audit
    if config.enabled:
        runtime.stash_set(FD, open_log(config.resolved_path(runtime.settings.document.directory)))


@hookimpl
def tooldeck_audit(event: AuditEvent, runtime: Runtime) -> None:
    """Append ``event`` as one JSON line."""
    if not runtime.settings.core.audit.enabled:
        return
    line = json_line(event.as_record(), max_chars=MAX_LINE_CHARS) + "\n"
    os.write(runtime.stash_get(FD), line.encode("utf-8"))


@hookimpl
def tooldeck_unconfigure(runtime: Runtime) -> None:
    """Close this runtime's audit file."""
    if runtime.settings.core.audit.enabled:
        with contextlib.suppress(KeyError):
            os.close(runtime.stash_get(FD))
