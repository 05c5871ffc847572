"""The web client behind ``fetch`` and ``web_scrape``: redirects, deadline and body limit.

Layer 3 lives here: automatic redirects are off, and at most :data:`MAX_REDIRECTS`
redirects are followed by hand, each ``Location`` resolved against the current URL and sent
through layers 1 and 2 again. The whole fetch, redirects included, must finish within the
configured timeout.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from types import TracebackType
from urllib.parse import urljoin

import attrs
import httpx

from tooldeck.egress.log import HopRecorder
from tooldeck.egress.policy import EgressPolicy
from tooldeck.egress.rejection import PolicyViolation, Rejection
from tooldeck.egress.resolve import Resolver, system_resolver
from tooldeck.egress.urlguard import check_static
from tooldeck.errors import ErrorCategory, ToolError, classify_http_status
from tooldeck.plugins.web.body import ACCEPT_ENCODING, read_body
from tooldeck.plugins.web.content import (
    decode_text,
    media_type,
    refuse_binary_body,
    refuse_binary_type,
)
from tooldeck.plugins.web.extract import parse_extraction, readable_text, select_values
from tooldeck.plugins.web.failures import transport_failure
from tooldeck.plugins.web.settings import ScrapeSettings
from tooldeck.plugins.web.transport import PinnedTransport

__all__ = ["MAX_REDIRECTS", "REDIRECT_STATUSES", "FetchResult", "WebClient"]

MAX_REDIRECTS = 3
"""Redirects followed before a fetch fails with ``too many redirects``."""

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
"""Statuses whose ``Location`` is followed."""

_HEADERS = {
    "Accept": "text/html,application/xhtml+xml,application/json;q=0.9,text/*;q=0.8,*/*;q=0.5",
    "Accept-Encoding": ACCEPT_ENCODING,
    "User-Agent": "tooldeck-web/0.1",
}


@attrs.frozen
class FetchResult:
    """A fetched page, decoded and rendered as readable text.

    :param url: the final URL, after redirects.
    :param status: the final HTTP status.
    :param content_type: the final ``Content-Type`` header (``""`` when absent).
    :param text: the body as readable text (Markdown for HTML, indented JSON, plain text);
        for :meth:`WebClient.scrape`, the selected values.
    :param truncated: whether the body was cut at ``max_body_bytes``.
    :param redirects: how many redirects were followed.
    """

    url: str
    status: int
    content_type: str
    text: str
    truncated: bool
    redirects: int


def _trust_store(settings: ScrapeSettings) -> ssl.SSLContext:
    """Build the default TLS context (httpx's), also trusting the operator's ``ca_bundle``."""
    context = httpx.create_ssl_context()
    if settings.ca_bundle is not None:
        context.load_verify_locations(cafile=settings.ca_bundle)
    return context


class WebClient:
    """Fetch HTTPS pages through the SSRF guard; one instance serves many calls.

    :param settings: the ``[tools.scrape]`` settings.
    :param resolver: the DNS resolver; the event loop's ``getaddrinfo`` when ``None``.
    :param ssl_context: the TLS context; when ``None``, httpx's default trust store plus the
        certificates of ``settings.ca_bundle``.
    """

    def __init__(
        self,
        settings: ScrapeSettings,
        resolver: Resolver | None = None,
        *,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self._settings = settings
        self._policy = EgressPolicy.from_settings(settings)
        transport = PinnedTransport(
            self._policy,
            resolver or system_resolver,
            ssl_context or _trust_store(settings),
        )
        self._http = httpx.AsyncClient(
            transport=transport,
            follow_redirects=False,
            trust_env=False,
            timeout=settings.timeout,
            headers=_HEADERS,
        )

    async def __aenter__(self) -> WebClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the underlying HTTP client."""
        await self._http.aclose()

    async def fetch(self, url: str, hops: HopRecorder | None = None) -> FetchResult:
        """Fetch a URL and return its body as readable text.

        :param url: the HTTPS URL.
        :param hops: where each request (and each one refused) is recorded, for the egress
            log; nothing is recorded when ``None``.
        :returns: the final URL, status, content type, text, truncation flag, redirect count.
        :raises ToolError: ``policy_blocked`` naming the rule for guard refusals; HTTP
            statuses by :func:`~tooldeck.errors.classify_http_status`; network failures by
            their cause (``timeout`` when the deadline passes).
        """
        page = await self._get(url, hops or _NO_HOPS)
        return attrs.evolve(page, text=readable_text(page.text, media_type(page.content_type)))

    async def scrape(
        self, url: str, select: str, extract: str = "text", limit: int = 10,
        hops: HopRecorder | None = None,
    ) -> FetchResult:
        """Fetch an HTML page and return the values a CSS selector picks out of it.

        :param url: the HTTPS URL.
        :param select: the CSS selector.
        :param extract: ``text``, ``html`` (inner HTML) or ``attr:NAME``.
        :param limit: how many matching nodes to take (at least 1).
        :param hops: where each request is recorded, as for :meth:`fetch`.
        :returns: the page's final URL, status, content type, truncation flag and redirect
            count, with ``text`` the values joined by newlines, or
            ``No results for selector: ...``.
        :raises ToolError: as :meth:`fetch`, plus ``invalid_parameters`` for a bad
            ``extract``, ``limit`` or selector.
        """
        extraction = parse_extraction(extract)
        if limit < 1:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS, f"limit must be >= 1, got {limit}")
        page = await self._get(url, hops or _NO_HOPS)
        return attrs.evolve(page, text=select_values(page.text, select, extraction, limit))

    async def _get(self, url: str, hops: HopRecorder) -> FetchResult:
        timeout = self._settings.timeout
        try:
            return await asyncio.wait_for(self._follow(url, hops), timeout)
        except asyncio.TimeoutError:
            raise ToolError(
                ErrorCategory.TIMEOUT, f"fetching {url} took longer than {timeout:g} s"
            ) from None
        except httpx.HTTPError as exc:
            raise transport_failure(exc, url) from exc

    async def _follow(self, url: str, hops: HopRecorder) -> FetchResult:
        try:
            current = check_static(url, self._policy).url
        except PolicyViolation as exc:
            hops.refused(url, 0, exc.rejection.rule)
            raise
        hop = 0
        while True:
            started = time.perf_counter()
            try:
                response = await self._http.send(self._http.build_request("GET", current),
                                                 stream=True)
            except PolicyViolation as exc:  # the resolved addresses were refused
                hops.refused(str(current), hop, exc.rejection.rule, _ms(started))
                raise
            except BaseException:
                hops.sent(str(current), hop, status=None, duration_ms=_ms(started),
                          response_bytes=None)
                raise
            try:
                if response.status_code not in REDIRECT_STATUSES:
                    return await self._read(response, hop, hops, started)
                hops.sent(str(current), hop, status=response.status_code,
                          duration_ms=_ms(started), response_bytes=0)
                target = self._location(response, hop)
            finally:
                await response.aclose()
            try:
                current = check_static(target, self._policy).url
            except PolicyViolation as exc:
                refused = exc.rejection
                hops.refused(target, hop + 1, refused.rule)
                raise PolicyViolation(
                    Rejection(refused.rule, f"redirect {hop + 1} to {target}: {refused.detail}")
                ) from None
            hop += 1

    @staticmethod
    def _location(response: httpx.Response, hop: int) -> str:
        """The absolute URL a redirect points to (not yet judged)."""
        if hop == MAX_REDIRECTS:
            raise ToolError(
                ErrorCategory.PERMANENT_FAILURE, f"too many redirects (more than {MAX_REDIRECTS})"
            )
        location = str(response.headers.get("location", "")).strip()
        if not location:
            raise ToolError(
                ErrorCategory.PERMANENT_FAILURE,
                f"redirect with no Location (HTTP {response.status_code})",
            )
        return urljoin(str(response.request.url), location)

    async def _read(self, response: httpx.Response, redirects: int, hops: HopRecorder,
                    started: float) -> FetchResult:
        status = response.status_code
        read: int | None = None
        try:
            if not 200 <= status < 300:
                raise ToolError(classify_http_status(status),
                                f"HTTP {status} {response.reason_phrase or 'unknown'}")
            content_type = response.headers.get("content-type", "")
            kind = media_type(content_type)
            refuse_binary_type(kind)
            body = await read_body(response, self._settings.max_body_bytes)
            read = len(body.data)
        finally:
            hops.sent(str(response.request.url), redirects, status=status,
                      duration_ms=_ms(started), response_bytes=read)
        if kind == "":
            refuse_binary_body(body.data)
        return FetchResult(
            url=str(response.request.url),
            status=status,
            content_type=content_type,
            text=decode_text(body.data, content_type, truncated=body.truncated),
            truncated=body.truncated,
            redirects=redirects,
        )


_NO_HOPS = HopRecorder(None, "", "")


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
