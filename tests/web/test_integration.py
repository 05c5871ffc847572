"""The web client against real local HTTPS servers (trustme certificates, loopback only).

127.0.0.2 plays a public address (admitted through ``allow_internal``); 127.0.0.1 runs a
recorder on the same port that no test may ever reach.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import quote

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.plugins.web.client import FetchResult, WebClient

T = TypeVar("T")
MakeClient = Callable[..., WebClient]
Site = Any  # conftest.Site: conftest modules are not importable under --import-mode=importlib
MIB = 1024 * 1024
BOMB_SIZE = 64 * MIB  # what the /bomb route inflates to


def run(client: WebClient, call: Callable[[WebClient], Awaitable[T]]) -> T:
    async def go() -> T:
        async with client:
            return await call(client)

    return asyncio.run(go())


def fetch(client: WebClient, url: str) -> FetchResult:
    return run(client, lambda c: c.fetch(url))


def failure(client: WebClient, url: str) -> ToolError:
    with pytest.raises(ToolError) as caught:
        fetch(client, url)
    return caught.value


# --- fetch ----------------------------------------------------------------------------


def test_fetch_html_by_name_becomes_markdown(make_client: MakeClient, site: Site) -> None:
    result = fetch(make_client(), site.url("/page", "site.test"))
    assert result.status == 200
    assert result.url == site.url("/page", "site.test")
    assert (result.truncated, result.redirects) == (False, 0)
    assert result.content_type.startswith("text/html")
    assert "# Caf\u00e9 menu" in result.text
    assert "- [First](/a)" in result.text
    assert "Hello **bold** world" in result.text
    assert "secret" not in result.text and "color: red" not in result.text
    assert "<" not in result.text


def test_fetch_ip_literal_admitted_by_allow_internal(make_client: MakeClient, site: Site) -> None:
    result = fetch(make_client(), site.url("/plain"))
    assert result.text == "plain \u2713 text\n"


def test_host_header_and_tls_name_stay_the_host_name(make_client: MakeClient, site: Site) -> None:
    result = fetch(make_client(), site.url("/echo-host", "site.test"))
    assert result.text == f"site.test:{site.port}"


def test_certificate_is_checked_against_the_name_not_the_pinned_ip(
    make_client: MakeClient, script_dns: Any, site: Site
) -> None:
    # The server certificate covers 127.0.0.2 but not wrong.test: verifying against the
    # pinned IP would wrongly pass.
    client = make_client(script_dns({"wrong.test": [["127.0.0.2"]]}))
    error = failure(client, site.url("/plain", "wrong.test"))
    assert error.category is ErrorCategory.PERMANENT_FAILURE
    assert "certificate verification failed" in error.message


def test_json_is_pretty_printed(make_client: MakeClient, site: Site) -> None:
    result = fetch(make_client(), site.url("/json", "site.test"))
    assert result.text == '{\n  "name": "tooldeck",\n  "tags": [\n    "a",\n    "b"\n  ]\n}'


@pytest.mark.parametrize(
    ("path", "expected"),
    [("/latin1", "Gr\u00fc\u00dfe aus K\u00f6ln"), ("/meta-charset", "\u20ac 5")],
    ids=["header-charset", "meta-charset"],
)
def test_charset_is_honoured(make_client: MakeClient, site: Site, path: str, expected: str) -> None:
    assert fetch(make_client(), site.url(path, "site.test")).text == expected


@pytest.mark.parametrize(
    ("path", "message"),
    [("/png", "binary content is not supported: image/png"), ("/untyped-binary", "NUL bytes")],
)
def test_binary_is_refused(make_client: MakeClient, site: Site, path: str, message: str) -> None:
    error = failure(make_client(), site.url(path, "site.test"))
    assert error.category is ErrorCategory.PERMANENT_FAILURE
    assert message in error.message


@pytest.mark.parametrize(
    ("path", "expected"),
    [("/gzip", "compressed hello " * 100), ("/deflate-raw", "raw deflate hello")],
)
def test_compressed_bodies_are_decoded(
    make_client: MakeClient, site: Site, path: str, expected: str
) -> None:
    assert fetch(make_client(), site.url(path, "site.test")).text == expected


def test_unsupported_encoding_is_refused(make_client: MakeClient, site: Site) -> None:
    error = failure(make_client(), site.url("/brotli", "site.test"))
    assert "unsupported content encoding: br" in error.message


# --- limits ---------------------------------------------------------------------------


def test_oversized_body_is_truncated_at_the_limit(make_client: MakeClient, site: Site) -> None:
    # Zeph errors with "too large"; our issue keeps what was read and marks it truncated.
    result = fetch(make_client(), site.url(f"/bytes?n={3 * MIB}", "site.test"))
    assert result.truncated is True
    assert result.text == "x" * MIB


@pytest.mark.parametrize(("size", "truncated"), [(1000, False), (1001, True)])
def test_limit_boundary(make_client: MakeClient, site: Site, size: int, truncated: bool) -> None:
    result = fetch(make_client(max_body_bytes=1000), site.url(f"/bytes?n={size}", "site.test"))
    assert (result.truncated, len(result.text)) == (truncated, 1000)


@pytest.mark.parametrize("limit", [MIB, 10_000])
def test_gzip_bomb_stops_at_the_limit(make_client: MakeClient, site: Site, limit: int) -> None:
    result = fetch(make_client(max_body_bytes=limit), site.url("/bomb", "site.test"))
    assert result.truncated is True
    assert result.text == "A" * limit
    assert limit < BOMB_SIZE


def test_slow_server_times_out(make_client: MakeClient, site: Site) -> None:
    started = time.monotonic()
    error = failure(make_client(timeout=0.3), site.url("/slow?s=6", "site.test"))
    assert error.category is ErrorCategory.TIMEOUT
    assert time.monotonic() - started < 4.0  # the server answers after 6 s


def test_timeout_bounds_the_whole_fetch_not_each_read(make_client: MakeClient, site: Site) -> None:
    # One byte every 50 ms never trips a per-read timeout; the 0.5 s deadline still ends it.
    started = time.monotonic()
    error = failure(make_client(timeout=0.5), site.url("/drip", "site.test"))
    assert error.category is ErrorCategory.TIMEOUT
    assert time.monotonic() - started < 3.5  # the drip lasts 5 s


# --- HTTP and network errors ------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "category"),
    [
        (403, ErrorCategory.POLICY_BLOCKED),
        (404, ErrorCategory.PERMANENT_FAILURE),
        (429, ErrorCategory.RATE_LIMITED),
        (503, ErrorCategory.SERVER_ERROR),
    ],
)
def test_http_status_is_classified(
    make_client: MakeClient, site: Site, code: int, category: ErrorCategory
) -> None:
    error = failure(make_client(), site.url(f"/status?code={code}", "site.test"))
    assert error.category is category
    assert str(code) in error.message


def test_connection_refused_is_a_network_error(make_client: MakeClient) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.2", 0))
        port = probe.getsockname()[1]
    error = failure(make_client(), f"https://site.test:{port}/")
    assert error.category is ErrorCategory.NETWORK_ERROR


def test_dns_failure_is_reported_and_nothing_is_fetched(make_client: MakeClient) -> None:
    error = failure(make_client(), "https://unknown.test/")
    assert "DNS resolution failed for unknown.test" in error.message
    assert error.category is ErrorCategory.PERMANENT_FAILURE


# --- SSRF at layers 1 and 2 -------------------------------------------------------------


def test_loopback_literal_refused_without_allow_internal(
    make_client: MakeClient, site: Site, recorder: Site
) -> None:
    before = len(site.hits)
    error = failure(make_client(allow_internal=[]), site.url("/plain"))
    assert error.category is ErrorCategory.POLICY_BLOCKED
    assert "rule 'loopback'" in error.message
    assert len(site.hits) == before


def test_name_resolving_to_loopback_refused_at_layer_2(make_client: MakeClient, site: Site) -> None:
    before = len(site.hits)
    error = failure(make_client(allow_internal=[]), site.url("/plain", "site.test"))
    assert error.category is ErrorCategory.POLICY_BLOCKED
    assert "site.test resolves to loopback address 127.0.0.2" in error.message
    assert len(site.hits) == before


def test_allow_internal_host_name_admits_its_addresses(make_client: MakeClient, site: Site) -> None:
    client = make_client(allow_internal=["site.test"])
    assert fetch(client, site.url("/plain", "site.test")).text.startswith("plain")
    error = failure(make_client(allow_internal=["site.test"]), site.url("/plain"))
    assert "rule 'loopback'" in error.message


def test_round_robin_answer_with_one_bad_address_is_refused(
    make_client: MakeClient, script_dns: Any, site: Site, recorder: Site
) -> None:
    resolver = script_dns({"rebind.test": [["127.0.0.2", "127.0.0.1"]]})
    error = failure(make_client(resolver), site.url("/page", "rebind.test"))
    assert "rebind.test resolves to loopback address 127.0.0.1" in error.message
    assert recorder.hits == []


def test_dns_rebinding_never_reaches_the_second_answer(
    make_client: MakeClient, script_dns: Any, site: Site, recorder: Site
) -> None:
    resolver = script_dns({"rebind.test": [["127.0.0.2"], ["127.0.0.1"]]})
    client = make_client(resolver)

    async def twice(c: WebClient) -> tuple[FetchResult, ToolError]:
        first = await c.fetch(site.url("/echo-host", "rebind.test"))
        with pytest.raises(ToolError) as second:
            await c.fetch(site.url("/echo-host", "rebind.test"))
        return first, second.value

    first, second = run(client, twice)
    assert first.text == f"rebind.test:{site.port}"  # served by 127.0.0.2, one lookup
    assert second.category is ErrorCategory.POLICY_BLOCKED
    assert resolver.calls == ["rebind.test", "rebind.test"]
    assert recorder.hits == []


def test_dns_rebinding_on_a_redirect_hop(
    make_client: MakeClient, script_dns: Any, site: Site, recorder: Site
) -> None:
    resolver = script_dns({"rebind.test": [["127.0.0.2"], ["127.0.0.1"]]})
    again = site.url("/page", "rebind.test")
    error = failure(make_client(resolver), site.url(f"/redirect?to={quote(again)}", "rebind.test"))
    assert error.category is ErrorCategory.POLICY_BLOCKED
    assert "resolves to loopback address 127.0.0.1" in error.message
    assert resolver.calls == ["rebind.test", "rebind.test"]
    assert recorder.hits == []


# --- redirects ----------------------------------------------------------------------------


def test_three_redirects_are_followed(make_client: MakeClient, site: Site) -> None:
    result = fetch(make_client(), site.url("/chain?n=3", "site.test"))
    assert (result.text, result.redirects) == ("end of chain", 3)
    assert result.url == site.url("/chain?n=0", "site.test")


def test_fourth_redirect_fails(make_client: MakeClient, site: Site) -> None:
    before = len(site.hits)
    error = failure(make_client(), site.url("/chain?n=4", "site.test"))
    assert "too many redirects" in error.message
    assert site.hits[before:] == ["/chain?n=4", "/chain?n=3", "/chain?n=2", "/chain?n=1"]


def test_relative_location_is_resolved_against_the_current_url(
    make_client: MakeClient, site: Site
) -> None:
    result = fetch(make_client(), site.url("/redirect?to=plain&status=307", "site.test"))
    assert result.url == site.url("/plain", "site.test")
    assert result.redirects == 1


def test_redirect_without_location(make_client: MakeClient, site: Site) -> None:
    error = failure(make_client(), site.url("/no-location", "site.test"))
    assert "redirect with no Location" in error.message


@pytest.mark.parametrize(
    ("location", "rule"),
    [
        ("https://192.168.100.1/admin", "private"),
        ("https://127.0.0.1:{port}/page", "loopback"),
        ("https://evil.test:{port}/page", "loopback"),
        ("http://site.test:{port}/page", "scheme"),
        ("https://169.254.169.254/latest/meta-data/", "cloud-metadata"),
    ],
    ids=[
        "private-ip",
        "recorder-ip",
        "name-resolving-to-recorder",
        "downgrade-to-http",
        "metadata",
    ],
)
def test_redirect_to_blocked_target_is_refused_at_that_hop(
    make_client: MakeClient, script_dns: Any, site: Site, recorder: Site, location: str, rule: str
) -> None:
    target = location.format(port=site.port)
    resolver = script_dns({"site.test": [["127.0.0.2"]], "evil.test": [["127.0.0.1"]]})
    error = failure(make_client(resolver), site.url(f"/redirect?to={quote(target)}", "site.test"))
    assert error.category is ErrorCategory.POLICY_BLOCKED
    assert f"rule '{rule}'" in error.message
    assert "redirect 1 to" in error.message or "resolves to" in error.message
    assert recorder.hits == []


def test_denylist_applies_to_redirect_hops(make_client: MakeClient, site: Site) -> None:
    target = quote(site.url("/plain", "evil.test"))
    client = make_client(denied_domains=["evil.test"])
    error = failure(client, site.url(f"/redirect?to={target}", "site.test"))
    assert "rule 'denylist'" in error.message


# --- scrape -----------------------------------------------------------------------------


def scrape(client: WebClient, url: str, select: str, extract: str = "text", limit: int = 10) -> str:
    return run(client, lambda c: c.scrape(url, select, extract, limit)).text


@pytest.mark.parametrize(
    ("select", "extract", "limit", "expected"),
    [
        ("li.item", "text", 10, "First\nThird & last"),
        ("li.item", "text", 2, "First"),
        ("li.item a", "attr:href", 10, "/a\n/c"),
        ("li.item a", "attr:title", 10, "third"),
        ("#intro", "html", 10, "Hello <b>bold</b> world"),
        ("li.item a", "html", 10, "First\nThird &amp; last"),
        ("div.none", "text", 10, "No results for selector: div.none"),
    ],
    ids=[
        "text",
        "limit-before-dropping-empty",
        "attr",
        "missing-attr",
        "inner-html",
        "html-escapes",
        "no-results",
    ],
)
def test_scrape(
    make_client: MakeClient, site: Site, select: str, extract: str, limit: int, expected: str
) -> None:
    assert scrape(make_client(), site.url("/page", "site.test"), select, extract, limit) == expected


@pytest.mark.parametrize(
    ("select", "extract", "limit", "message"),
    [
        ("li[", "text", 10, "invalid selector"),
        ("li:unknown-pseudo", "text", 10, "invalid selector"),
        ("li", "json", 10, "invalid extract"),
        ("li", "attr:", 10, "invalid extract"),
        ("li", "text", 0, "limit must be >= 1"),
    ],
)
def test_scrape_rejects_bad_parameters(
    make_client: MakeClient, site: Site, select: str, extract: str, limit: int, message: str
) -> None:
    with pytest.raises(ToolError) as caught:
        scrape(make_client(), site.url("/page", "site.test"), select, extract, limit)
    assert caught.value.category is ErrorCategory.INVALID_PARAMETERS
    assert message in caught.value.message


def test_scrape_is_guarded_too(make_client: MakeClient, recorder: Site) -> None:
    with pytest.raises(ToolError) as caught:
        scrape(make_client(), f"https://127.0.0.1:{recorder.port}/page", "p")
    assert caught.value.category is ErrorCategory.POLICY_BLOCKED
    assert recorder.hits == []
