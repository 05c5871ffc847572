"""The MCP servers of one runtime, on a private event loop in a daemon thread.

Why a thread of its own: tools are registered synchronously while the runtime is built
(possibly inside the caller's running loop), :meth:`~tooldeck.deck.Deck.call_sync` runs
calls on a private loop, and the SDK's transports must be opened and closed by one task.
A dedicated loop serves all three: registration blocks on it with a bound, calls from any
loop are handed over with :func:`asyncio.run_coroutine_threadsafe` and awaited, and the
servers' lifetimes do not depend on which loop the caller happens to run.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import threading
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.plugins.mcp_client.connection import Connection, Wait
from tooldeck.plugins.mcp_client.settings import ServerConfig

__all__ = ["Listing", "ServerPool"]

T = TypeVar("T")

_CLOSE_BOUND_S = 15.0
"""Longest wait for every server to stop (the SDK bounds each stop at about 6 s)."""


@attrs.frozen
class Listing:
    """What one server offered when the runtime was built.

    :param server: the server's name.
    :param tools: its ``mcp.types.Tool`` objects (empty when it did not start).
    :param error: why it did not start, or ``None``.
    """

    server: str
    tools: tuple[Any, ...] = ()
    error: str | None = None


class ServerPool:
    """Start, call and stop the configured servers.

    :param servers: the ``[[mcp.servers]]`` tables.
    :param startup_timeout: the bound on starting them all (they start at once).
    :param wait: how backoff delays are waited out (on the pool's loop).
    :param environ: where ``headers_from_env`` values are read.
    """

    def __init__(self, servers: Sequence[ServerConfig], *, startup_timeout: float, wait: Wait,
                 environ: Mapping[str, str]) -> None:
        self.startup_timeout = startup_timeout
        self.connections = {
            s.name: Connection(s, startup_timeout=startup_timeout, wait=wait, environ=environ)
            for s in servers
        }
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    # -- the loop thread ------------------------------------------------------------------

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=_run_loop, args=(loop,), name="tooldeck-mcp",
                                      daemon=True)
            thread.start()
            self._loop, self._thread = loop, thread
        return self._loop

    def _submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self._ensure_loop())

    # -- start ------------------------------------------------------------------------------

    def start(self) -> list[Listing]:
        """Start every server and list its tools; blocks at most about the startup timeout.

        :returns: one :class:`Listing` per server, in configuration order.
        """
        if not self.connections:
            return []
        future = self._submit(self._start_all())
        try:
            return future.result(timeout=self.startup_timeout + 5)
        except concurrent.futures.TimeoutError:
            future.cancel()
            return [Listing(name, error="did not start in time")
                    for name in self.connections]

    async def _start_all(self) -> list[Listing]:
        async def one(conn: Connection) -> Listing:
            try:
                tools = await asyncio.wait_for(conn.start(), self.startup_timeout)
            except asyncio.TimeoutError:
                await conn.aclose()
                return Listing(conn.name, error=f"did not start within "
                               f"{self.startup_timeout:g} s (startup_timeout_secs)")
            except Exception as exc:
                return Listing(conn.name, error=str(exc) or type(exc).__name__)
            return Listing(conn.name, tuple(tools))

        return list(await asyncio.gather(*(one(c) for c in self.connections.values())))

    # -- calls --------------------------------------------------------------------------------

    async def call(self, server: str, tool: str, arguments: dict[str, Any]) -> Any:
        """Call ``tool`` on ``server`` from any event loop; the ``CallToolResult``.

        :raises ToolError: as :meth:`.connection.Connection.call` does, or ``server_error``
            when the pool is closed.
        """
        conn = self.connections.get(server)
        if conn is None or self._closed:
            raise ToolError(ErrorCategory.SERVER_ERROR,
                            f"mcp server {server!r} is unavailable: the deck is closing")
        return await asyncio.wrap_future(self._submit(conn.call(tool, arguments)))

    # -- close --------------------------------------------------------------------------------

    async def _close_all(self) -> None:
        await asyncio.gather(*(c.aclose() for c in self.connections.values()))

    async def aclose(self) -> None:
        """Stop every server, then the loop thread; idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._loop is None:
            return
        future = self._submit(self._close_all())
        try:
            await asyncio.wait_for(asyncio.wrap_future(future), _CLOSE_BOUND_S)
        finally:
            self._stop_loop()

    def close_sync(self) -> None:
        """:meth:`aclose` for callers without a loop (an abandoned build, interpreter exit)."""
        if self._closed:
            return
        self._closed = True
        if self._loop is None:
            return
        if threading.current_thread() is self._thread:  # never wait on ourselves
            self._loop.call_soon(self._loop.stop)
            return
        try:
            self._submit(self._close_all()).result(timeout=_CLOSE_BOUND_S)
        except Exception as exc:  # stopping the loop below still ends the servers' sessions
            print(f"tooldeck: closing MCP servers failed: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
        finally:
            self._stop_loop()

    def _stop_loop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)


def _run_loop(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
    finally:
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
