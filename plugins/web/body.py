"""Read a response body under the byte limit, on the wire and after decompression.

The body is read raw and decompressed here, in bounded steps (``zlib`` with
``max_length``), so a small compressed body that inflates to gigabytes produces at most
``limit + 1`` bytes before reading stops. Reaching the limit is not an error: the body is
returned cut at the limit and marked ``truncated``.
"""

from __future__ import annotations

import zlib

import attrs
import httpx

from tooldeck.errors import ErrorCategory, ToolError

__all__ = ["ACCEPT_ENCODING", "Body", "read_body"]

ACCEPT_ENCODING = "gzip, deflate"
"""The content codings the client asks for; exactly those :func:`read_body` can undo."""

_GZIP_WBITS = 16 + zlib.MAX_WBITS
_ZLIB_WBITS = zlib.MAX_WBITS
_RAW_DEFLATE_WBITS = -zlib.MAX_WBITS


@attrs.frozen
class Body:
    """A response body as kept.

    :param data: the decoded bytes, at most the limit.
    :param truncated: whether reading stopped at the limit.
    """

    data: bytes
    truncated: bool


class _Identity:
    def feed(self, chunk: bytes, most: int) -> bytes:
        return chunk[:most]

    def flush(self, most: int) -> bytes:
        return b""


class _Inflate:
    """zlib decompression that never returns more than asked for."""

    def __init__(self, wbits: int | None) -> None:
        self._wbits = wbits
        self._engine: zlib._Decompress | None = None
        self._head = b""

    def feed(self, chunk: bytes, most: int) -> bytes:
        if self._engine is None:
            self._head += chunk
            if self._wbits is None and len(self._head) < 2:
                return b""  # "deflate" needs two bytes to tell zlib-wrapped from raw
            self._engine = zlib.decompressobj(self._wbits or _deflate_wbits(self._head))
            chunk, self._head = self._head, b""
        return self._engine.decompress(chunk, most)

    def flush(self, most: int) -> bytes:
        return b"" if self._engine is None else self._engine.flush(most)


def _deflate_wbits(head: bytes) -> int:
    """Pick zlib-wrapped (as the standard says) or raw deflate (as some servers send)."""
    return _ZLIB_WBITS if _has_zlib_header(head) else _RAW_DEFLATE_WBITS


def _has_zlib_header(chunk: bytes) -> bool:
    return len(chunk) >= 2 and chunk[0] & 0x0F == 8 and (chunk[0] << 8 | chunk[1]) % 31 == 0


def _decoder(coding: str) -> _Identity | _Inflate:
    if coding in ("", "identity"):
        return _Identity()
    if coding in ("gzip", "x-gzip"):
        return _Inflate(_GZIP_WBITS)
    if coding == "deflate":
        return _Inflate(None)
    raise ToolError(ErrorCategory.PERMANENT_FAILURE, f"unsupported content encoding: {coding}")


async def read_body(response: httpx.Response, limit: int) -> Body:
    """Stream a response body, decompressing it, and stop at ``limit`` bytes.

    :param response: a response opened with ``stream=True``.
    :param limit: the most bytes kept, counted both on the wire and after decompression.
    :returns: the body and whether it was cut.
    :raises ToolError: for an unsupported or corrupt content encoding.
    """
    decoder = _decoder(response.headers.get("content-encoding", "").strip().lower())
    kept = bytearray()
    wire = 0
    truncated = False
    try:
        async for chunk in response.aiter_raw():
            wire_room = limit - wire
            wire += len(chunk)
            piece = decoder.feed(chunk[:wire_room], limit - len(kept) + 1)
            kept += piece
            if len(kept) > limit or wire > limit:
                truncated = True
                break
        else:
            kept += decoder.flush(limit - len(kept) + 1)
            truncated = len(kept) > limit
    except zlib.error as exc:
        raise ToolError(ErrorCategory.PERMANENT_FAILURE, f"corrupt compressed body: {exc}") from exc
    return Body(bytes(kept[:limit]), truncated)
