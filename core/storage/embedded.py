"""The embedded backend: every kind of state in local files and SQLite, as before fleets.

Nothing here is shared beyond the machine: the trust state, overflow, tasks and notes are
SQLite files of the user (every process of the user sees them), the audit and egress logs
are JSON-lines files, and the call quota is counted per deck in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from tooldeck.overflow_store import OverflowStore
from tooldeck.storage.jsonl import JsonlLog
from tooldeck.storage_api import MemoryBackend, TaskBackend
from tooldeck.trust_state import TrustState

__all__ = ["DeckQuota", "EmbeddedStorage"]

S = TypeVar("S", TaskBackend, MemoryBackend)


class DeckQuota:
    """Calls counted per caller in memory, for one deck (its reloads included)."""

    def __init__(self) -> None:
        self._calls: dict[str | None, int] = {}

    def used(self, caller: str | None) -> int:
        """Calls counted for ``caller``."""
        return self._calls.get(caller, 0)

    def take(self, caller: str | None, limit: int) -> bool:
        """Count one call unless ``limit`` are counted (the deck runs on one thread)."""
        used = self._calls.get(caller, 0)
        if used >= limit:
            return False
        self._calls[caller] = used + 1
        return True


class EmbeddedStorage:
    """The default :class:`~tooldeck.storage_api.Storage`: files and SQLite on this machine."""

    name = "embedded"
    shared = False

    def __init__(self) -> None:
        self._quota = DeckQuota()
        self._trust: TrustState | None = None
        self._overflow: dict[Path, OverflowStore] = {}
        self._tasks: dict[Path, TaskBackend] = {}
        self._memory: dict[Path, MemoryBackend] = {}

    def append_log(self, stream: str, path: Path) -> JsonlLog:
        """The JSON-lines file at ``path``."""
        return JsonlLog(path)

    def quota(self) -> DeckQuota:
        """The counters of the deck."""
        return self._quota

    def trust(self) -> TrustState:
        """The user's ``trust_state.sqlite3``, opened on first use (a failed open is retried)."""
        if self._trust is None:
            self._trust = TrustState()
        return self._trust

    def overflow(self, path: Path, *, retention_days: int, max_bytes: int) -> OverflowStore:
        """The SQLite overflow store at ``path``."""
        store = self._overflow.get(path)
        if store is None:
            store = self._overflow[path] = OverflowStore(
                path, retention_days=retention_days, max_bytes=max_bytes)
        store.retention_days = retention_days
        store.max_bytes = max_bytes
        return store

    def tasks(self, path: Path, embedded: Callable[[Path], TaskBackend]) -> TaskBackend:
        """The plugin's own SQLite task store at ``path``."""
        return _opened(self._tasks, path, embedded)

    def memory(self, path: Path, embedded: Callable[[Path], MemoryBackend]) -> MemoryBackend:
        """The plugin's own SQLite note store at ``path``."""
        return _opened(self._memory, path, embedded)

    def subscribe(self, channel: str, callback: Callable[[str], None]) -> Callable[[], None]:
        """Nothing to hear: no other worker shares this state."""
        return _nothing

    def publish(self, channel: str, payload: str) -> None:
        """Nobody to tell."""

    def close(self) -> None:
        """Close every store opened."""
        stores: list[TaskBackend | MemoryBackend | OverflowStore | TrustState] = [
            *self._tasks.values(), *self._memory.values(), *self._overflow.values()]
        if self._trust is not None:
            stores.append(self._trust)
        self._tasks, self._memory, self._overflow, self._trust = {}, {}, {}, None
        for store in stores:
            store.close()


def _opened(stores: dict[Path, S], path: Path, opener: Callable[[Path], S]) -> S:
    store = stores.get(path)
    if store is None:
        store = stores[path] = opener(path)
    return store


def _nothing() -> None:
    """Stop hearing nothing."""
