"""``tooldeck serve``: a warm deck answering hook events on a user-only Unix socket.

One request per connection: the client writes ``{"agent": …, "input": …}`` and closes its
side; the server answers ``{"stdout": …, "exit_code": …, "stderr": …}`` computed by
:func:`tooldeck.plugins.agent_hooks.decide.answer`, exactly what a cold process computes.
The deck hot-reloads its policy like any deck (:meth:`tooldeck.deck.Deck.watch`).

The socket directory is created with mode 0700 and the socket with 0600. The server refuses
to start when the directory or an existing socket belongs to someone else or is open to
others, and it hangs up on a peer whose user id is not its own (``SO_PEERCRED``, Linux).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import signal
import socket
import struct
import sys
import time
from typing import Any

from tooldeck.plugins.agent_hooks.agents import AGENTS
from tooldeck.plugins.agent_hooks.client import (
    ServerAbsent,
    UnsafeSocket,
    check_private_dir,
    check_socket,
    socket_path,
)

__all__ = ["AlreadyRunning", "bind_socket", "serve"]

MAX_REQUEST = 16 * 1024 * 1024
READ_TIMEOUT_S = 5.0


class AlreadyRunning(Exception):
    """Another server already answers on the socket."""


def _prepare_dir(path: str) -> None:
    with contextlib.suppress(FileExistsError):
        os.makedirs(path, mode=0o700)
    check_private_dir(path)


def bind_socket(path: str) -> socket.socket:
    """Bind a listening socket at ``path`` (mode 0600) in a private directory.

    :raises UnsafeSocket: the directory or an existing socket is not ours alone.
    :raises AlreadyRunning: a server already listens there.
    """
    _prepare_dir(os.path.dirname(path))
    try:
        check_socket(path)
    except ServerAbsent:
        pass  # nothing at the path yet: bind below
    else:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(path)
            except OSError:
                os.unlink(path)  # ours, and nobody listens: left by a server that died
            else:
                raise AlreadyRunning(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        sock.bind(path)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise AlreadyRunning(path) from None  # another server won the race
        raise
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    sock.listen(64)
    return sock


def _peer_is_us(writer: asyncio.StreamWriter) -> bool:
    sock = writer.get_extra_info("socket")
    option = getattr(socket, "SO_PEERCRED", None)
    if sock is None or option is None:
        return True  # no way to ask; the 0700 directory is the guard
    raw = sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    return bool(struct.unpack("3i", raw)[1] == os.getuid())


def _reply(answer: tuple[str, int, str]) -> bytes:
    stdout, exit_code, stderr = answer
    return json.dumps({"stdout": stdout, "exit_code": exit_code, "stderr": stderr}).encode()


async def _read_request(reader: asyncio.StreamReader) -> bytes | None:
    """Everything the client sent, up to its end of stream; ``None`` past the size limit."""
    chunks: list[bytes] = []
    size = 0
    while chunk := await reader.read(65536):
        size += len(chunk)
        if size > MAX_REQUEST:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


class _Server:
    def __init__(self, deck: Any) -> None:
        self.deck = deck
        self.last = time.monotonic()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        from tooldeck.plugins.agent_hooks.decide import answer

        self.last = time.monotonic()
        try:
            if not _peer_is_us(writer):
                return
            data = await asyncio.wait_for(_read_request(reader), READ_TIMEOUT_S)
            request = json.loads(data) if data is not None else None
            if not (isinstance(request, dict) and request.get("agent") in AGENTS
                    and isinstance(request.get("input"), str)):
                return  # no answer: the client decides cold
            result = answer(self.deck.runtime, request["agent"], request["input"])
            writer.write(_reply(result))
            await writer.drain()
        except (OSError, ValueError, asyncio.TimeoutError):
            return
        finally:
            self.last = time.monotonic()
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


async def serve(config: str | None, *, idle_timeout: float, ready: Any = None) -> None:
    """Answer hook events until idle for ``idle_timeout`` seconds, cancelled, or sent SIGTERM.

    :param config: ``--config``, or ``None`` for the lookup order.
    :param idle_timeout: seconds without a request after which the server exits.
    :param ready: called with the socket path once the server listens.
    :raises UnsafeSocket: the socket directory or socket is not private to this user.
    :raises AlreadyRunning: another server answers on the socket already.
    :raises tooldeck.errors.ConfigError: the configuration cannot be used.
    """
    from tooldeck.deck import Deck

    path = socket_path(config)
    deck = Deck.from_config(config)
    try:
        sock = bind_socket(path)
    except BaseException:
        await deck.aclose()
        raise
    inode = os.stat(path).st_ino
    state = _Server(deck)
    server = await asyncio.start_unix_server(state.handle, sock=sock)
    watcher = asyncio.create_task(deck.watch())
    main = asyncio.current_task()
    if main is not None:  # SIGTERM ends the server as idleness does, socket removed
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)
    if ready is not None:
        ready(path)
    try:
        while (left := state.last + idle_timeout - time.monotonic()) > 0:
            await asyncio.sleep(min(left, 1.0))
    finally:
        watcher.cancel()
        server.close()
        with contextlib.suppress(OSError):
            if os.stat(path).st_ino == inode:
                os.unlink(path)
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
        await deck.aclose()


def refuse(exc: UnsafeSocket) -> int:
    """Report an unsafe socket location on stderr; returns the exit code 2."""
    print(f"tooldeck serve: refusing to start: {exc}", file=sys.stderr)
    return 2
