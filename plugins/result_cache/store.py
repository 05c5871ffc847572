"""The cache itself: 512 entries, oldest out first, TTL, hit and miss counters (Zeph's rules).

- ``get``: an absent key is a miss (``misses + 1``); an entry older than the TTL is removed
  and reported absent *without* counting a miss (Zeph's quirk, kept); an entry whose files
  changed is removed and counted as a miss and as ``stale``; otherwise a hit (``hits + 1``).
- ``put``: at :data:`MAX_ENTRIES` entries the oldest inserted goes (re-putting a key makes
  it the newest). Entries of another policy generation are dropped on the first ``put`` of
  a new one: their keys can never match again.
- ``clear``: drops every entry and resets the counters.

One store serves a deck (it lives in the deck's session state, so it outlives reloads);
the key carries everything else a result depends on (see :mod:`.executor`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable

import attrs

from tooldeck.models import ToolOutput
from tooldeck.plugins.result_cache.freshness import Stamp, still_fresh

__all__ = ["MAX_ENTRIES", "CacheCounts", "Entry", "ResultCache"]

MAX_ENTRIES = 512
"""Entries kept; the 513th insert evicts the oldest."""


@attrs.frozen
class Entry:
    """One cached output.

    :param output: the executor's output, before any output transform.
    :param stored_at: the store's clock when it was put.
    :param stamps: the read paths as stat'ed at the end of the call (empty for network
        reads, which only the TTL ages).
    """

    output: ToolOutput
    stored_at: float
    stamps: tuple[Stamp, ...] = ()

    @property
    def paths(self) -> frozenset[str]:
        """The paths this entry depends on."""
        return frozenset(stamp[0] for stamp in self.stamps)


@attrs.frozen
class CacheCounts:
    """Counters of a store (or the part of them not yet reported).

    :param hits: lookups served from the cache.
    :param misses: lookups that ran the tool (absent, or dropped because a file changed).
    :param stale: the misses that found an entry whose files had changed.
    :param invalidated: entries dropped at once because a file tool wrote a path they read.
    """

    hits: int = 0
    misses: int = 0
    stale: int = 0
    invalidated: int = 0


class ResultCache:
    """Cached outputs by key, with Zeph's eviction, expiry and counting rules.

    :param clock: seconds, monotonic (injectable for tests).
    :param max_entries: the capacity.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic,
                 max_entries: int = MAX_ENTRIES) -> None:
        self._clock = clock
        self._max = max_entries
        self._entries: dict[Hashable, Entry] = {}
        self._generation: str | None = None
        self._hits = self._misses = self._stale = self._invalidated = 0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def stale(self) -> int:
        """How many lookups found an entry whose files had changed."""
        return self._stale

    @property
    def counts(self) -> CacheCounts:
        """The counters since the store was made (or last cleared)."""
        return CacheCounts(self._hits, self._misses, self._stale, self._invalidated)

    def get(self, key: Hashable, ttl_secs: float) -> ToolOutput | None:
        """The cached output for ``key``, or ``None`` (see the module rules).

        :param key: the call's key.
        :param ttl_secs: entries this old or older are expired.
        :returns: the output, or ``None`` when the tool must run.
        """
        entry = self._entries.get(key)
        if entry is None:
            self._misses += 1
            return None
        if self._clock() - entry.stored_at >= ttl_secs:
            del self._entries[key]
            return None
        if entry.stamps and not still_fresh(entry.stamps):
            del self._entries[key]
            self._misses += 1
            self._stale += 1
            return None
        self._hits += 1
        return entry.output

    def put(self, key: Hashable, output: ToolOutput, stamps: tuple[Stamp, ...] = (),
            *, generation: str | None = None) -> None:
        """Store ``output`` under ``key``, evicting the oldest entry when full.

        :param key: the call's key.
        :param output: the executor's output.
        :param stamps: the read paths' stamps (:func:`~.freshness.snapshot`).
        :param generation: the policy generation the key belongs to; a new one drops the
            entries of the previous one.
        """
        if generation is not None and generation != self._generation:
            self._entries.clear()
            self._generation = generation
        self._entries.pop(key, None)
        while len(self._entries) >= self._max:
            del self._entries[next(iter(self._entries))]
        self._entries[key] = Entry(output, self._clock(), stamps)

    def invalidate(self, paths: Iterable[str]) -> int:
        """Drop every entry that read one of ``paths``.

        :param paths: paths just changed.
        :returns: how many entries were dropped.
        """
        changed = set(paths)
        if not changed:
            return 0
        doomed = [key for key, entry in self._entries.items() if entry.paths & changed]
        for key in doomed:
            del self._entries[key]
        self._invalidated += len(doomed)
        return len(doomed)

    def clear(self) -> None:
        """Drop every entry and reset the counters."""
        self._entries.clear()
        self._hits = self._misses = self._stale = self._invalidated = 0
