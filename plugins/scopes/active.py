"""Which scope is in force, per caller: chosen at runtime, kept across reloads."""

from __future__ import annotations

from tooldeck.runtime import StashKey

__all__ = ["ACTIVE", "ActiveScopes"]


class ActiveScopes:
    """The scope chosen for the deck and for single callers (one reference swap each)."""

    def __init__(self) -> None:
        self.deck: str | None = None
        self.by_caller: dict[str, str] = {}

    def choose(self, name: str | None, caller_id: str | None) -> None:
        """Put scope ``name`` in force (``None``: back to the configured default).

        :param name: the scope.
        :param caller_id: one caller, or ``None`` for the whole deck (callers without a
            scope of their own follow it).
        """
        if caller_id is None:
            self.deck = name
        elif name is None:
            self.by_caller.pop(caller_id, None)
        else:
            self.by_caller[caller_id] = name

    def name_for(self, caller_id: str | None, default: str) -> str:
        """The scope in force for ``caller_id``."""
        if caller_id is not None and caller_id in self.by_caller:
            return self.by_caller[caller_id]
        return self.deck if self.deck is not None else default

    def chosen(self) -> set[str]:
        """Every scope name chosen at runtime."""
        names = set(self.by_caller.values())
        if self.deck is not None:
            names.add(self.deck)
        return names


ACTIVE = StashKey[ActiveScopes]("scopes.active")
"""Where the deck keeps its :class:`ActiveScopes` (``runtime.session``)."""
