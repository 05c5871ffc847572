"""Lifecycle events of calls, for IDEs and UIs: ``in_progress``, then ``completed`` or ``failed``.

Every call to :meth:`~tooldeck.deck.Deck.call` produces, with the call's ``call_id`` (a UUID
in hex), an ``in_progress`` event when the deck receives it — before shape checks, gates or
confirmation, so a UI can show it at once — and, after the audit record is written, one
``completed`` (the tool returned an output) or ``failed`` (any classified error: refused,
denied, timed out, cancelled…). In between, a tool that streams its output (``bash``) adds
``in_progress`` *progress* events whose ``output`` holds the lines produced since the last
one; they are made only while someone listens (:func:`progress_event`). A UI updates one
element per ``call_id``.

They reach plugins through the ``tooldeck_call_event`` hook and programs through
:meth:`Deck.events() <tooldeck.deck.Deck.events>`, an async iterator;
:meth:`CallEvent.as_acp_update` gives an IDE speaking the Agent Client Protocol its
``tool_call`` / ``tool_call_update`` notifications.

================  ====================================================================
kind              tools
================  ====================================================================
``execute``       ``bash``, ``shell``, else a tool with the ``exec`` capability
``read``          ``read``, ``list_directory``, ``read_overflow``, else ``read`` only
``edit``          ``write``, ``edit``, else a tool that writes or deletes
``search``        ``grep``, ``find_path``, ``search``, ``find``
``fetch``         ``fetch``, ``web_scrape``, else a read-only network tool
``other``         everything else
================  ====================================================================

Texts are for display: ``title`` is the call's input (command, path, URL — or its
parameters as JSON) and ``content`` the text the model is given (the filtered output, or the
``[tool_error]`` block), both with secrets redacted and cut to a display size.
"""

from __future__ import annotations

import asyncio
import enum
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from tooldeck.audit import cut
from tooldeck.safe_json import safe_repr
from tooldeck.secrets import redact

if TYPE_CHECKING:
    from tooldeck.models import ToolCall, ToolDef
    from tooldeck.results import ToolResult

__all__ = [
    "MAX_CONTENT_CHARS",
    "MAX_TITLE_CHARS",
    "QUEUE_BOUND",
    "CallEvent",
    "CallKind",
    "CallStatus",
    "EventBus",
    "EventStream",
    "call_kind",
    "finished_event",
    "progress_event",
    "started_event",
]

MAX_TITLE_CHARS = 500
"""The longest ``title`` of an event."""

MAX_CONTENT_CHARS = 50_000
"""The longest ``content`` of an event."""

QUEUE_BOUND = 1024
"""Events an :class:`EventStream` holds for a slow reader before it drops ``in_progress`` ones."""


class CallKind(str, enum.Enum):
    """What kind of action a call is, for the icon a UI shows."""

    EXECUTE = "execute"
    READ = "read"
    EDIT = "edit"
    SEARCH = "search"
    FETCH = "fetch"
    OTHER = "other"


class CallStatus(str, enum.Enum):
    """Where a call is in its life."""

    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"
    FAILED = "failed"

    @property
    def terminal(self) -> bool:
        """True for ``completed`` and ``failed``: no event of the call follows."""
        return self is not CallStatus.IN_PROGRESS


_KIND_BY_ID = {
    "bash": CallKind.EXECUTE, "shell": CallKind.EXECUTE,
    "read": CallKind.READ, "list_directory": CallKind.READ, "read_overflow": CallKind.READ,
    "write": CallKind.EDIT, "edit": CallKind.EDIT,
    "grep": CallKind.SEARCH, "find_path": CallKind.SEARCH, "search": CallKind.SEARCH,
    "find": CallKind.SEARCH,
    "fetch": CallKind.FETCH, "web_scrape": CallKind.FETCH,
}


def call_kind(tool_id: object, tool: ToolDef | None) -> CallKind:
    """The kind of a call to ``tool_id``: by the table above, then by the tool's capabilities.

    :param tool_id: the called tool's id (whatever the model sent).
    :param tool: the tool's definition, when it exists.
    """
    if isinstance(tool_id, str) and tool_id in _KIND_BY_ID:
        return _KIND_BY_ID[tool_id]
    if tool is None:
        return CallKind.OTHER
    caps = tool.effective_capabilities
    if "execute" in caps:
        return CallKind.EXECUTE
    if caps & {"write", "state"}:
        return CallKind.EDIT
    if tool.network_read:
        return CallKind.FETCH
    if tool.read_only:
        return CallKind.READ
    return CallKind.OTHER


@attrs.frozen
class CallEvent:
    """One step in the life of a call.

    :param call_id: the call's id; the same on every event of one call.
    :param status: ``in_progress``, ``completed`` or ``failed``.
    :param tool: the tool id (a representation of it when the model sent no string).
    :param kind: see :class:`CallKind`.
    :param title: the call's input for display, redacted.
    :param content: on a terminal event, what the model is given, redacted; else ``""``.
    :param output: on a progress event, the output lines produced since the previous one,
        redacted; else ``""``.
    :param locations: the files the call touched or found (from the tool's output).
    :param error_category: the error's category on ``failed``.
    :param caller_id: the caller, when the call named one.
    :param turn: the agent loop's turn, when the call carried one.
    :param ts: Unix time in seconds.
    """

    call_id: str
    status: CallStatus
    tool: str
    kind: CallKind
    title: str
    content: str = ""
    output: str = ""
    locations: tuple[str, ...] = ()
    error_category: str | None = None
    caller_id: str | None = None
    turn: int | None = None
    ts: float = attrs.field(factory=time.time)

    def as_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data (enum values as strings, empty fields left out)."""
        data: dict[str, Any] = {"call_id": self.call_id, "status": self.status.value,
                                "tool": self.tool, "kind": self.kind.value,
                                "title": self.title}
        for name in ("content", "output", "locations", "error_category", "caller_id", "turn"):
            value = getattr(self, name)
            if value not in ("", (), None):
                data[name] = list(value) if isinstance(value, tuple) else value
        data["ts"] = self.ts
        return data

    def as_acp_update(self) -> dict[str, Any]:
        """The event as an Agent Client Protocol ``session/update`` payload, for IDEs.

        ``in_progress`` becomes a ``tool_call`` update (the IDE creates the entry), a
        progress event or a terminal one a ``tool_call_update`` of the same ``toolCallId``
        carrying its text (the output so far, or the final text) as content; put it in
        ``{"sessionId": …, "update": …}``.
        """
        update: dict[str, Any] = {"toolCallId": self.call_id, "status": self.status.value}
        if self.status.terminal or self.output:
            text = self.content if self.status.terminal else self.output
            update = {"sessionUpdate": "tool_call_update", **update,
                      "content": [{"type": "content",
                                   "content": {"type": "text", "text": text}}]}
        else:
            update = {"sessionUpdate": "tool_call", **update, "title": self.title,
                      "kind": self.kind.value}
        if self.locations:
            update["locations"] = [{"path": path} for path in self.locations]
        return update


def _title(call: ToolCall, tool: ToolDef | None) -> str:
    try:
        text = call.input_text(tool) or safe_repr(call.params, MAX_TITLE_CHARS)
    except Exception:  # params of an impossible shape: show what can be shown
        text = safe_repr(call.params, MAX_TITLE_CHARS)
    return cut(redact(text), MAX_TITLE_CHARS)


def _tool_name(call: ToolCall) -> str:
    return call.tool_id if isinstance(call.tool_id, str) else safe_repr(call.tool_id, 100)


def _caller(call: ToolCall) -> str | None:
    return call.caller_id if isinstance(call.caller_id, str) else None


def _turn(call: ToolCall) -> int | None:
    return call.turn if isinstance(call.turn, int) else None


def started_event(call: ToolCall, tool: ToolDef | None) -> CallEvent:
    """The ``in_progress`` event of a call the deck has just received.

    :param call: the call as the model sent it.
    :param tool: the tool's definition, when the id names one.
    """
    return CallEvent(str(call.call_id), CallStatus.IN_PROGRESS, _tool_name(call),
                     call_kind(call.tool_id, tool), _title(call, tool),
                     caller_id=_caller(call), turn=_turn(call))


def progress_event(call: ToolCall, tool: ToolDef | None, output: str) -> CallEvent:
    """An ``in_progress`` event carrying output a running call produced.

    :param call: the running call.
    :param tool: its tool's definition.
    :param output: the new output lines (redacted and cut to :data:`MAX_CONTENT_CHARS` here).
    """
    return CallEvent(str(call.call_id), CallStatus.IN_PROGRESS, _tool_name(call),
                     call_kind(call.tool_id, tool), _title(call, tool),
                     output=cut(redact(output), MAX_CONTENT_CHARS),
                     caller_id=_caller(call), turn=_turn(call))


def finished_event(result: ToolResult, tool: ToolDef | None) -> CallEvent:
    """The ``completed`` or ``failed`` event of a finished call.

    :param result: how the call ended.
    :param tool: the tool's definition, when the id names one.
    """
    call = result.call
    output = result.output
    return CallEvent(
        str(call.call_id), CallStatus.COMPLETED if result.ok else CallStatus.FAILED,
        _tool_name(call), call_kind(call.tool_id, tool), _title(call, tool),
        content=cut(redact(result.text), MAX_CONTENT_CHARS),
        locations=tuple(output.locations) if output is not None else (),
        error_category=result.error.category.label if result.error is not None else None,
        caller_id=_caller(call), turn=_turn(call))


_END = object()


class EventStream:
    """The events of a deck from the moment it was opened: ``async for event in stream``.

    Ends when the deck closes or :meth:`aclose` is called. It never slows the deck down:
    when the reader falls :data:`QUEUE_BOUND` events behind, further ``in_progress`` events
    are dropped (counted in :attr:`dropped`); terminal events are always kept, so every call
    a reader saw start, it sees end.
    """

    def __init__(self, bus: EventBus) -> None:
        self._bus = bus
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self.dropped = 0
        """How many ``in_progress`` events were dropped because the reader fell behind."""

    def _offer(self, event: object) -> None:
        if (isinstance(event, CallEvent) and not event.status.terminal
                and self._queue.qsize() >= QUEUE_BOUND):
            self.dropped += 1
            return
        self._queue.put_nowait(event)

    def __aiter__(self) -> EventStream:
        return self

    async def __anext__(self) -> CallEvent:
        item = await self._queue.get()
        if item is _END:
            self._queue.put_nowait(_END)  # a closed stream stays closed
            raise StopAsyncIteration
        assert isinstance(item, CallEvent)
        return item

    async def __aenter__(self) -> EventStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop receiving; the events already queued are still read, then iteration ends."""
        self._bus.unsubscribe(self)
        self._queue.put_nowait(_END)


class EventBus:
    """Delivers each event to the ``tooldeck_call_event`` hook and to every open stream."""

    def __init__(self) -> None:
        self._streams: list[EventStream] = []

    def subscribe(self) -> EventStream:
        """A new stream that receives every event published from now on."""
        stream = EventStream(self)
        self._streams.append(stream)
        return stream

    def unsubscribe(self, stream: EventStream) -> None:
        """Stop delivering to ``stream`` (nothing happens when it is not subscribed)."""
        if stream in self._streams:
            self._streams.remove(stream)

    @property
    def streaming(self) -> bool:
        """Whether any stream is open."""
        return bool(self._streams)

    def emit(self, build: Callable[[], CallEvent],
             deliver: Callable[[CallEvent], None]) -> None:
        """Build an event and hand it to the hook's implementations, then to the streams.

        Never raises: an event that cannot be built (a defect) is reported on stderr and
        skipped, and the hook facade isolates each implementation.

        :param build: makes the event (:func:`started_event`, :func:`finished_event`).
        :param deliver: hands the event to the hook's implementations (the deck passes its
            runtime's ``hooks.call_event``).
        """
        try:
            event = build()
        except Exception as exc:
            print(f"tooldeck: building a call event failed: {type(exc).__name__}",
                  file=sys.stderr)
            return
        deliver(event)
        for stream in self._streams:
            stream._offer(event)

    def close(self) -> None:
        """End every open stream."""
        for stream in list(self._streams):
            stream._offer(_END)
        self._streams.clear()
