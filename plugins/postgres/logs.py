"""Append logs (audit, egress) in ``tooldeck.log_records``: one committed row per record."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from tooldeck.storage_api import StorageError

__all__ = ["PgAppendLog"]


class PgAppendLog:
    """An :class:`~tooldeck.storage_api.AppendLog` shared by every worker of a namespace.

    :param pool: the deck's connection pool (autocommit: each append is its own commit).
    :param namespace: the ``[storage] namespace``.
    :param stream: ``audit`` or ``egress``.
    """

    def __init__(self, pool: ConnectionPool[Any], namespace: str, stream: str) -> None:
        self._pool = pool
        self._namespace = namespace
        self._stream = stream

    def append(self, line: str) -> None:
        """Insert the record; it is committed when this returns.

        :raises StorageError: it could not be written.
        """
        try:
            with self._pool.connection() as conn:
                conn.execute("INSERT INTO tooldeck.log_records (namespace, stream, line) "
                             "VALUES (%s, %s, %s)", (self._namespace, self._stream, line))
        except psycopg.Error as exc:
            raise StorageError(f"cannot append to the {self._stream} log: {exc}") from None

    def tail(self, n: int) -> list[str]:
        """The last ``n`` records, oldest first."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT line FROM tooldeck.log_records WHERE namespace = %s AND stream = %s "
                "ORDER BY id DESC LIMIT %s", (self._namespace, self._stream, n)).fetchall()
        return [str(row[0]) for row in reversed(rows)]

    def lines(self) -> Iterator[str]:
        """Every record, oldest first, fetched in batches as the iteration goes."""
        with self._pool.connection() as conn, conn.transaction():
            cursor = conn.cursor(name="tooldeck_log_lines")  # server-side: not all in memory
            cursor.execute("SELECT line FROM tooldeck.log_records WHERE namespace = %s AND "
                           "stream = %s ORDER BY id", (self._namespace, self._stream))
            for (line,) in cursor:
                yield str(line)

    def close(self) -> None:
        """Nothing to release: the pool belongs to the deck's backend."""
