"""Built-in plugin ``memory``: notes the model saves and finds again in later sessions.

============  ===============================================================================
module        job
============  ===============================================================================
``settings``  ``[tools.memory]``, validated
``store``     the SQLite store: one file per user (0600, WAL), FTS5 ranking, rows per scope
``tools``     ``memory_save`` / ``memory_search`` and their executor
``semantic``  ranking by meaning when a plugin supplies an embedder (``tooldeck_embedder``)
============  ===============================================================================

A call's notes live in its caller's scope (``caller_id``), or in the user's ``default`` scope
when the call has none. Notes are redacted before they are stored. Neither tool is ever
cached: a search must see the note saved a moment ago.
"""

from __future__ import annotations

from collections.abc import Callable

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.plugins.memory.settings import SECTION, MemorySettings
from tooldeck.plugins.memory.store import MemoryStore
from tooldeck.plugins.memory.tools import MEMORY_SAVE, MEMORY_SEARCH, MemoryExecutor
from tooldeck.runtime import Runtime
from tooldeck.storage_api import MemoryBackend


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[tools.memory]``."""
    register(SECTION, MemorySettings)


@hookimpl
def tooldeck_register_tools(register: Callable[..., None], settings: Settings) -> None:
    """Register ``memory_save`` and ``memory_search`` (declared only when disabled)."""
    available = settings.get(MemorySettings).enabled
    register(MEMORY_SAVE, available=available)
    register(MEMORY_SEARCH, available=available)


@hookimpl
def tooldeck_register_executors(register: Callable[..., None], settings: Settings) -> None:
    """Register the executor behind both tools."""
    memory = settings.get(MemorySettings)

    def store_for(runtime: Runtime) -> MemoryBackend:
        path = memory.database(runtime.settings.document.directory)
        return runtime.storage.memory(path, MemoryStore)

    register(MemoryExecutor(store_for, memory))
