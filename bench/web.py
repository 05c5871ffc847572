"""Benchmark the web tools: check_url cost per URL, and fetch against a plain httpx GET.

``fetch`` is timed twice: as ``WebClient.fetch`` (the engine) and as a ``fetch`` call through
a real deck (``deck.call``: validation, permission gate, executor, audit line), both against
a plain httpx GET of the same page from the same local server, in one interleaved run.

Run: python bench/web.py [--rounds N]
Everything stays on 127.0.0.1: the HTTPS server is local (trustme certificate, trusted by
the deck through ``[tools.scrape] ca_bundle``) and host names resolve through an injected
resolver.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socketserver
import ssl
import statistics
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import trustme

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.plugins.web.check import check_url
from tooldeck.plugins.web.client import WebClient
from tooldeck.plugins.web.settings import ScrapeSettings

PAGE = (
    "<html><head><title>bench</title></head><body>"
    + "".join(
        f"<h2>Section {i}</h2><p>Paragraph {i} with <a href='/l{i}'>a link</a>.</p>"
        for i in range(150)
    )
    + "</body></html>"
).encode()


def varied_urls(count: int) -> list[str]:
    rng = random.Random(20261122)
    names = [
        "example.com",
        "docs.rs",
        "doc.rust-lang.org",
        "b\u00fccher.de",
        "news.ycombinator.com",
    ]
    templates: list[Callable[[], str]] = [
        lambda: f"https://{rng.choice(names)}/p/{rng.randrange(10**6)}?q={rng.randrange(99)}",
        lambda: f"https://{rng.choice(names)}:{rng.randrange(1, 65535)}/",
        lambda: "https://" + ".".join(str(rng.randrange(1, 223)) for _ in range(4)) + "/",
        lambda: f"https://{rng.randrange(2**32)}/",
        lambda: f"https://0x{rng.randrange(2**32):x}/",
        lambda: f"https://0{rng.randrange(1, 255):o}.0.0.1/",
        lambda: "https://[::ffff:" + ".".join(str(rng.randrange(256)) for _ in range(4)) + "]/",
        lambda: f"https://[2001:4860:{rng.randrange(65536):x}::8888]/",
        lambda: f"https://[64:ff9b::{rng.randrange(2**16):x}:{rng.randrange(2**16):x}]/",
        lambda: f"https://svc{rng.randrange(100)}.internal/",
        lambda: f"https://good.com@10.0.0.{rng.randrange(256)}/",
        lambda: f"http://example.com/{rng.randrange(100)}",
        lambda: "https://\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11/",
        lambda: f"https://[fe80::{rng.randrange(65536):x}%25eth0]/",
        lambda: f"https://a{rng.randrange(1000)}.localhost./",
        lambda: "https://169.254.169.254/latest/meta-data/",
    ]
    return [rng.choice(templates)() for _ in range(count)]


def bench_check_url(urls: Sequence[str], rounds: int) -> tuple[float, int]:
    settings = ScrapeSettings(allowed_domains=[], denied_domains=["*.evil.com"])
    per_url: list[float] = []
    denied = 0
    for _ in range(rounds):
        started = time.perf_counter()
        denied = sum(check_url(url, settings).verdict == "deny" for url in urls)
        per_url.append((time.perf_counter() - started) / len(urls) * 1e6)
    return statistics.median(per_url), denied


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, tls: ssl.SSLContext, handler: type[BaseHTTPRequestHandler]) -> None:
        self.tls = tls
        super().__init__(("127.0.0.1", 0), handler)

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)  # no reverse DNS lookup (HTTPServer does one)
        self.server_name, self.server_port = "127.0.0.1", self.server_address[1]

    def finish_request(self, request: Any, client_address: Any) -> None:
        with self.tls.wrap_socket(request, server_side=True) as tls_socket:
            self.RequestHandlerClass(tls_socket, client_address, self)


class _Handler(BaseHTTPRequestHandler):
    """HTTP/1.0: the server closes after each response, as for a one-shot fetch."""

    disable_nagle_algorithm = True  # headers and body are separate writes

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _KeepAliveHandler(_Handler):
    """HTTP/1.1 keep-alive, so a pooled client reuses one connection."""

    protocol_version = "HTTP/1.1"


async def _interleaved_medians(
    calls: dict[str, Callable[[], Awaitable[object]]], rounds: int
) -> dict[str, float]:
    """Time each call once per round, in turn, so load changes hit all of them alike."""
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for round_index in range(rounds + 1):
        for name, call in calls.items():
            started = time.perf_counter()
            await call()
            if round_index:  # round 0 warms up
                samples[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) * 1e3 for name, values in samples.items()}


def bench_deck(workdir: Path, ca: trustme.CA) -> Deck:
    """A deck configured as an operator would: allow_internal, ca_bundle, an allow rule."""
    bundle = workdir / "bench-ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    text = f"""
[tools.audit]
path = "{workdir / "audit.jsonl"}"

[tools.scrape]
allow_internal = ["127.0.0.1"]
ca_bundle = "{bundle}"

[[tools.permissions.fetch]]
pattern = "https://*"
action = "allow"
"""
    return Deck.from_config(parse_document(text, workdir / "tooldeck.toml", "bench"))


async def deck_fetch(deck: Deck, url: str) -> None:
    result = await deck.call(ToolCall("fetch", {"url": url}))
    if not result.ok:
        raise RuntimeError(result.text)


async def bench_fetch(
    port: int, keep_alive_port: int, client_tls: ssl.SSLContext, deck: Deck, rounds: int
) -> dict[str, float]:
    async def resolver(host: str, port: int) -> Sequence[str]:
        return ["127.0.0.1"]

    settings = ScrapeSettings(allow_internal=["127.0.0.1"])
    url_ip = f"https://127.0.0.1:{port}/page"
    url_name = f"https://bench.test:{port}/page"
    url_pooled = f"https://127.0.0.1:{keep_alive_port}/page"
    fresh = httpx.Limits(max_keepalive_connections=0)
    try:
        async with (
            WebClient(settings, resolver, ssl_context=client_tls) as web,
            httpx.AsyncClient(verify=client_tls, limits=fresh) as plain_fresh,
            httpx.AsyncClient(verify=client_tls) as plain_pooled,
        ):
            return await _interleaved_medians(
                {
                    "deck_call_fetch_by_ip": lambda: deck_fetch(deck, url_ip),
                    "webclient_fetch_by_name": lambda: web.fetch(url_name),
                    "webclient_fetch_by_ip": lambda: web.fetch(url_ip),
                    "plain_httpx_new_connection": lambda: plain_fresh.get(url_ip),
                    "plain_httpx_pooled": lambda: plain_pooled.get(url_pooled),
                },
                rounds,
            )
    finally:
        await deck.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--urls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()

    urls = varied_urls(args.urls)
    micro, denied = bench_check_url(urls, rounds=7)
    print(
        f"check_url: {micro:.1f} us per URL (median of 7 passes over {len(urls)} varied URLs; "
        f"{denied} denied, {len(urls) - denied} allowed)"
    )

    ca = trustme.CA()
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("bench.test", "127.0.0.1").configure_cert(server_tls)
    client_tls = ssl.create_default_context()
    ca.configure_trust(client_tls)
    servers = [_Server(server_tls, _Handler), _Server(server_tls, _KeepAliveHandler)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        ports = [server.server_address[1] for server in servers]
        with tempfile.TemporaryDirectory() as workdir:
            deck = bench_deck(Path(workdir), ca)
            timings = asyncio.run(bench_fetch(ports[0], ports[1], client_tls, deck, args.rounds))
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    print(f"fetch of a {len(PAGE)} B HTML page, median of {args.rounds} (ms):")
    for name, value in timings.items():
        print(f"  {name:30s} {value:7.2f}")
    base = timings["plain_httpx_new_connection"]
    pooled = timings["plain_httpx_pooled"]
    by_name = timings["webclient_fetch_by_name"]
    deck_ip = timings["deck_call_fetch_by_ip"]
    print(f"ratio WebClient.fetch / plain httpx GET (new connection each): {by_name / base:.2f}x")
    print(f"ratio WebClient.fetch / plain httpx GET (pooled keep-alive):   {by_name / pooled:.2f}x")
    print(f"ratio deck.call fetch / plain httpx GET (new connection each): {deck_ip / base:.2f}x")
    print(f"ratio deck.call fetch / plain httpx GET (pooled keep-alive):   {deck_ip / pooled:.2f}x")
    print(f"deck overhead over WebClient.fetch (same URL, by IP): "
          f"{deck_ip - timings['webclient_fetch_by_ip']:+.2f} ms")


if __name__ == "__main__":
    main()
