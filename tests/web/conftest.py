"""Fixtures for the web tests: a network tripwire, trustme TLS, local HTTPS sites, a resolver.

Only loopback traffic is allowed. The tripwire fails any test that tries to resolve a
non-loopback name through the system resolver or connect outside 127.0.0.0/8 and ::1, so a
guard that lets something through can never send a packet out, and the test still fails.
"""

from __future__ import annotations

import gzip
import ipaddress
import socket
import socketserver
import ssl
import threading
import time
import urllib.parse
import zlib
from collections.abc import Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import trustme

from tooldeck.plugins.web.client import WebClient
from tooldeck.plugins.web.settings import ScrapeSettings

# ----------------------------------------------------------------------------- tripwire


def _loopback(host: object) -> bool:
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def network_tripwire(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Refuse (and record) any connect or system lookup that is not loopback."""
    attempts: list[str] = []
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(address: Any) -> None:
        if isinstance(address, tuple) and not _loopback(address[0]):
            attempts.append(f"connect {address!r}")
            raise PermissionError(f"tripwire: connection to {address!r} refused in tests")

    def connect(self: socket.socket, address: Any) -> None:
        check(address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _loopback(host):
            attempts.append(f"getaddrinfo {host!r}")
            raise socket.gaierror(socket.EAI_NONAME, f"tripwire: lookup of {host!r} refused")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield attempts
    assert attempts == [], f"test tried to leave the loopback network: {attempts}"


# ----------------------------------------------------------------------------- resolver


class ScriptedResolver:
    """An injected resolver: answers per host from a script; the last answer repeats."""

    def __init__(self, script: dict[str, Sequence[Sequence[str]]]) -> None:
        self.script = {
            host: [list(answer) for answer in answers] for host, answers in script.items()
        }
        self.calls: list[str] = []

    async def __call__(self, host: str, port: int) -> Sequence[str]:
        self.calls.append(host)
        answers = self.script.get(host)
        if not answers:
            raise socket.gaierror(socket.EAI_NONAME, f"no such test host: {host}")
        return answers.pop(0) if len(answers) > 1 else answers[0]


# ----------------------------------------------------------------------------- TLS


@pytest.fixture(scope="session")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture(scope="session")
def server_tls(ca: trustme.CA) -> ssl.SSLContext:
    cert = ca.issue_cert(
        "site.test", "rebind.test", "evil.test", "localhost", "127.0.0.1", "127.0.0.2"
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(context)
    return context


@pytest.fixture(scope="session")
def client_tls(ca: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context()
    ca.configure_trust(context)
    return context


# ----------------------------------------------------------------------------- servers

Route = Callable[[BaseHTTPRequestHandler, dict[str, str]], None]
MIB = 1024 * 1024
BOMB_SIZE = 64 * MIB


def reply(
    handler: BaseHTTPRequestHandler,
    status: int,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
) -> None:
    handler.send_response(status)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


PAGE = b"""<!doctype html><html><head><meta charset="utf-8"><title>Test page</title>
<style>body { color: red }</style><script>var secret = 1;</script></head><body>
<h1>Caf\xc3\xa9 menu</h1>
<ul><li class="item"><a href="/a">First</a></li><li class="item">  </li>
<li class="item"><a href="/c" title="third">Third &amp; last</a></li></ul>
<p id="intro">Hello <b>bold</b> world</p></body></html>"""


def _page(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(handler, 200, PAGE, {"Content-Type": "text/html; charset=utf-8"})


def _latin1(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    body = "<p>Gr\u00fc\u00dfe aus K\u00f6ln</p>".encode("iso-8859-1")
    reply(handler, 200, body, {"Content-Type": "text/html; charset=ISO-8859-1"})


def _meta_charset(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    body = '<html><head><meta charset="windows-1252"></head><p>\u20ac 5</p></html>'
    reply(handler, 200, body.encode("cp1252"), {"Content-Type": "text/html"})


def _json(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(
        handler, 200, b'{"name":"tooldeck","tags":["a","b"]}', {"Content-Type": "application/json"}
    )


def _plain(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(
        handler, 200, "plain \u2713 text\n".encode(), {"Content-Type": "text/plain; charset=utf-8"}
    )


def _png(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(handler, 200, b"\x89PNG\r\n\x1a\n" + bytes(64), {"Content-Type": "image/png"})


def _untyped_binary(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(handler, 200, b"\x00\x01\x02binary")


def _bytes(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    size = int(query["n"])
    handler.send_response(200)
    handler.send_header("Content-Type", "text/plain")
    handler.send_header("Content-Length", str(size))
    handler.end_headers()
    chunk = b"x" * 65536
    for start in range(0, size, len(chunk)):
        handler.wfile.write(chunk[: min(len(chunk), size - start)])


def _gzip_small(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    body = gzip.compress(b"compressed hello " * 100)
    reply(handler, 200, body, {"Content-Type": "text/plain", "Content-Encoding": "gzip"})


def _deflate_raw(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    engine = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    body = engine.compress(b"raw deflate hello") + engine.flush()
    reply(handler, 200, body, {"Content-Type": "text/plain", "Content-Encoding": "deflate"})


def _brotli(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(
        handler,
        200,
        b"\x0b\x02\x80hello\x03",
        {"Content-Type": "text/plain", "Content-Encoding": "br"},
    )


_BOMB: list[bytes] = []


def _bomb(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    if not _BOMB:
        engine = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        block = b"A" * MIB
        _BOMB.append(
            b"".join(engine.compress(block) for _ in range(BOMB_SIZE // MIB)) + engine.flush()
        )
    reply(handler, 200, _BOMB[0], {"Content-Type": "text/plain", "Content-Encoding": "gzip"})


def _slow(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    time.sleep(float(query.get("s", "2")))
    reply(handler, 200, b"too late", {"Content-Type": "text/plain"})


def _drip(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/plain")
    handler.send_header("Content-Length", "100")
    handler.end_headers()
    for _ in range(100):
        handler.wfile.write(b"d")
        handler.wfile.flush()
        time.sleep(0.05)


def _chain(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    left = int(query["n"])
    if left == 0:
        reply(handler, 200, b"end of chain", {"Content-Type": "text/plain"})
    else:
        reply(handler, 302, headers={"Location": f"/chain?n={left - 1}"})


def _redirect(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(handler, int(query.get("status", "302")), headers={"Location": query["to"]})


def _no_location(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(handler, 302)


def _status(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(handler, int(query["code"]), b"error page", {"Content-Type": "text/plain"})


FLAKY_SEEN: dict[str, int] = {}
"""Requests served per ``/flaky?key=…`` (keys are unique per test)."""


def _flaky(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    """Fail ``fail`` times for ``key`` the way ``how`` says (a status, or ``reset``), then
    serve a page."""
    key = query["key"]
    FLAKY_SEEN[key] = FLAKY_SEEN.get(key, 0) + 1
    if FLAKY_SEEN[key] <= int(query.get("fail", "0")):
        how = query.get("how", "503")
        if how == "reset":  # no response at all: the connection is closed under the client
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)
            return
        reply(handler, int(how), b"try again", {"Content-Type": "text/plain"})
        return
    reply(handler, 200, b"finally", {"Content-Type": "text/plain"})


def _echo_host(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(handler, 200, str(handler.headers.get("Host")).encode(), {"Content-Type": "text/plain"})


SITE_ROUTES: dict[str, Route] = {
    "/page": _page,
    "/latin1": _latin1,
    "/meta-charset": _meta_charset,
    "/json": _json,
    "/plain": _plain,
    "/png": _png,
    "/untyped-binary": _untyped_binary,
    "/bytes": _bytes,
    "/gzip": _gzip_small,
    "/deflate-raw": _deflate_raw,
    "/brotli": _brotli,
    "/bomb": _bomb,
    "/slow": _slow,
    "/drip": _drip,
    "/chain": _chain,
    "/redirect": _redirect,
    "/no-location": _no_location,
    "/status": _status,
    "/echo-host": _echo_host,
    "/flaky": _flaky,
}


class _TLSServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], tls: ssl.SSLContext, site: Site) -> None:
        self.tls = tls
        self.site = site
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind would call socket.getfqdn (a reverse DNS lookup): skip it.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]  # type: ignore[assignment]

    def finish_request(self, request: Any, client_address: Any) -> None:
        try:
            tls_socket = self.tls.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return
        try:
            self.RequestHandlerClass(tls_socket, client_address, self)
        except OSError:
            pass
        finally:
            tls_socket.close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients that hang up early (limits, timeouts) are expected; stay quiet."""


class _Handler(BaseHTTPRequestHandler):
    server: _TLSServer

    def do_GET(self) -> None:
        site = self.server.site
        parsed = urllib.parse.urlsplit(self.path)
        site.hits.append(self.path)
        site.hit_times.append((time.monotonic(), self.path))
        route = site.routes.get(parsed.path)
        if route is None:
            reply(self, 404, b"not found", {"Content-Type": "text/plain"})
            return
        route(self, dict(urllib.parse.parse_qsl(parsed.query)))

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr log."""


class Site:
    """A local HTTPS server on one loopback address, recording the paths it serves."""

    def __init__(self, host: str, port: int, tls: ssl.SSLContext, routes: dict[str, Route]):
        self.routes = routes
        self.hits: list[str] = []
        self.hit_times: list[tuple[float, str]] = []  # (time.monotonic(), path)
        self._server = _TLSServer((host, port), tls, self)
        self.host = host
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str, host: str | None = None) -> str:
        return f"https://{host or self.host}:{self.port}{path}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _recorder(handler: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
    reply(handler, 200, b"recorder reached", {"Content-Type": "text/plain"})


@pytest.fixture(scope="session")
def sites(server_tls: ssl.SSLContext) -> Iterator[tuple[Site, Site]]:
    """The test site on 127.0.0.2 and a recorder on 127.0.0.1, both on the same port."""
    for _ in range(20):
        site = Site("127.0.0.2", 0, server_tls, SITE_ROUTES)
        try:
            recorder = Site("127.0.0.1", site.port, server_tls, {})
        except OSError:
            site.close()
            continue
        break
    else:  # pragma: no cover - only when 20 ports in a row are taken on 127.0.0.1
        raise RuntimeError("no port free on both 127.0.0.1 and 127.0.0.2")
    recorder.routes = {path: _recorder for path in SITE_ROUTES}
    yield site, recorder
    site.close()
    recorder.close()


@pytest.fixture
def site(sites: tuple[Site, Site]) -> Site:
    return sites[0]


@pytest.fixture
def recorder(sites: tuple[Site, Site]) -> Iterator[Site]:
    """The 127.0.0.1 server; every test that uses it must leave it unvisited."""
    recorder = sites[1]
    recorder.hits.clear()
    yield recorder
    recorder.hits.clear()


@pytest.fixture
def make_client(client_tls: ssl.SSLContext) -> Callable[..., WebClient]:
    """Build a WebClient that trusts the test CA; 127.0.0.2 stands in for a public address."""

    def build(resolver: ScriptedResolver | None = None, **settings: Any) -> WebClient:
        settings.setdefault("allow_internal", ["127.0.0.2"])
        resolver = resolver or ScriptedResolver({"site.test": [["127.0.0.2"]]})
        return WebClient(ScrapeSettings(**settings), resolver, ssl_context=client_tls)

    return build


@pytest.fixture
def script_dns() -> type[ScriptedResolver]:
    """The scripted resolver class, for tests that script their own DNS answers."""
    return ScriptedResolver
