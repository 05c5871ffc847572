"""UrlGroundingVerifier: the model may fetch only URLs the user provided.

=====================  ====================================================================
step                   what
=====================  ====================================================================
which calls            the tools in ``tools`` (``fetch``, ``web_scrape``) and every tool id
                       ending in ``_fetch``
user URLs              the URLs in the messages the agent handed to
                       :meth:`tooldeck.deck.Deck.note_user_message` for the call's caller
grounded               the call's ``url`` (lowercased) and a user URL are equal, or one
                       extends the other at a URL boundary (the shorter ends with ``/``,
                       or the longer goes on with ``/``, ``?`` or ``#``):
                       ``https://example.com`` grounds ``https://example.com/docs`` but not
                       ``https://example.com.evil.net`` (Zeph's plain prefix test does)
otherwise              block: ``[UrlGroundingVerifier] fetch rejected: URL '{url}' was not
                       provided by the user``; with no user URL at all every fetch is
                       blocked (fail closed)
=====================  ====================================================================
"""

from __future__ import annotations

from collections.abc import Iterable

from tooldeck.models import ToolCall, ToolDef
from tooldeck.plugins.verifiers.outcome import Outcome
from tooldeck.runtime import Runtime
from tooldeck.user_input import user_urls

__all__ = ["UrlGroundingVerifier", "grounded"]

_BOUNDARY = ("/", "?", "#")


def _extends(longer: str, shorter: str) -> bool:
    if not longer.startswith(shorter):
        return False
    rest = longer[len(shorter):]
    return not rest or shorter.endswith("/") or rest.startswith(_BOUNDARY)


def grounded(url: str, provided: Iterable[str]) -> bool:
    """True when ``url`` equals or extends (or is extended by) a provided URL at a boundary.

    :param url: the URL the model wants (any case).
    :param provided: the user's URLs, lowercased.
    """
    url = url.strip().lower()
    return any(_extends(url, p) or _extends(p, url) for p in provided if p)


class UrlGroundingVerifier:
    """Blocks a fetch of a URL its caller's user never wrote.

    :param tools: tool ids checked (besides every id ending in ``_fetch``).
    """

    name = "url_grounding"

    def __init__(self, tools: Iterable[str]) -> None:
        self.tools = frozenset(tools)

    def verify(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> Outcome:
        """Block a fetch whose ``url`` is not grounded in the caller's user messages."""
        if tool.id not in self.tools and not tool.id.endswith("_fetch"):
            return Outcome.allow()
        url = call.params.get("url")
        url = url if isinstance(url, str) else ""
        if grounded(url, user_urls(runtime.session, call.caller_id)):
            return Outcome.allow()
        return Outcome.block(f"[UrlGroundingVerifier] fetch rejected: URL '{url[:300]}' was "
                             "not provided by the user")
