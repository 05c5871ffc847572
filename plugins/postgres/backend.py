"""The PostgreSQL backend: one pool, one listener and the shared stores of a namespace."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import psycopg

from tooldeck.config import StorageConfig
from tooldeck.plugins.postgres.connect import connect, open_pool
from tooldeck.plugins.postgres.listener import Listener, channel_name
from tooldeck.plugins.postgres.logs import PgAppendLog
from tooldeck.plugins.postgres.memory import PgMemoryStore
from tooldeck.plugins.postgres.migrate import migrate
from tooldeck.plugins.postgres.overflow import PgOverflowStore
from tooldeck.plugins.postgres.quota import PgQuota
from tooldeck.plugins.postgres.tasks import PgTaskStore
from tooldeck.plugins.postgres.trust import PgTrustState
from tooldeck.storage_api import MemoryBackend, StorageError, TaskBackend

__all__ = ["PostgresStorage"]


class PostgresStorage:
    """A :class:`~tooldeck.storage_api.Storage` in one PostgreSQL database, per namespace.

    Opening it connects once (the server's own reason on failure), migrates the schema,
    opens the pool and starts the listener. Use :meth:`open`.

    :param config: ``[storage]``.
    :param environ: the environment holding the password variable.
    """

    name = "postgresql"
    shared = True

    def __init__(self, config: StorageConfig, environ: Mapping[str, str]) -> None:
        self.config = config
        self.namespace = config.namespace
        self._environ = dict(environ)
        self._pool = open_pool(config, environ)
        self._listener = Listener(lambda: connect(config, self._environ), self.namespace)
        self._quota = PgQuota(self._pool, self.namespace)
        self._trust = PgTrustState(self._pool, self.namespace, self._listener)
        self._overflow: PgOverflowStore | None = None
        self._tasks = PgTaskStore(self._pool, self.namespace)
        self._memory = PgMemoryStore(self._pool, self.namespace)

    @classmethod
    def open(cls, config: StorageConfig, environ: Mapping[str, str]) -> PostgresStorage:
        """Connect, migrate, then open the pool and the listener.

        :raises StorageError: the server cannot be reached or the schema cannot be migrated.
        """
        with connect(config, environ) as conn:
            migrate(conn)
        storage = cls(config, environ)
        storage._listener.start(config.connect_timeout_secs)
        return storage

    def append_log(self, stream: str, path: Path) -> PgAppendLog:
        """The namespace's log ``stream`` (``path`` is the embedded file, unused here)."""
        return PgAppendLog(self._pool, self.namespace, stream)

    def quota(self) -> PgQuota:
        """The namespace's call counters."""
        return self._quota

    def trust(self) -> PgTrustState:
        """The namespace's trust levels."""
        return self._trust

    def overflow(self, path: Path, *, retention_days: int, max_bytes: int) -> PgOverflowStore:
        """The namespace's overflow store (retention and cap set to these values)."""
        if self._overflow is None:
            self._overflow = PgOverflowStore(self._pool, self.namespace,
                                             retention_days=retention_days, max_bytes=max_bytes)
        self._overflow.retention_days = retention_days
        self._overflow.max_bytes = max_bytes
        return self._overflow

    def tasks(self, path: Path, embedded: Callable[[Path], TaskBackend]) -> PgTaskStore:
        """The namespace's scheduled tasks."""
        return self._tasks

    def memory(self, path: Path, embedded: Callable[[Path], MemoryBackend]) -> PgMemoryStore:
        """The namespace's memory notes."""
        return self._memory

    def subscribe(self, channel: str, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(payload)`` on every ``publish`` of the namespace on ``channel``."""
        return self._listener.subscribe(channel, callback)

    def publish(self, channel: str, payload: str) -> None:
        """``NOTIFY`` every worker of the namespace (this one included).

        :raises StorageError: the server cannot be reached.
        """
        try:
            with self._pool.connection() as conn:
                conn.execute("SELECT pg_notify(%s, %s)",
                             (channel_name(channel), f"{self.namespace} {payload}"))
        except psycopg.Error as exc:
            raise StorageError(f"cannot notify the other workers: {exc}") from None

    @property
    def listening(self) -> bool:
        """Whether the listener is connected (notifications arrive)."""
        return self._listener.healthy

    def pool_stats(self) -> dict[str, Any]:
        """The pool's counters (``psycopg_pool``'s ``get_stats``)."""
        return dict(self._pool.get_stats())

    def close(self) -> None:
        """Stop the listener and close the pool."""
        self._listener.close()
        self._pool.close()
