"""One MCP server's connection: start, list tools, call, restart after a crash, close.

Everything here runs on the pool's private event loop (:mod:`.pool`). A supervisor task owns
the transport and the ``ClientSession`` (the SDK's context managers must be entered and left
by one task); calls are made from other tasks of the same loop.

=====================  ===================================================================
rule                   behaviour
=====================  ===================================================================
bounded start          ``initialize`` and ``tools/list`` must finish within the startup
                       timeout, or the attempt fails (the process is stopped)
crash → down           a call that finds the connection closed marks the server down at
                       once: every call to it fails with ``server_error`` (``network_error``
                       for an HTTP server) until it is back
restart with backoff   a server that was up is restarted after 0.5 s, 1 s, 2 s, … (doubling,
                       at most 30 s) until it answers again; the count resets once it does
slow call → timeout    a call that takes longer than ``timeout_secs`` ends as ``timeout``;
                       the request is cancelled and the connection stays up
clean close            closing stops the supervisor; the SDK closes stdin, then terminates
                       the process tree, every wait bounded
=====================  ===================================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.plugins.mcp_client.settings import ServerConfig

__all__ = ["BACKOFF_CAP_S", "BACKOFF_FIRST_S", "Connection", "backoff_delay"]

BACKOFF_FIRST_S = 0.5
"""The delay before the first restart of a server that went down."""

BACKOFF_CAP_S = 30.0
"""The longest delay between two restarts."""

Wait = Callable[[float], Awaitable[None]]
"""Waits out one backoff delay (``asyncio.sleep``; tests pass a wait they control)."""


def backoff_delay(attempt: int) -> float:
    """The delay before restart number ``attempt`` (0-based): 0.5 s doubling, capped at 30 s."""
    return float(min(BACKOFF_CAP_S, BACKOFF_FIRST_S * 2 ** min(attempt, 16)))


def _transport_lost(exc: BaseException) -> bool:
    """True when ``exc`` says the connection itself is gone (not a tool's own error)."""
    import anyio
    from mcp import MCPError
    from mcp_types import CONNECTION_CLOSED

    if isinstance(exc, MCPError):
        return exc.code == CONNECTION_CLOSED
    return isinstance(exc, (anyio.ClosedResourceError, anyio.BrokenResourceError,
                            anyio.EndOfStream, ConnectionError, EOFError))


class Connection:
    """The supervised connection to one server.

    :param config: the server's ``[[mcp.servers]]`` table.
    :param startup_timeout: seconds allowed for one start (initialize and list tools).
    :param wait: how backoff delays are waited out.
    :param environ: where ``headers_from_env`` values are read.
    """

    def __init__(self, config: ServerConfig, *, startup_timeout: float, wait: Wait,
                 environ: Mapping[str, str]) -> None:
        self.config = config
        self.startup_timeout = startup_timeout
        self._wait = wait
        self._environ = environ
        self._session: Any = None
        self._task: asyncio.Task[None] | None = None
        self._lost: asyncio.Event | None = None
        self._first: asyncio.Future[list[Any]] | None = None
        self.down_reason: str | None = None
        self._cause = ""

    @property
    def name(self) -> str:
        """The server's name."""
        return self.config.name

    # -- lifecycle --------------------------------------------------------------------

    async def start(self) -> list[Any]:
        """Start the server and return its tools (``mcp.types.Tool``).

        :raises Exception: the first start failed; the supervisor is stopped then.
        """
        loop = asyncio.get_running_loop()
        self._first = loop.create_future()
        self._lost = asyncio.Event()
        self._task = loop.create_task(self._supervise(), name=f"mcp:{self.name}")
        try:
            return await asyncio.shield(self._first)
        except BaseException:
            await self.aclose()
            raise

    async def aclose(self) -> None:
        """Stop the supervisor and the server; idempotent."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        self._session = None
        self.down_reason = "closed"

    async def _supervise(self) -> None:
        attempt = 0
        while True:
            try:
                await self._serve_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                reason = _describe(exc)
                if self._first is not None and not self._first.done():
                    self._first.set_exception(_StartFailed(reason))
                    return
                self._cause = f"its connection failed: {reason}"
            else:
                attempt = 0
            self._session = None
            delay = backoff_delay(attempt)
            attempt += 1
            self.down_reason = f"{self._cause}; restart {attempt} in {delay:g} s"
            await self._wait(delay)
            self.down_reason = f"{self._cause}; restart {attempt} under way"

    async def _serve_once(self) -> None:
        """Connect, initialize, list; stay up until the connection is lost."""
        import anyio
        from mcp import ClientSession

        assert self._lost is not None
        self._lost.clear()
        async with contextlib.AsyncExitStack() as stack:
            read, write = await stack.enter_async_context(self._transport())
            session = await stack.enter_async_context(ClientSession(read, write))
            with anyio.fail_after(self.startup_timeout):
                await session.initialize()
                tools = await _list_all(session)
            self._session = session
            self.down_reason = None
            if self._first is not None and not self._first.done():
                self._first.set_result(tools)
            await self._lost.wait()
            self._session = None

    def _transport(self) -> Any:
        config = self.config
        if config.command is not None:
            from mcp import StdioServerParameters, stdio_client

            params = StdioServerParameters(command=config.command, args=list(config.args),
                                           env=dict(config.env) or None)
            return stdio_client(params, errlog=sys.stderr)
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        headers = {}
        for header, var in config.headers_from_env.items():
            value = self._environ.get(var)
            if value is None:
                raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                                f"mcp server {config.name!r}: header {header!r} needs "
                                f"${var}, which is not set")
            headers[header] = value
        # the SDK's own defaults: 30 s to connect and write, 300 s between stream events
        http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=300.0))
        return _http_transport(http, config.url or "", streamable_http_client)

    def _mark_lost(self, why: str) -> None:
        if self._session is not None:
            self._session = None
            self._cause = why
            self.down_reason = f"{why}; restarting"
            if self._lost is not None:
                self._lost.set()

    @property
    def _lost_category(self) -> ErrorCategory:
        """``network_error`` for an HTTP server, ``server_error`` for a process."""
        return ErrorCategory.NETWORK_ERROR if self.config.url else ErrorCategory.SERVER_ERROR

    # -- calls --------------------------------------------------------------------------

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        """Call ``tool`` with ``arguments``; the ``CallToolResult``.

        :raises ToolError: while the server is down, or when the connection breaks during the
            call: ``server_error`` (stdio) or ``network_error`` (HTTP); ``timeout`` after
            ``timeout_secs``; ``permanent_failure`` when the server refuses the request.
        """
        session = self._session
        if session is None:
            raise ToolError(self._lost_category,
                            f"mcp server {self.name!r} is unavailable: "
                            f"{self.down_reason or 'not started'}")
        started = time.monotonic()
        try:
            return await asyncio.wait_for(session.call_tool(tool, arguments),
                                          self.config.timeout_secs)
        except asyncio.TimeoutError:
            raise ToolError(ErrorCategory.TIMEOUT,
                            f"mcp server {self.name!r}: {tool} did not answer within "
                            f"{self.config.timeout_secs:g} s (timeout_secs)") from None
        except Exception as exc:
            if _transport_lost(exc):
                self._mark_lost(f"it went away during a call to {tool}")
                raise ToolError(self._lost_category,
                                f"mcp server {self.name!r} went away during the call to "
                                f"{tool} after {time.monotonic() - started:.1f} s; it is "
                                "being restarted") from None
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"mcp server {self.name!r} refused the call to {tool}: "
                            f"{_describe(exc)}") from None


@contextlib.asynccontextmanager
async def _http_transport(http: Any, url: str, client: Any) -> Any:
    async with http, client(url, http_client=http) as streams:
        yield streams


async def _list_all(session: Any) -> list[Any]:
    """Every tool of the server, following pagination (at most 100 pages)."""
    from mcp import types

    tools: list[Any] = []
    cursor: str | None = None
    for _ in range(100):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


class _StartFailed(Exception):
    """The first start of a server failed; the message says why."""


def _describe(exc: BaseException) -> str:
    """A one-line account of ``exc``, looking inside exception groups."""
    inner = getattr(exc, "exceptions", None)  # an exception group (a builtin from 3.11)
    while isinstance(inner, tuple) and len(inner) == 1 and isinstance(inner[0], BaseException):
        exc = inner[0]
        inner = getattr(exc, "exceptions", None)
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, ToolError):
        return exc.message
    text = str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:300]

