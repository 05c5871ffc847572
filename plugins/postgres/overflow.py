"""The overflow store in PostgreSQL: the embedded store's rules, shared by the namespace.

Content is kept as UTF-8 bytes (lone surrogates kept), so any text a tool printed, NUL
bytes included, reads back exactly.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from psycopg_pool import ConnectionPool

from tooldeck.overflow_store import parse_id

__all__ = ["PgOverflowStore"]

_PREFIX = "overflow:"


class PgOverflowStore:
    """An :class:`~tooldeck.storage_api.OverflowBackend` every worker of a namespace shares.

    :param pool: the deck's connection pool.
    :param namespace: the ``[storage] namespace``.
    :param retention_days: rows older than this are deleted on each write (0: kept).
    :param max_bytes: bytes kept per scope, oldest deleted first (0: unlimited).
    """

    def __init__(self, pool: ConnectionPool[Any], namespace: str, *, retention_days: int,
                 max_bytes: int) -> None:
        self._pool = pool
        self._namespace = namespace
        self.retention_days = retention_days
        self.max_bytes = max_bytes

    def put(self, scope: str, tool: str, content: str) -> str | None:
        """Store ``content`` for ``scope``; ``None`` when it alone is over the byte cap."""
        data = content.encode("utf-8", "surrogatepass")
        if self.max_bytes and len(data) > self.max_bytes:
            return None
        ident = uuid.uuid4()
        now = time.time()
        ns = self._namespace
        with self._pool.connection() as conn, conn.transaction():
            if self.retention_days:
                conn.execute("DELETE FROM tooldeck.overflow_entries WHERE namespace = %s AND "
                             "created < %s", (ns, now - self.retention_days * 86400))
            conn.execute("INSERT INTO tooldeck.overflow_sessions VALUES (%s, %s, %s) "
                         "ON CONFLICT DO NOTHING", (ns, scope, now))
            conn.execute("INSERT INTO tooldeck.overflow_entries VALUES "
                         "(%s, %s, %s, %s, %s, %s, %s)",
                         (ns, ident, scope, tool, now, len(data), data))
            if self.max_bytes:
                conn.execute(
                    "DELETE FROM tooldeck.overflow_entries e USING ("
                    "  SELECT id, sum(bytes) OVER (ORDER BY created DESC, id) AS kept"
                    "  FROM tooldeck.overflow_entries WHERE namespace = %s AND scope = %s"
                    ") newest WHERE e.namespace = %s AND e.id = newest.id AND newest.kept > %s",
                    (ns, scope, ns, self.max_bytes))
        return _PREFIX + str(ident)

    def get(self, scope: str, ident: str) -> str | None:
        """The content stored under ``ident`` for ``scope``, or ``None`` (not found)."""
        canonical = parse_id(ident)
        if canonical is None:
            return None
        with self._pool.connection() as conn:
            row = conn.execute("SELECT content FROM tooldeck.overflow_entries WHERE "
                               "namespace = %s AND id = %s AND scope = %s",
                               (self._namespace, uuid.UUID(canonical), scope)).fetchone()
        return None if row is None else bytes(row[0]).decode("utf-8", "surrogatepass")

    def drop_scope(self, scope: str) -> None:
        """Delete a session and, by cascade, everything stored for it."""
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM tooldeck.overflow_sessions WHERE namespace = %s AND "
                         "scope = %s", (self._namespace, scope))

    def close(self) -> None:
        """Nothing to release: the pool belongs to the deck's backend."""
