"""A deck behind the official MCP SDK's low-level ``Server``.

- ``tools/list`` serves :meth:`tooldeck.deck.Deck.tools` (hidden tools stay hidden) with the
  same JSON Schemas as ``tooldeck tools`` (:func:`tooldeck.catalog.tool_schema`).
- ``tools/call`` runs :meth:`tooldeck.deck.Deck.call`: gates, confirmation, filters,
  redaction and the audit all apply. A failed call is a tool error (``isError``) whose text is
  the ``[tool_error]`` block the model would get anywhere else.
- An ``ask`` is put to the user through MCP elicitation when the client declared it: during
  the call on handshake-era connections, or (2026-07-28 revision, where a server cannot send
  requests) by answering ``input_required`` with the question and running the call when the
  client retries it with the answer. A client without elicitation gets ``confirmation_required``;
  nothing that asks runs without an answer.
- When a reload changes what ``tools/list`` would answer, every connected client is sent
  ``notifications/tools/list_changed`` (and 2026-era ``subscriptions/listen`` streams get the
  same event).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import anyio
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from tooldeck import __version__
from tooldeck.catalog import tool_schema
from tooldeck.deck import Approval, Confirm, Deck, ToolResult
from tooldeck.errors import ErrorCategory
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict

__all__ = ["APPROVER", "DeckServer", "PendingAsks", "ToolListPeers"]

APPROVER = "mcp-client"
"""``approved_by`` in the result and the audit when the client's user accepts an ``ask``."""

_MAX_PEERS = 256
_MAX_SHOWN_PARAMS = 2000
_SESSION_HEADER = "mcp-session-id"
_NO_FIELDS: dict[str, Any] = {"type": "object", "properties": {}}
_CONFIRM_KEY = "tooldeck.confirm"
_ASK_TTL_S = 600.0
_MAX_PENDING_ASKS = 1024


class PendingAsks:
    """Questions put to 2026-era clients through ``input_required``, each answerable once.

    The ``requestState`` that carries a question's id is sealed by the SDK's
    :class:`~mcp.server.request_state.RequestStateBoundary`, which also binds it to the tool and
    arguments of the call that asked; this ledger makes each answer single-use.

    :param ttl_s: how long a question stays answerable.
    :param limit: how many open questions to keep (the oldest go first).
    """

    def __init__(self, ttl_s: float = _ASK_TTL_S, limit: int = _MAX_PENDING_ASKS) -> None:
        self._ttl_s = ttl_s
        self._limit = limit
        self._open: OrderedDict[str, float] = OrderedDict()

    def issue(self) -> str:
        """A fresh question id."""
        now = time.monotonic()
        while self._open and (len(self._open) >= self._limit
                              or next(iter(self._open.values())) <= now):
            self._open.popitem(last=False)
        ask_id = secrets.token_urlsafe(16)
        self._open[ask_id] = now + self._ttl_s
        return ask_id

    def take(self, ask_id: str | None) -> bool:
        """True once for an open, unexpired question id; it is closed either way."""
        expires = self._open.pop(ask_id, None) if ask_id is not None else None
        return expires is not None and time.monotonic() < expires


class ToolListPeers:
    """The connections to send ``notifications/tools/list_changed`` to.

    A connection is recorded when its client sends ``notifications/initialized``, keyed by its
    HTTP session id (stdio has one connection, keyed ``None``). Sending to a connection that
    has gone is a silent no-op in the SDK; the oldest entries are dropped past ``limit``.

    :param limit: how many connections to remember.
    """

    def __init__(self, limit: int = _MAX_PEERS) -> None:
        self._limit = limit
        self._sessions: OrderedDict[Hashable, ServerSession] = OrderedDict()

    def add(self, key: Hashable, session: ServerSession) -> None:
        """Remember ``session`` under ``key`` (a later one with the same key replaces it)."""
        self._sessions.pop(key, None)
        self._sessions[key] = session
        while len(self._sessions) > self._limit:
            self._sessions.popitem(last=False)

    async def notify(self) -> None:
        """Send ``notifications/tools/list_changed`` to every remembered connection."""
        for session in list(self._sessions.values()):
            await session.send_tool_list_changed()


class _ListChangedServer(Server[Any]):
    """The SDK's server, advertising ``tools.listChanged`` on every transport.

    The streamable-HTTP session manager builds its initialization options without arguments,
    so the flag has to be the default here rather than passed in by the caller.
    """

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        """The SDK's options with ``tools_changed`` on unless the caller says otherwise."""
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True),
            experimental_capabilities, extensions,
        )


def _session_key(ctx: ServerRequestContext[Any, Any]) -> Hashable:
    headers = getattr(ctx.request, "headers", None)
    return headers.get(_SESSION_HEADER) if headers is not None else None


def _caller_id(session: ServerSession) -> str:
    params = session.client_params
    return f"mcp:{params.client_info.name}" if params is not None else "mcp"


def _declares_form_elicitation(session: ServerSession) -> bool:
    caps = session.client_capabilities
    if caps is None or caps.elicitation is None:
        return False
    # an empty elicitation capability means form mode (the 2025-06-18 shape)
    return caps.elicitation.form is not None or caps.elicitation.url is None


def _awaits_confirmation(result: ToolResult) -> bool:
    return (result.error is not None
            and result.error.category is ErrorCategory.CONFIRMATION_REQUIRED
            and result.decision is not None and result.decision.verdict is Verdict.ASK)


def _tool_result(result: ToolResult) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=result.text)],
                                is_error=not result.ok)


def _question(call: ToolCall, decision: Decision) -> str:
    shown = json.dumps(call.params, ensure_ascii=False, sort_keys=True)
    if len(shown) > _MAX_SHOWN_PARAMS:
        shown = shown[:_MAX_SHOWN_PARAMS] + "…"
    return (f"tooldeck asks before running {call.tool_id}: {decision.reason}\n"
            f"parameters: {shown}\nAccept to run it, decline to refuse it.")


class DeckServer:
    """An MCP server for one deck: the SDK server plus the reload-to-notification bridge.

    Run it with :meth:`serve_stdio` or hand :attr:`server` to an HTTP transport and run
    :meth:`watch_reloads` alongside.

    :param deck: the deck whose tools are served; the caller closes it.
    """

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.peers = ToolListPeers()
        self.events = InMemorySubscriptionBus()
        self.asks = PendingAsks()
        self.server: Server[Any] = _ListChangedServer(
            "tooldeck", version=__version__,
            instructions="Governed tools: every call is checked against the tooldeck policy, "
                         "may ask the user, and is audited.",
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_subscriptions_listen=ListenHandler(self.events),
        )
        self.server.middleware.append(RequestStateBoundary(
            RequestStateSecurity.ephemeral(ttl=_ASK_TTL_S), default_audience="tooldeck"))
        self.server.add_notification_handler(
            "notifications/initialized", types.NotificationParams, self._on_initialized)
        self._served = self._signature()

    # ------------------------------------------------------------------------ tools

    def mcp_tools(self) -> list[types.Tool]:
        """The deck's visible tools as MCP tool definitions."""
        tafc = self.deck.runtime.settings.core.tafc
        return [_mcp_tool(tool, tool_schema(tool, tafc)) for tool in self.deck.tools()]

    def _signature(self) -> str:
        return json.dumps([t.model_dump(mode="json") for t in self.mcp_tools()], sort_keys=True)

    async def _list_tools(self, ctx: ServerRequestContext[Any, Any],
                          params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.mcp_tools())

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams,
    ) -> types.CallToolResult | types.InputRequiredResult:
        session = ctx.session
        call = ToolCall(params.name, dict(params.arguments or {}), caller_id=_caller_id(session))
        if not _declares_form_elicitation(session):
            return _tool_result(await self.deck.call(call))
        if session.can_send_request:
            return _tool_result(await self.deck.call(call, confirm=self._elicitor(ctx)))
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return _tool_result(await self.deck.call(call))
        return await self._call_in_rounds(call, params)

    def _elicitor(self, ctx: ServerRequestContext[Any, Any]) -> Confirm:
        """Confirm an ask by an elicitation request sent while the call waits."""
        session = ctx.session

        async def confirm(call: ToolCall, decision: Decision) -> bool | Approval:
            answer = await session.elicit_form(_question(call, decision), _NO_FIELDS,
                                               related_request_id=ctx.request_id)
            return Approval(by=APPROVER) if answer.action == "accept" else False

        return confirm

    async def _call_in_rounds(
        self, call: ToolCall, params: types.CallToolRequestParams,
    ) -> types.CallToolResult | types.InputRequiredResult:
        """The 2026-07-28 way to ask: return the question, run the call when it comes back.

        The first round runs the call without confirmation; if it stops at an ask (audited
        as ``confirmation_required``), the question goes back as ``input_required``. The
        retry carries the sealed state and the answer, and runs the call again with that
        answer as its confirmation.
        """
        answer = (params.input_responses or {}).get(_CONFIRM_KEY)
        if isinstance(answer, types.ElicitResult) and self.asks.take(params.request_state):
            approved = answer.action == "accept"

            def confirm(_call: ToolCall, _decision: Decision) -> bool | Approval:
                return Approval(by=APPROVER) if approved else False

            return _tool_result(await self.deck.call(call, confirm=confirm))
        result = await self.deck.call(call)
        if not _awaits_confirmation(result):
            return _tool_result(result)
        assert result.decision is not None
        question = types.ElicitRequest(params=types.ElicitRequestFormParams(
            message=_question(result.call, result.decision), requested_schema=_NO_FIELDS))
        return types.InputRequiredResult(input_requests={_CONFIRM_KEY: question},
                                         request_state=self.asks.issue())

    # ------------------------------------------------------------------------ list changes

    async def _on_initialized(self, ctx: ServerRequestContext[Any, Any],
                              params: types.NotificationParams) -> None:
        self.peers.add(_session_key(ctx), ctx.session)

    async def tools_changed(self) -> bool:
        """Tell every client when the served tool list differs from the last one served.

        :returns: whether it changed (and a notification went out).
        """
        now = self._signature()
        if now == self._served:
            return False
        self._served = now
        await self.peers.notify()
        await self.events.publish(ToolsListChanged())
        return True

    async def watch_reloads(self) -> None:
        """Hot-reload the deck and announce tool list changes; runs until cancelled."""
        send, receive = anyio.create_memory_object_stream[bool](16)

        def reloaded(ok: bool) -> None:
            # a full queue already holds a check, which will see this change too
            if ok:
                with contextlib.suppress(anyio.WouldBlock):
                    send.send_nowait(ok)

        # A plain asyncio task: cancelled through an anyio scope, the watcher's worker thread
        # is waited for (up to watchfiles' 5 s poll), which would hold up every shutdown.
        watcher = asyncio.ensure_future(self.deck.watch(on_reload=reloaded))
        watcher.add_done_callback(_report_watch_end)
        try:
            async with send, receive:
                async for _ok in receive:
                    await self.tools_changed()
        finally:
            watcher.cancel()
            ended = (Exception, asyncio.CancelledError)  # a failure was reported as it ended
            with anyio.CancelScope(shield=True), contextlib.suppress(*ended):
                await watcher

    # ------------------------------------------------------------------------ stdio

    async def serve_stdio(self) -> None:
        """Serve one client on this process's stdin and stdout until it disconnects."""
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read, write), anyio.create_task_group() as group:
            group.start_soon(self.watch_reloads)
            await self.server.run(read, write, self.server.create_initialization_options())
            group.cancel_scope.cancel()


def _report_watch_end(watcher: asyncio.Future[None]) -> None:
    if not watcher.cancelled() and watcher.exception() is not None:
        print(f"tooldeck mcp: hot reload stopped: {watcher.exception()!r}", file=sys.stderr)


def _mcp_tool(tool: ToolDef, schema: dict[str, Any]) -> types.Tool:
    return types.Tool(name=tool.id, description=tool.description, input_schema=schema,
                      annotations=types.ToolAnnotations(read_only_hint=tool.read_only))
