"""What a storage backend provides: one interface per kind of state, and the backend itself.

:mod:`tooldeck.storage` opens the backend a deck uses and holds the embedded one.

Plugins and the core reach state only through these interfaces (``runtime.storage``), so
the same code runs on the embedded backend (files and SQLite, one machine) and on a shared
one (PostgreSQL, a fleet of workers). Every method is synchronous: the embedded stores are
local files and the shared ones answer on a nearby server in well under a millisecond, so
a call never waits on an event loop for its state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import attrs

from tooldeck.trust_levels import TrustLevel

__all__ = [
    "AppendLog",
    "MemoryBackend",
    "Note",
    "OverflowBackend",
    "QuotaCounter",
    "Storage",
    "StorageError",
    "Task",
    "TaskBackend",
    "TrustBackend",
]

class StorageError(Exception):
    """A storage backend cannot be opened or used (unreachable server, failed migration)."""


class AppendLog(Protocol):
    """An append-only log of JSON records (the audit log, the egress log).

    ``append`` returns once the record is durable as the backend defines it: written to the
    file with one ``write`` (embedded), committed (PostgreSQL). A caller that got its result
    back can rely on the record being there, whatever happens to the process next.
    """

    def append(self, line: str) -> None:
        """Append one record: ``line`` is one line of strict JSON, without the newline.

        :raises OSError: the embedded file cannot be written.
        :raises StorageError: the shared store cannot be written.
        """
        ...

    def tail(self, n: int) -> list[str]:
        """The last ``n`` records, oldest first (as JSON lines)."""
        ...

    def lines(self) -> Iterator[str]:
        """Every record, oldest first (as JSON lines), read as the iteration goes."""
        ...

    def close(self) -> None:
        """Release the log (records already appended stay)."""
        ...


class QuotaCounter(Protocol):
    """Calls counted per caller against ``max_tool_calls_per_session``."""

    def used(self, caller: str | None) -> int:
        """How many calls ``caller`` (``None``: calls without a caller id) made so far."""
        ...

    def take(self, caller: str | None, limit: int) -> bool:
        """Count one call if fewer than ``limit`` were counted: atomically, for every worker.

        :returns: True when the call was counted (it may run), False when the quota is used up.
        """
        ...


class TrustBackend(Protocol):
    """Run-time trust levels: :class:`tooldeck.trust_state.TrustState` and its shared twins.

    Readers must treat :class:`tooldeck.trust_state.TrustStateError` as ``blocked``.
    """

    def overrides(self) -> Mapping[Any, Any]:
        """Every row as ``{Subject: Override}``, as of now (other workers' writes included)."""
        ...

    def get(self, subject: Any) -> Any:
        """The :class:`~tooldeck.trust_state.Override` of ``subject``, or ``None``."""
        ...

    def set(self, subject: Any, level: TrustLevel, *, by: str, reason: str = "") -> Any:
        """Set ``subject``'s level; returns the row it replaced, if any."""
        ...

    def reset(self, subject: Any) -> Any:
        """Remove ``subject``'s row; returns it, or ``None``."""
        ...

    def close(self) -> None:
        """Close the store."""
        ...


class OverflowBackend(Protocol):
    """Long outputs by session scope (:class:`tooldeck.overflow_store.OverflowStore`)."""

    retention_days: int
    max_bytes: int

    def put(self, scope: str, tool: str, content: str) -> str | None:
        """Store ``content``; its ``overflow:<uuid>`` id, or ``None`` when over the byte cap."""
        ...

    def get(self, scope: str, ident: str) -> str | None:
        """The content under ``ident`` for ``scope``, or ``None``."""
        ...

    def drop_scope(self, scope: str) -> None:
        """Delete everything stored for ``scope``."""
        ...

    def close(self) -> None:
        """Close the store."""
        ...


@attrs.frozen
class Task:
    """One scheduled call.

    :param scope: whose task it is (``caller:<id>`` or ``default``).
    :param name: its name, unique in the scope.
    :param caller: the caller id the call runs under (``None``: none).
    :param cron: the cron expression of a periodic task; ``None`` for a one-shot task.
    :param next_run: Unix time of the next firing.
    :param tool: the tool to call.
    :param params: its parameters.
    :param runs: how many times it fired.
    """

    scope: str
    name: str
    caller: str | None
    cron: str | None
    next_run: float
    tool: str
    params: Mapping[str, Any]
    runs: int = 0


class TaskBackend(Protocol):
    """Scheduled calls (the ``scheduler`` plugin's store); firing is at most once."""

    def add(self, task: Task, *, limit: int) -> str | None:
        """Store a new task; ``None`` on success, else why not (name taken, scope full)."""
        ...

    def cancel(self, scope: str, name: str) -> bool:
        """Delete a task; whether it existed."""
        ...

    def tasks(self, scope: str | None = None) -> list[Task]:
        """The tasks of ``scope`` (every scope's when ``None``), soonest first."""
        ...

    def claim_due(self, now: float, following: Callable[[Task], float | None]) -> list[Task]:
        """Take every task due at ``now``, moving each on before it runs (at most once)."""
        ...

    def next_due(self) -> float | None:
        """When the soonest task is due, or ``None``."""
        ...

    def close(self) -> None:
        """Close the store."""
        ...


@attrs.frozen
class Note:
    """One remembered note.

    :param id: its number in the store.
    :param created: when it was saved (Unix time).
    :param tags: the tags it was saved with.
    :param content: the note.
    """

    id: int
    created: float
    tags: tuple[str, ...]
    content: str


class MemoryBackend(Protocol):
    """Notes by scope, searchable (the ``memory`` plugin's store)."""

    def save(self, scope: str, content: str, tags: tuple[str, ...], *, keep: int) -> int:
        """Store a note, then drop the scope's oldest beyond ``keep``; the new note's id."""
        ...

    def search(self, scope: str, query: str, limit: int) -> list[Note]:
        """The notes of ``scope`` best matching ``query``, best first."""
        ...

    def recent(self, scope: str, limit: int) -> list[Note]:
        """The newest notes of ``scope``, newest first."""
        ...

    def count(self, scope: str) -> int:
        """How many notes ``scope`` holds."""
        ...

    def close(self) -> None:
        """Close the store."""
        ...


@runtime_checkable
class Storage(Protocol):
    """A storage backend: where every kind of state of one deck lives.

    A deck opens one when it starts (``[storage]``) and keeps it for its life: a reload that
    changes ``[storage]`` is refused. The ``path`` arguments are where the embedded backend
    keeps that state (a shared backend ignores them); ``embedded`` arguments open a plugin's
    own embedded store at such a path.
    """

    name: str
    """``embedded``, ``postgresql``, …: shown by ``tooldeck config show`` and in errors."""

    shared: bool
    """True when other processes (other hosts) see the same state."""

    def append_log(self, stream: str, path: Path) -> AppendLog:
        """The append-only log ``stream`` (``audit``, ``egress``); the caller closes it."""
        ...

    def quota(self) -> QuotaCounter:
        """The call quota counters."""
        ...

    def trust(self) -> TrustBackend:
        """The run-time trust levels.

        :raises tooldeck.trust_state.TrustStateError: they cannot be opened.
        """
        ...

    def overflow(self, path: Path, *, retention_days: int, max_bytes: int) -> OverflowBackend:
        """The overflow store (retention and byte cap updated to these values)."""
        ...

    def tasks(self, path: Path, embedded: Callable[[Path], TaskBackend]) -> TaskBackend:
        """The scheduled tasks."""
        ...

    def memory(self, path: Path, embedded: Callable[[Path], MemoryBackend]) -> MemoryBackend:
        """The notes of the memory tools."""
        ...

    def subscribe(self, channel: str, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(payload)`` when a worker of the namespace publishes on ``channel``.

        Callbacks run on a backend thread: keep them short and thread-safe. The embedded
        backend has no other workers and never calls them.

        :returns: a function that stops the calls.
        """
        ...

    def publish(self, channel: str, payload: str) -> None:
        """Tell every other worker of the namespace (``policy``: a new policy digest)."""
        ...

    def close(self) -> None:
        """Close every store and connection (the deck is closing)."""
        ...
