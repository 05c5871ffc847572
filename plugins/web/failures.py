"""Map httpx transport failures to classified tool errors."""

from __future__ import annotations

import ssl
from collections.abc import Iterator

import httpx

from tooldeck.errors import ErrorCategory, ToolError, classify_io_error

__all__ = ["transport_failure"]


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """Walk an exception, its causes and contexts, and the members of exception groups."""
    pending = [exc]
    seen: set[int] = set()
    while pending:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending.extend(getattr(current, "exceptions", ()))
        pending.extend(link for link in (current.__cause__, current.__context__) if link)


def transport_failure(exc: httpx.HTTPError, url: str) -> ToolError:
    """Classify an httpx failure: timeouts, TLS verification, OS errors, other transport errors.

    :param exc: the exception httpx raised.
    :param url: the URL being fetched, for the message.
    :returns: the tool error to raise in its place.
    """
    if isinstance(exc, httpx.TimeoutException):
        return ToolError(ErrorCategory.TIMEOUT, f"timed out fetching {url}: {exc!r}")
    causes = list(_causes(exc))
    for cause in causes:
        if isinstance(cause, ssl.SSLCertVerificationError):
            return ToolError(
                ErrorCategory.PERMANENT_FAILURE,
                f"TLS certificate verification failed for {url}: {cause.verify_message}",
            )
    for cause in causes:
        if isinstance(cause, OSError) and not isinstance(cause, ssl.SSLError):
            category = classify_io_error(cause)
            if category is not ErrorCategory.PERMANENT_FAILURE:
                return ToolError(category, f"network error fetching {url}: {cause}")
    if isinstance(exc, httpx.TransportError):
        return ToolError(ErrorCategory.NETWORK_ERROR, f"network error fetching {url}: {exc}")
    return ToolError(ErrorCategory.PERMANENT_FAILURE, f"request to {url} failed: {exc}")
