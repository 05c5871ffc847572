"""Which store and which session scope a call uses.

A deck keeps one :class:`~tooldeck.plugins.overflow.store.OverflowStore` per database path in
its session state, so hot reloads do not reopen it and closing the deck closes it. The scope
of a call is its ``caller_id`` when it has one (one deck serving several conversations), else
the deck's own session id; the deck's own scope is deleted, with its rows, when the deck closes.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

from tooldeck.models import ToolCall
from tooldeck.plugins.overflow.settings import OverflowSettings
from tooldeck.plugins.overflow.store import OverflowStore
from tooldeck.runtime import Runtime, StashKey

__all__ = ["STORES", "DeckStores", "StoreFor", "store_for"]


class DeckStores:
    """The stores a deck opened, by path, and the deck's own session scope."""

    def __init__(self) -> None:
        self.scope = "deck:" + uuid.uuid4().hex
        self._stores: dict[Path, OverflowStore] = {}

    def open(self, path: Path, settings: OverflowSettings) -> OverflowStore:
        """The store at ``path`` (opened on first use, limits from the newest settings)."""
        store = self._stores.get(path)
        if store is None:
            store = self._stores[path] = OverflowStore(
                path, retention_days=settings.retention_days,
                max_bytes=settings.max_overflow_bytes)
        store.retention_days = settings.retention_days
        store.max_bytes = settings.max_overflow_bytes
        return store

    async def aclose(self) -> None:
        """Drop the deck's own scope from every store, then close them."""
        stores, self._stores = list(self._stores.values()), {}
        for store in stores:
            store.drop_scope(self.scope)
            store.close()


STORES: StashKey[DeckStores] = StashKey("overflow.stores")

StoreFor = Callable[[ToolCall, Runtime], tuple[OverflowStore, str]]
"""Finds the store and the scope for a call."""


def store_for(settings: OverflowSettings) -> StoreFor:
    """A :data:`StoreFor` bound to one runtime's settings."""

    def find(call: ToolCall, runtime: Runtime) -> tuple[OverflowStore, str]:
        stores = runtime.session.setdefault(STORES, DeckStores)
        path = settings.database(runtime.settings.document.directory)
        scope = f"caller:{call.caller_id}" if call.caller_id else stores.scope
        return stores.open(path, settings), scope

    return find
