"""How ``compress_context`` reaches the history of the :class:`~tooldeck.loop.ToolLoop` running it.

The tool loop owns the conversation; a tool only ever sees its own call. For a round whose
reply calls ``compress_context``, the loop opens a :class:`CompressionRequest` (the messages
before that reply, without the leading system messages and the knowledge block) with
:func:`offering`; the tool's executor finds it with :func:`active_request`, has the
summariser (``tooldeck_summarizer``) write a summary, and leaves it in the request. Once the
round's results are in the history, the loop appends the summary to its knowledge block and
drops the messages it covers. A failing summariser leaves no summary: the history stays
whole.

The request lives in a context variable set only around the loop's own calls, so a call made
anywhere else (the scheduler, an MCP client, another loop) finds none; while a summary is
being written :func:`summarizing` is true, and ``compress_context`` refuses to run inside it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

import attrs

__all__ = [
    "COMPRESS_CONTEXT",
    "KNOWLEDGE_HEADER",
    "CompressionRequest",
    "Summarize",
    "active_request",
    "knowledge_text",
    "offering",
    "summarizing",
    "summarizing_now",
    "transcript",
]

COMPRESS_CONTEXT = "compress_context"
"""The id of the tool the loop opens a :class:`CompressionRequest` for."""

KNOWLEDGE_HEADER = "[knowledge: summaries of the earlier conversation, oldest first]"
"""The first line of the knowledge block's message."""

Summarize = Callable[[str, str], Awaitable[str]]
"""``await summarize(text, instructions)``: a summary of ``text``, written as instructed."""

_REQUEST: ContextVar[CompressionRequest | None] = ContextVar(
    "tooldeck.compression.request", default=None)
_SUMMARIZING: ContextVar[bool] = ContextVar("tooldeck.compression.summarizing", default=False)


@attrs.define
class CompressionRequest:
    """The part of a loop's history one round of calls may compress, and the summary made.

    :param messages: the messages a summary would replace, oldest first.
    :param summary: the summary, once a ``compress_context`` call made one; the loop then
        replaces ``messages`` with it.
    """

    messages: tuple[Mapping[str, Any], ...]
    summary: str | None = None


def active_request() -> CompressionRequest | None:
    """The request of the loop round this call runs in, or ``None`` outside a loop."""
    return _REQUEST.get()


@contextlib.contextmanager
def offering(request: CompressionRequest) -> Iterator[CompressionRequest]:
    """Make ``request`` the active one for the calls run inside the ``with`` block."""
    token = _REQUEST.set(request)
    try:
        yield request
    finally:
        _REQUEST.reset(token)


def summarizing_now() -> bool:
    """Whether the current code runs inside a summariser call (see :func:`summarizing`)."""
    return _SUMMARIZING.get()


@contextlib.contextmanager
def summarizing() -> Iterator[None]:
    """Mark the ``with`` block as a summariser call: no request is active inside it."""
    request_token = _REQUEST.set(None)
    flag_token = _SUMMARIZING.set(True)
    try:
        yield
    finally:
        _SUMMARIZING.reset(flag_token)
        _REQUEST.reset(request_token)


def _message_line(message: Mapping[str, Any]) -> str:
    role = message.get("role") or message.get("type") or "item"
    content = message.get("content")
    rest = {k: v for k, v in message.items() if k not in ("role", "content")}
    if isinstance(content, str) and not rest:
        return f"{role}: {content}"
    body = {"content": content, **rest} if content is not None else rest
    return f"{role}: {json.dumps(body, ensure_ascii=False, default=str)}"


def transcript(messages: Sequence[Mapping[str, Any]]) -> str:
    """The text a summariser gets: one ``role: content`` paragraph per message.

    :param messages: messages in any adapter's format.
    :returns: the messages in order, structured parts (tool calls, results) as JSON.
    """
    return "\n\n".join(_message_line(m) for m in messages)


def knowledge_text(sections: Sequence[str]) -> str:
    """The content of the knowledge block's message holding ``sections`` (oldest first)."""
    parts = [f"[summary {i}]\n{text}" for i, text in enumerate(sections, 1)]
    return "\n\n".join([KNOWLEDGE_HEADER, *parts])
