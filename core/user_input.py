"""What the user said, per caller: the URLs in their own messages, for URL grounding.

An agent hands each user message to the deck (:meth:`tooldeck.deck.Deck.note_user_message`);
the URLs in it are remembered for that caller for the life of the deck (hot reloads
included). A gate that must only let the model fetch what the user gave (the ``verifiers``
plugin's URL grounding) reads them with :func:`user_urls`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tooldeck.state import SessionState, StashKey

__all__ = ["MAX_URLS", "USER_URLS", "UserUrls", "extract_urls", "user_urls"]

MAX_URLS = 1000
"""URLs remembered per caller; the oldest are forgotten first."""

_URL = re.compile(r"(?i)\bhttps?://[^\s<>\"'`]+")
_TRAILING = ".,;:!?)]}>'\""


def extract_urls(text: str) -> list[str]:
    """The ``http(s)://`` URLs in ``text``, trailing punctuation dropped, lowercased.

    :param text: a message.
    :returns: the URLs in order of appearance.
    """
    return [m.group(0).rstrip(_TRAILING).lower() for m in _URL.finditer(text)]


class UserUrls:
    """The URLs each caller's user has written, in the order first seen."""

    def __init__(self) -> None:
        self._by_caller: dict[str | None, dict[str, None]] = {}

    def add(self, urls: Iterable[str], caller_id: str | None) -> None:
        """Remember ``urls`` for ``caller_id`` (at most :data:`MAX_URLS`, newest kept)."""
        known = self._by_caller.setdefault(caller_id, {})
        for url in urls:
            known.pop(url, None)
            known[url] = None
        while len(known) > MAX_URLS:
            del known[next(iter(known))]

    def for_caller(self, caller_id: str | None) -> tuple[str, ...]:
        """The URLs remembered for ``caller_id`` (callers never see each other's)."""
        return tuple(self._by_caller.get(caller_id, ()))


USER_URLS = StashKey[UserUrls]("core.user_urls")
"""Where a deck keeps its :class:`UserUrls` in :attr:`tooldeck.runtime.Runtime.session`."""


def user_urls(session: SessionState, caller_id: str | None) -> tuple[str, ...]:
    """The URLs the user of ``caller_id`` provided so far (lowercased).

    :param session: the deck's session state (``runtime.session``).
    :param caller_id: the call's caller (``None``: calls without a caller id).
    :returns: the URLs; empty when the agent never handed a message over.
    """
    return session.setdefault(USER_URLS, UserUrls).for_caller(caller_id)
