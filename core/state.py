"""State plugins keep per runtime and per deck: typed keys and the deck's session state.

Kept apart from :mod:`tooldeck.runtime` so that core services (:mod:`tooldeck.services`)
can hold deck-wide state without importing the runtime that hands them out.
:mod:`tooldeck.runtime` re-exports both names.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

__all__ = ["SessionState", "StashKey"]

T = TypeVar("T")


@attrs.frozen(cache_hash=True)
class StashKey(Generic[T]):
    """A typed key for plugin state: ``KEY = StashKey[Client]("web.client")``.

    Per runtime with :meth:`Runtime.stash_set`, per deck with :attr:`Runtime.session`.
    Keys are looked up several times per call: the hash is computed once per key.
    """

    name: str


class SessionState:
    """Plugin state that outlives one runtime (histories, long-running jobs).

    A deck hands the same object to every runtime it builds, so what is kept here survives
    hot reloads. Values are created on first use by :meth:`setdefault`. :meth:`aclose` runs
    when the deck closes: every value with an ``aclose`` coroutine method is closed then, in
    creation order.
    """

    def __init__(self) -> None:
        self._values: dict[StashKey[Any], Any] = {}

    def setdefault(self, key: StashKey[T], factory: Callable[[], T]) -> T:
        """The value under ``key``, created with ``factory()`` the first time it is asked for.

        :param key: the plugin's typed key.
        :param factory: builds the value; called at most once per key and session.
        :returns: the value.
        """
        try:
            value: T = self._values[key]
        except KeyError:
            value = self._values[key] = factory()
        return value

    def get(self, key: StashKey[T]) -> T | None:
        """The value under ``key``, or ``None`` when none was made yet."""
        value: T | None = self._values.get(key)
        return value

    async def aclose(self) -> None:
        """Close every value that has an ``aclose`` coroutine method.

        A failure is reported on stderr and does not stop the others.
        """
        values, self._values = list(self._values.items()), {}
        for key, value in values:
            closer = getattr(value, "aclose", None)
            if closer is None:
                continue
            try:
                await closer()
            except Exception as exc:
                print(f"tooldeck: closing session state {key.name!r} failed: {exc!r}",
                      file=sys.stderr)
