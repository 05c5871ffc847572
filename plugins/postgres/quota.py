"""The call quota across workers: one atomic ``INSERT … ON CONFLICT … RETURNING`` per call."""

from __future__ import annotations

from typing import Any

from psycopg_pool import ConnectionPool

__all__ = ["PgQuota"]

_TAKE = """
INSERT INTO tooldeck.quota_counters AS q (namespace, caller, used) VALUES (%s, %s, 1)
ON CONFLICT (namespace, caller) DO UPDATE SET used = q.used + 1 WHERE q.used < %s
RETURNING used
"""


def _key(caller: str | None) -> bytes:
    """A caller as stored: any string exactly (lone surrogates kept); none is ``''``."""
    return (caller or "").encode("utf-8", "surrogatepass")


class PgQuota:
    """A :class:`~tooldeck.storage_api.QuotaCounter` every worker of a namespace shares.

    The row lock that ``ON CONFLICT DO UPDATE`` takes serialises concurrent calls, and the
    ``WHERE`` is evaluated on the newest row: of N concurrent calls over a quota of L, exactly
    L are counted, whichever workers make them.

    :param pool: the deck's connection pool.
    :param namespace: the ``[storage] namespace``.
    """

    def __init__(self, pool: ConnectionPool[Any], namespace: str) -> None:
        self._pool = pool
        self._namespace = namespace

    def used(self, caller: str | None) -> int:
        """Calls counted for ``caller`` in the namespace."""
        with self._pool.connection() as conn:
            row = conn.execute("SELECT used FROM tooldeck.quota_counters "
                               "WHERE namespace = %s AND caller = %s",
                               (self._namespace, _key(caller))).fetchone()
        return 0 if row is None else int(row[0])

    def take(self, caller: str | None, limit: int) -> bool:
        """Count one call unless ``limit`` are counted; True when counted."""
        with self._pool.connection() as conn:
            row = conn.execute(_TAKE, (self._namespace, _key(caller), limit)).fetchone()
        return row is not None
