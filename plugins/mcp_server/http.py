"""Streamable HTTP for the MCP server: loopback by default, a bearer token anywhere else.

Binding to anything but a loopback address without a token is refused before a socket is
opened. With a token, every request must carry ``Authorization: Bearer <token>``; anything
else gets ``401`` before it reaches the MCP session manager. On a loopback address the SDK's
DNS-rebinding guard only accepts ``Host`` and ``Origin`` naming a loopback address, so a web
page cannot reach the server through a name that resolves to 127.0.0.1.
"""

from __future__ import annotations

import hmac
import ipaddress
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecuritySettings

    from tooldeck.plugins.mcp_server.server import DeckServer

__all__ = ["BearerAuth", "UnsafeBind", "bind", "check_bind", "is_loopback", "rebinding_guard",
           "serve_http", "url_of"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MCP_PATH = "/mcp"


class UnsafeBind(ValueError):
    """A non-loopback address was asked for without a bearer token."""


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP literals; any other name is not trusted."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve on ``host`` without a token unless it is a loopback address.

    :raises UnsafeBind: ``host`` is not loopback and ``token`` is empty.
    """
    if not token and not is_loopback(host):
        raise UnsafeBind(
            f"refusing to serve MCP on {host!r} without a bearer token: anyone who can reach "
            "it could run tools; set $TOOLDECK_MCP_TOKEN (or --token), or bind to 127.0.0.1"
        )


def rebinding_guard(host: str) -> TransportSecuritySettings | None:
    """The SDK's DNS-rebinding settings for a loopback ``host``: only loopback names pass.

    The SDK turns the guard on by itself only for ``127.0.0.1``, ``localhost`` and ``::1``;
    this covers the rest of ``127.0.0.0/8`` too. ``None`` off loopback (the token guards it).
    """
    from mcp.server.transport_security import TransportSecuritySettings

    if not is_loopback(host):
        return None
    bare = host.strip("[]")
    names = {"127.0.0.1", "localhost", "[::1]", f"[{bare}]" if ":" in bare else bare}
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=sorted(f"{name}:*" for name in names),
        allowed_origins=sorted(f"http://{name}:*" for name in names),
    )


class BearerAuth:
    """ASGI middleware: requests without ``Authorization: Bearer <token>`` get ``401``.

    Only the server's own ``lifespan`` events pass unchecked; a websocket without the token
    is closed before it is accepted.

    :param app: the application to protect.
    :param token: the expected token (compared in constant time).
    """

    def __init__(self, app: App, token: str) -> None:
        if not token:
            raise ValueError("an empty bearer token protects nothing")
        self._app = app
        self._token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass authorized requests (and lifespan events) on; refuse the rest."""
        if scope["type"] == "lifespan" or self.authorized(scope):
            await self._app(scope, receive, send)
        elif scope["type"] == "http":
            body = b'{"error": "unauthorized"}'
            await send({"type": "http.response.start", "status": 401, "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"www-authenticate", b'Bearer realm="tooldeck"'),
            ]})
            await send({"type": "http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008})

    def authorized(self, scope: Scope) -> bool:
        """True when the request carries exactly one ``Authorization`` with the token."""
        values = [v for k, v in scope.get("headers", ()) if k.lower() == b"authorization"]
        if len(values) != 1:
            return False
        scheme, _, presented = values[0].partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(presented, self._token)


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0 picks a free one).

    Bound before the server starts, so a busy port is a plain error, not a server crash.
    Call :func:`check_bind` first: this function does not judge the address.

    :raises OSError: the address cannot be bound.
    """
    bare = host.strip("[]")
    family = socket.AF_INET6 if ":" in bare else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((bare, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def url_of(sock: socket.socket, host: str) -> str:
    """The MCP endpoint URL a bound socket serves."""
    port = sock.getsockname()[1]
    bare = host.strip("[]")
    return f"http://{f'[{bare}]' if ':' in bare else bare}:{port}{MCP_PATH}"


async def serve_http(server: DeckServer, sock: socket.socket, host: str,
                     token: str | None) -> None:
    """Serve a deck's MCP server over streamable HTTP on ``sock`` until cancelled.

    The deck hot-reloads alongside.

    :param server: the deck's MCP server.
    :param sock: a listening socket from :func:`bind`.
    :param host: the address it is bound to (it decides the guards).
    :param token: the bearer token every request must carry (required off loopback).
    :raises UnsafeBind: see :func:`check_bind`.
    """
    check_bind(host, token)
    import anyio
    import uvicorn

    app: App = server.server.streamable_http_app(
        streamable_http_path=MCP_PATH, host=host, transport_security=rebinding_guard(host))
    if token:
        app = BearerAuth(app, token)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    async with anyio.create_task_group() as group:
        group.start_soon(server.watch_reloads)
        await uvicorn.Server(config).serve(sockets=[sock])
        group.cancel_scope.cancel()
