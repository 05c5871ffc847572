"""The resolver a deck's egress checks use, kept in its session so one stub serves them all.

Every egress check of a deck — the web tools' pinned transport, the shell's egress gate —
asks :func:`deck_resolver` for its resolver. It is the system resolver unless an embedder or
a test installed another with :func:`use_resolver` (for instance a stub that answers from a
table, so tests never leave the machine).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tooldeck.egress.resolve import Resolver, system_resolver
from tooldeck.state import StashKey

if TYPE_CHECKING:
    from tooldeck.state import SessionState

__all__ = ["RESOLVER", "ResolverSlot", "deck_resolver", "use_resolver"]


class ResolverSlot:
    """A resolver that delegates to the one currently installed (the system one at first)."""

    def __init__(self) -> None:
        self.resolver: Resolver = system_resolver

    async def __call__(self, host: str, port: int) -> Sequence[str]:
        """Resolve through the installed resolver.

        :param host: the host name.
        :param port: the TCP port.
        :returns: the address strings.
        """
        return await self.resolver(host, port)


RESOLVER = StashKey[ResolverSlot]("egress.resolver")
"""Where a deck's resolver slot lives in :attr:`tooldeck.runtime.Runtime.session`."""


def deck_resolver(session: SessionState) -> Resolver:
    """The resolver of a deck's egress checks.

    :param session: the deck's session state (``runtime.session``).
    :returns: a resolver that follows later :func:`use_resolver` calls.
    """
    return session.setdefault(RESOLVER, ResolverSlot)


def use_resolver(session: SessionState, resolver: Resolver) -> None:
    """Make every egress check of a deck resolve through ``resolver``.

    :param session: the deck's session state (``deck.runtime.session``).
    :param resolver: an async ``(host, port) -> addresses`` function.
    """
    session.setdefault(RESOLVER, ResolverSlot).resolver = resolver
