"""Run-time trust levels in PostgreSQL, pushed to every worker with ``NOTIFY``.

=====================  ======================================================================
rule                   behaviour
=====================  ======================================================================
same rows              :class:`tooldeck.trust_state.TrustState`'s rows and rules, keyed by
                       namespace: a block one worker (or ``tooldeck trust set``) writes is
                       every worker's block
pushed, not polled     a write and its ``NOTIFY tooldeck_trust`` commit together; each
                       worker's listener drops its copy of the rows on the notification,
                       so the next call reads them afresh
never stale            the copy is used only while the listener is connected and nothing
                       was heard since it was read; otherwise every read asks the server
fail closed            a server that cannot be reached, or a row that does not parse,
                       raises :class:`~tooldeck.trust_state.TrustStateError` (readers block)
=====================  ======================================================================
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from tooldeck.plugins.postgres.listener import Listener, channel_name
from tooldeck.trust_levels import TrustLevel, parse_trust_level
from tooldeck.trust_state import (
    MAX_NAME_CHARS,
    Override,
    Subject,
    TrustStateError,
)

__all__ = ["CHANNEL", "PgTrustState"]

CHANNEL = "trust"

_COLUMNS = "kind, name, level, set_by, reason, set_at"


def _row(kind: str, name: bytes, level: str, by: str, reason: str, at: float) -> Override:
    if kind not in ("caller", "source"):
        raise TrustStateError(f"unreadable row: kind {kind!r}")
    try:
        text = bytes(name).decode("utf-8", "surrogatepass")
        parsed = parse_trust_level(level)
    except (UnicodeDecodeError, ValueError) as exc:
        raise TrustStateError(f"unreadable row: {exc}") from None
    return Override(Subject(kind, text), parsed, by, reason, float(at))  # type: ignore[arg-type]


def _check(subject: Subject) -> bytes:
    if not isinstance(subject.name, str) or len(subject.name) > MAX_NAME_CHARS:
        raise ValueError(f"a {subject.kind} name must be a string of at most "
                         f"{MAX_NAME_CHARS} characters")
    if subject.kind == "source":
        Subject.source(subject.name)
    elif subject.kind != "caller":
        raise ValueError(f"unknown subject kind {subject.kind!r}")
    return subject.name.encode("utf-8", "surrogatepass")


class PgTrustState:
    """A :class:`~tooldeck.trust_state.TrustStore` shared through PostgreSQL.

    :param pool: the deck's connection pool.
    :param namespace: the ``[storage] namespace``.
    :param listener: the deck's listener (its notifications invalidate the copy).
    """

    def __init__(self, pool: ConnectionPool[Any], namespace: str, listener: Listener) -> None:
        self._pool = pool
        self._namespace = namespace
        self._listener = listener
        self._lock = threading.Lock()
        self._heard = 0  # notifications (and reconnections) so far
        self._copy: dict[Subject, Override] | None = None
        listener.subscribe(CHANNEL, self._invalidate)
        listener.on_reset(lambda: self._invalidate(""))

    def _invalidate(self, _payload: str) -> None:
        with self._lock:
            self._heard += 1
            self._copy = None

    # ------------------------------------------------------------------ reading

    def _read(self) -> dict[Subject, Override]:
        with self._lock:
            if self._copy is not None and self._listener.healthy:
                return self._copy
            heard = self._heard
        try:
            with self._pool.connection() as conn:
                rows = conn.execute(f"SELECT {_COLUMNS} FROM tooldeck.trust_overrides "
                                    "WHERE namespace = %s", (self._namespace,)).fetchall()
        except Exception as exc:  # psycopg.Error, or the pool's time-out
            raise TrustStateError(f"cannot read the shared trust state: {exc}") from None
        rows_read = {}
        for row in rows:
            override = _row(*row)
            rows_read[override.subject] = override
        with self._lock:
            if heard == self._heard and self._listener.healthy:
                self._copy = rows_read  # nothing changed while reading: keep it
        return rows_read

    def overrides(self) -> Mapping[Subject, Override]:
        """Every row of the namespace, as of now."""
        return self._read()

    def get(self, subject: Subject) -> Override | None:
        """The row of ``subject``, or ``None`` when configuration decides."""
        return self._read().get(subject)

    # ------------------------------------------------------------------ writing

    def _write(self, subject: Subject, new: Override | None) -> Override | None:
        name = _check(subject)
        key = (self._namespace, subject.kind, name)
        try:
            with self._pool.connection() as conn, conn.transaction():
                found = conn.execute(
                    f"SELECT {_COLUMNS} FROM tooldeck.trust_overrides WHERE namespace = %s "
                    "AND kind = %s AND name = %s FOR UPDATE", key).fetchone()
                if new is None:
                    conn.execute("DELETE FROM tooldeck.trust_overrides WHERE namespace = %s "
                                 "AND kind = %s AND name = %s", key)
                else:
                    conn.execute(
                        f"INSERT INTO tooldeck.trust_overrides (namespace, {_COLUMNS}) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (namespace, kind, name) "
                        "DO UPDATE SET level = EXCLUDED.level, set_by = EXCLUDED.set_by, "
                        "reason = EXCLUDED.reason, set_at = EXCLUDED.set_at",
                        (*key, str(new.level), new.by, new.reason, new.at))
                conn.execute("SELECT pg_notify(%s, %s)",
                             (channel_name(CHANNEL), f"{self._namespace} {subject.kind}"))
        except psycopg.Error as exc:
            raise TrustStateError(f"cannot write the shared trust state: {exc}") from None
        self._invalidate("")  # our own write: read afresh whatever the listener does
        return None if found is None else _row(*found)

    def set(self, subject: Subject, level: TrustLevel, *, by: str,
            reason: str = "") -> Override | None:
        """Set ``subject``'s level for every worker; the row it replaced, if any."""
        return self._write(subject, Override(subject, TrustLevel(level), by, reason,
                                             time.time()))

    def reset(self, subject: Subject) -> Override | None:
        """Remove ``subject``'s row for every worker; the row removed, if any."""
        return self._write(subject, None)

    def close(self) -> None:
        """Nothing to release: the pool and listener belong to the deck's backend."""
