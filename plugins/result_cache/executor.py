"""The wrapper that serves cached outputs and stores new ones.

It wraps the executor the router chose, after the gates let the call through (hook
``tooldeck_wrap_executor``), so a cached result is only ever served to a call the current
policy allows. The key is ``(tool id, parameters as canonical JSON, caller id, policy
generation digest)``: another caller, or a runtime built from another configuration (a
tightened sandbox, a new ``deny_read``), never sees an entry it did not make.

Calls to tools that change files are wrapped too: when one succeeds, the entries that read
a path it reports in ``locations`` (or that path's directory) are dropped at once. Every
other change (a shell command, an editor, another process) is caught by the stat check on
the next hit (:mod:`.freshness`).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Hashable

import attrs

from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.plugins.result_cache.cacheable import local_read
from tooldeck.plugins.result_cache.freshness import snapshot
from tooldeck.plugins.result_cache.store import ResultCache
from tooldeck.runtime import CallContext, Executor

__all__ = ["MAX_ENTRY_CHARS", "CachingExecutor", "InvalidatingExecutor", "cache_key"]

MAX_ENTRY_CHARS = 1 << 20
"""Outputs whose summary is longer than this many characters are not kept (512 of them
must fit in memory)."""


def cache_key(call: ToolCall, generation: str) -> Hashable | None:
    """The key of a call, or ``None`` when its parameters have no canonical JSON form.

    :param call: the call, parameters validated.
    :param generation: the digest of the runtime's policy generation.
    :returns: ``(tool id, params JSON with sorted keys, caller id, generation)``.
    """
    try:
        params = json.dumps(call.params, sort_keys=True, separators=(",", ":"),
                            ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return (call.tool_id, params, call.caller_id, generation)


class CachingExecutor:
    """Serves a cacheable call from the store, or runs it and stores the output.

    :param inner: the executor the router chose.
    :param store: the deck's store.
    :param key: the call's key.
    :param tool: the tool's definition.
    :param ttl_secs: ``[tools.result_cache] ttl_secs`` of the call's runtime.
    :param generation: the runtime's policy generation.
    """

    def __init__(self, inner: Executor, store: ResultCache, key: Hashable, tool: ToolDef,
                 ttl_secs: float, generation: str) -> None:
        self.inner = inner
        self.name = inner.name
        self.retryable = getattr(inner, "retryable", False) is True
        self._store = store
        self._key = key
        self._tool = tool
        self._ttl = ttl_secs
        self._generation = generation

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """The cached output when there is a fresh one; otherwise run and maybe store."""
        store = self._store
        stale = store.stale
        cached = store.get(self._key, self._ttl)
        if cached is not None:
            return cached
        outcome = "stale" if store.stale != stale else "miss"
        started_ns = time.time_ns()
        output = await self.inner.execute(call, ctx)
        if not isinstance(output, ToolOutput):
            return output
        self._offer(attrs.evolve(output, cache="hit"), started_ns)
        return attrs.evolve(output, cache=outcome)

    def _offer(self, output: ToolOutput, started_ns: int) -> None:
        """Store ``output`` (already marked as a hit) when it may be reused."""
        if len(output.summary) > MAX_ENTRY_CHARS or self._ttl <= 0:
            return
        if not local_read(self._tool):
            self._store.put(self._key, output, generation=self._generation)
            return
        if output.read_paths is None:  # a local read that does not say what it read
            return
        stamps = snapshot(output.read_paths, started_ns)
        if stamps is not None:
            self._store.put(self._key, output, stamps, generation=self._generation)


class InvalidatingExecutor:
    """Runs a call that may change files, then drops the entries that read what it changed.

    :param inner: the executor the router chose.
    :param store: the deck's store.
    """

    def __init__(self, inner: Executor, store: ResultCache) -> None:
        self.inner = inner
        self.name = inner.name
        self.retryable = getattr(inner, "retryable", False) is True
        self._store = store

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Run the call; on success drop entries that read a reported location or its folder."""
        output = await self.inner.execute(call, ctx)
        if isinstance(output, ToolOutput) and output.locations:
            changed = set(output.locations)
            changed.update(os.path.dirname(path) for path in output.locations)
            self._store.invalidate(changed)
        return output
