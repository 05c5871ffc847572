"""Body reading, charset decoding, HTML-to-text and CSS extraction, without a network."""

from __future__ import annotations

import asyncio
import codecs
import gzip
import zlib
from collections.abc import AsyncIterator

import httpx
import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.plugins.web.body import Body, read_body
from tooldeck.plugins.web.content import (
    decode_text,
    media_type,
    refuse_binary_body,
    refuse_binary_type,
)
from tooldeck.plugins.web.extract import (
    Extraction,
    html_to_text,
    parse_extraction,
    readable_text,
    select_values,
)


class Chunks(httpx.AsyncByteStream):
    """A response body delivered in the given chunks, as a socket would."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.served = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            self.served += 1
            yield chunk


def read(chunks: list[bytes], limit: int, encoding: str = "") -> Body:
    headers = {"content-encoding": encoding} if encoding else {}
    response = httpx.Response(200, headers=headers, stream=Chunks(chunks))
    return asyncio.run(read_body(response, limit))


def split(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


# --- read_body ------------------------------------------------------------------------


def test_identity_body_under_the_limit() -> None:
    assert read([b"abc", b"def"], 10) == Body(b"abcdef", False)


def test_identity_body_cut_at_the_limit() -> None:
    assert read([b"abc", b"def"], 4) == Body(b"abcd", True)


def test_reading_stops_at_the_limit_without_draining_the_stream() -> None:
    stream = Chunks([b"x" * 100] * 1000)
    response = httpx.Response(200, stream=stream)
    body = asyncio.run(read_body(response, 250))
    assert body == Body(b"x" * 250, True)
    assert stream.served == 3


def test_gzip_bomb_inflates_only_to_the_limit() -> None:
    bomb = gzip.compress(b"\0" * (32 * 1024 * 1024))
    body = read(split(bomb, 64 * 1024), 4096, "gzip")
    assert body == Body(b"\0" * 4096, True)


@pytest.mark.parametrize("wbits", [zlib.MAX_WBITS, -zlib.MAX_WBITS], ids=["zlib", "raw"])
@pytest.mark.parametrize("size", [1, 7, 4096])
def test_deflate_zlib_or_raw_in_any_chunking(wbits: int, size: int) -> None:
    engine = zlib.compressobj(wbits=wbits)
    data = engine.compress(b"deflated text " * 50) + engine.flush()
    assert read(split(data, size), 10_000, "deflate") == Body(b"deflated text " * 50, False)


def test_corrupt_gzip_is_an_error() -> None:
    with pytest.raises(ToolError, match="corrupt compressed body"):
        read([b"\x1f\x8b\x08\x00garbage-garbage"], 1000, "gzip")


def test_unknown_encoding_is_refused() -> None:
    with pytest.raises(ToolError, match="unsupported content encoding: zstd"):
        read([b"x"], 10, "zstd")


# --- content types and charsets ---------------------------------------------------------


def test_media_type_strips_parameters() -> None:
    assert media_type("Text/HTML; charset=UTF-8") == "text/html"
    assert media_type("") == ""


@pytest.mark.parametrize(
    "kind",
    [
        "text/plain",
        "text/csv",
        "application/json",
        "application/ld+json",
        "application/rss+xml",
        "application/javascript",
        "application/xhtml+xml",
        "",
    ],
)
def test_textual_types_pass(kind: str) -> None:
    refuse_binary_type(kind)


@pytest.mark.parametrize(
    "kind", ["image/png", "application/octet-stream", "application/pdf", "video/mp4"]
)
def test_binary_types_are_refused(kind: str) -> None:
    with pytest.raises(ToolError) as caught:
        refuse_binary_type(kind)
    assert caught.value.category is ErrorCategory.PERMANENT_FAILURE
    assert kind in caught.value.message


def test_untyped_body_with_nul_bytes_is_refused() -> None:
    refuse_binary_body(b"plain text")
    with pytest.raises(ToolError, match="NUL bytes"):
        refuse_binary_body(b"MZ\x00\x00")


@pytest.mark.parametrize(
    ("body", "content_type", "expected"),
    [
        ("caf\u00e9".encode("cp1252"), "text/plain; charset=windows-1252", "caf\u00e9"),
        ("caf\u00e9".encode(), "text/plain", "caf\u00e9"),
        (
            '<meta charset="koi8-r">\u043c\u0438\u0440'.encode("koi8-r"),
            "text/html",
            '<meta charset="koi8-r">\u043c\u0438\u0440',
        ),
        (codecs.BOM_UTF16_LE + "bom".encode("utf-16-le"), "text/plain; charset=latin-1", "bom"),
        (codecs.BOM_UTF8 + b"bom8", "text/plain", "bom8"),
        (b"caf\xc3\xa9", "text/plain; charset=no-such-charset", "caf\u00e9"),
        (b"bad \xff byte", "text/plain; charset=utf-8", "bad \ufffd byte"),
    ],
    ids=[
        "header",
        "default-utf8",
        "meta",
        "bom-wins",
        "utf8-bom",
        "unknown-charset",
        "invalid-bytes",
    ],
)
def test_decode_text(body: bytes, content_type: str, expected: str) -> None:
    assert decode_text(body, content_type, truncated=False) == expected


def test_character_cut_by_truncation_is_dropped() -> None:
    cut = "ab\u20ac".encode()[:-1]
    assert decode_text(cut, "text/plain", truncated=True) == "ab"
    assert decode_text(cut, "text/plain", truncated=False) == "ab\ufffd"


# --- readable text ------------------------------------------------------------------------


def test_html_to_text_drops_scripts_and_collapses_blank_lines() -> None:
    page = "<h2>Title</h2><script>evil()</script><p>one</p>\n\n\n\n<p>two</p><style>p{}</style>"
    assert html_to_text(page) == "## Title\n\none\n\ntwo"


def test_readable_text_by_media_type() -> None:
    assert readable_text("<b>x</b>", "text/html") == "**x**"
    assert readable_text('{"a":1}', "application/problem+json") == '{\n  "a": 1\n}'
    assert readable_text("{not json", "application/json") == "{not json"
    assert readable_text("<b>x</b>", "text/plain") == "<b>x</b>"


# --- scrape extraction --------------------------------------------------------------------

PAGE = (
    '<div><p class="x" data-k="1">a &lt; b <i>it</i></p><p class="x"> </p><p class="x">c</p></div>'
)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("text", Extraction("text")),
        ("html", Extraction("html")),
        ("attr:data-k", Extraction("attr", "data-k")),
    ],
)
def test_parse_extraction(spec: str, expected: Extraction) -> None:
    assert parse_extraction(spec) == expected


@pytest.mark.parametrize("spec", ["", "TEXT", "attr:", "attr: ", "markdown"])
def test_parse_extraction_rejects(spec: str) -> None:
    with pytest.raises(ToolError) as caught:
        parse_extraction(spec)
    assert caught.value.category is ErrorCategory.INVALID_PARAMETERS


def test_select_text_html_attr() -> None:
    assert select_values(PAGE, "p.x", Extraction("text"), 10) == "a < b it\nc"
    assert select_values(PAGE, "p.x", Extraction("html"), 1) == "a &lt; b <i>it</i>"
    assert select_values(PAGE, "p.x", Extraction("attr", "data-k"), 10) == "1"


def test_select_limit_applies_before_empty_values_are_dropped() -> None:
    assert select_values(PAGE, "p.x", Extraction("text"), 2) == "a < b it"


def test_select_no_results_and_invalid_selector() -> None:
    assert select_values(PAGE, "table", Extraction("text"), 10) == "No results for selector: table"
    with pytest.raises(ToolError, match="invalid selector"):
        select_values(PAGE, "p..x", Extraction("text"), 10)
