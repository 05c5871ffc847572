"""Media types and character sets: which bodies are text, and how to decode them.

Binary bodies are refused before they are read. Text is decoded with, in order of
precedence, a byte-order mark, the ``charset`` parameter of ``Content-Type``, a
``<meta charset>`` in the first kilobyte of an HTML page, and UTF-8. Undecodable bytes
become U+FFFD; an unknown charset name falls back to UTF-8.
"""

from __future__ import annotations

import codecs
import re

from tooldeck.errors import ErrorCategory, ToolError

__all__ = [
    "decode_text",
    "is_html",
    "is_json",
    "media_type",
    "refuse_binary_body",
    "refuse_binary_type",
]

_TEXTUAL_APPLICATION_TYPES = frozenset(
    {
        "application/json",
        "application/xml",
        "application/xhtml+xml",
        "application/javascript",
        "application/ecmascript",
        "application/x-javascript",
        "application/yaml",
        "application/x-yaml",
        "application/toml",
        "application/x-ndjson",
        "application/sql",
        "application/graphql",
    }
)
_TEXTUAL_SUFFIXES = ("+json", "+xml", "+yaml")
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_SNIFF_BYTES = 1024
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def media_type(content_type: str) -> str:
    """Return the lower-case ``type/subtype`` of a ``Content-Type`` value, or ``""``.

    :param content_type: the header value (parameters allowed).
    :returns: the media type without parameters.
    """
    return content_type.split(";", 1)[0].strip().lower()


def is_html(kind: str) -> bool:
    """Tell whether a media type is an HTML page.

    :param kind: a value from :func:`media_type`.
    :returns: ``True`` for ``text/html`` and XHTML.
    """
    return kind in _HTML_TYPES


def is_json(kind: str) -> bool:
    """Tell whether a media type is JSON.

    :param kind: a value from :func:`media_type`.
    :returns: ``True`` for ``application/json`` and ``+json`` types.
    """
    return kind == "application/json" or kind.endswith("+json")


def _is_textual(kind: str) -> bool:
    return (
        kind.startswith("text/")
        or kind in _TEXTUAL_APPLICATION_TYPES
        or kind.endswith(_TEXTUAL_SUFFIXES)
    )


def refuse_binary_type(kind: str) -> None:
    """Refuse a declared media type that is not text, before the body is read.

    :param kind: the media type; ``""`` (none sent) passes, to be sniffed later.
    :raises ToolError: ``permanent_failure`` naming the media type.
    """
    if kind and not _is_textual(kind):
        raise ToolError(ErrorCategory.PERMANENT_FAILURE, f"binary content is not supported: {kind}")


def refuse_binary_body(head: bytes) -> None:
    """Refuse an untyped body whose first kilobyte holds NUL bytes.

    :param head: the body, or at least its first kilobyte.
    :raises ToolError: ``permanent_failure``.
    """
    if b"\x00" in head[:_SNIFF_BYTES]:
        raise ToolError(
            ErrorCategory.PERMANENT_FAILURE,
            "binary content is not supported (no content type, body contains NUL bytes)",
        )


def _charset_param(content_type: str) -> str | None:
    for param in content_type.split(";")[1:]:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip("\"'"):
            return value.strip().strip("\"'")
    return None


def _codec_name(label: str | None) -> str | None:
    if label is None:
        return None
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def _choose_encoding(body: bytes, content_type: str) -> tuple[str, int]:
    for bom, name in _BOMS:
        if body.startswith(bom):
            return name, len(bom)
    declared = _codec_name(_charset_param(content_type))
    if declared is None and is_html(media_type(content_type)):
        found = _META_CHARSET.search(body[:_SNIFF_BYTES])
        declared = _codec_name(found.group(1).decode("ascii") if found else None)
    return declared or "utf-8", 0


def decode_text(body: bytes, content_type: str, *, truncated: bool) -> str:
    """Decode a text body with the charset it declares.

    :param body: the body bytes.
    :param content_type: the ``Content-Type`` header value (``""`` when absent).
    :param truncated: whether the body was cut; a character cut in half is then dropped.
    :returns: the decoded text.
    """
    name, skip = _choose_encoding(body, content_type)
    decoder = codecs.getincrementaldecoder(name)(errors="replace")
    return decoder.decode(body[skip:], final=not truncated)
