"""Built-in plugin ``result_cache``: outputs of read-only tools reused while still true.

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.result_cache]``, validated
``cacheable``      which tools may be cached (read-only, outside the never-cached set)
``freshness``      stat stamps of the files an output was read from, and the racy window
``store``          512 entries, TTL, hit/miss counters (Zeph's rules)
``executor``       the wrappers: serve or store; drop entries a file tool's write touched
``cli``            ``tooldeck stats``: the counters, summed from the audit log
=================  ===========================================================================

The cache sits behind the gates (hook ``tooldeck_wrap_executor``): a cached result is
served only to a call the current policy lets through. Its store lives in the deck's
session state (its counters are per deck, in memory); each call it looked at carries
``cache = "hit" | "miss" | "stale"`` in its audit record, which is what ``tooldeck stats``
sums.
See docs/result_cache.md.
"""

from __future__ import annotations

from collections.abc import Callable

from tooldeck import hookimpl
from tooldeck.models import ToolCall, ToolDef
from tooldeck.plugins.result_cache.cacheable import cacheable
from tooldeck.plugins.result_cache.executor import (
    CachingExecutor,
    InvalidatingExecutor,
    cache_key,
)
from tooldeck.plugins.result_cache.settings import SECTION, ResultCacheSettings
from tooldeck.plugins.result_cache.store import ResultCache
from tooldeck.runtime import Executor, Runtime, StashKey

__all__ = ["STORE", "store_of"]

STORE = StashKey[ResultCache]("result_cache.store")
"""The deck's store, in its session state."""

_GENERATION = StashKey[str]("result_cache.generation")


def store_of(runtime: Runtime) -> ResultCache:
    """The result cache of the deck ``runtime`` belongs to (made on first use).

    :param runtime: any runtime of the deck.
    :returns: the store.
    """
    return runtime.session.setdefault(STORE, ResultCache)


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[tools.result_cache]``."""
    register(SECTION, ResultCacheSettings)


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Remember this runtime's policy generation (the digest is computed once)."""
    runtime.stash_set(_GENERATION, runtime.digest())


@hookimpl
def tooldeck_wrap_executor(
    executor: Executor, call: ToolCall, tool: ToolDef, runtime: Runtime
) -> Executor | None:
    """Serve or store a cacheable call; watch a call that may change files."""
    settings = runtime.settings.get(ResultCacheSettings)
    if not settings.enabled:
        return None
    store = store_of(runtime)
    if not cacheable(tool):
        return None if tool.read_only else InvalidatingExecutor(executor, store)
    generation = runtime.stash_get(_GENERATION)
    key = cache_key(call, generation)
    if key is None:
        return None
    return CachingExecutor(executor, store, key, tool, settings.ttl_secs, generation)
