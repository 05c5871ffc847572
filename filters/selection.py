"""Line selection over whole texts: span arithmetic and head/tail truncation with omission markers.

Texts are handled as UTF-8 ``bytes`` in which every line ends with a newline; a *span* is a
``(start, end)`` byte range covering whole lines. Working on spans keeps the per-line work
inside RE2 and ``bytes`` methods, which is what lets the line filters run at hundreds of MB/s.
"""

from __future__ import annotations

from collections.abc import Sequence

from tooldeck.filters.must_keep import must_keep_classifier
from tooldeck.filters.spans import LineData, Span, complement, kept_pieces, subtract, union

__all__ = [
    "Span",
    "as_line_data",
    "complement",
    "cut_spans",
    "from_line_data",
    "join_spans",
    "line_count",
    "omission_marker",
    "subtract",
    "truncate_middle",
    "union",
]


def as_line_data(text: str) -> bytes:
    """Encode a sanitized text so that every line, the last included, ends with a newline.

    :param text: text without a trailing newline.
    :returns: the UTF-8 bytes.
    """
    return text.encode("utf-8", "surrogatepass") + b"\n"


def from_line_data(data: LineData) -> str:
    """Decode line data back to text, dropping the final a newline.

    :param data: bytes built from :func:`as_line_data` pieces.
    :returns: the text.
    """
    return data[:-1].decode("utf-8", "surrogatepass") if data else ""


def omission_marker(count: int, kind: str = "lines") -> str:
    """The marker that replaces omitted lines, stating how many and what they were.

    :param count: how many lines were omitted.
    :param kind: what they were, plural (e.g. ``"lines"``, ``"passing tests"``).
    :returns: e.g. ``... (16 lines omitted) ...``.
    """
    return f"... ({count} {kind} omitted) ..."


def cut_spans(
    data: bytes, removed: Sequence[Span], protected: Sequence[Span]
) -> tuple[bytes | bytearray, int]:
    """Remove ``removed`` from ``data`` except where ``protected`` overlaps, in one pass.

    Equivalent to joining ``complement(subtract(removed, protected))``, without building the
    intermediate lists (this is the hot path of the line filters). The kept bytes are copied
    once, into one growing buffer: a list of pieces joined at the end held them twice.

    :param data: the line data.
    :param removed: sorted, non-overlapping, line-aligned spans to drop.
    :param protected: sorted, non-overlapping, line-aligned spans to keep regardless.
    :returns: the remaining bytes (``data`` itself when nothing is removed) and the number of
        lines dropped.
    """
    size = len(data)
    kept = bytearray()
    view = memoryview(data)
    for start, end in kept_pieces(removed, protected, size):
        if end - start == size:  # nothing cut
            return data, 0
        kept += view[start:end]
    view.release()
    # every piece is whole lines: two counts replace one count per dropped span
    return kept, data.count(b"\n") - kept.count(b"\n")


def join_spans(data: bytes, spans: Sequence[Span]) -> bytes:
    """Concatenate the bytes of ``spans``.

    :param data: the line data.
    :param spans: the spans to keep, in order.
    :returns: the concatenation.
    """
    return b"".join([data[start:end] for start, end in spans])


def line_count(data: bytes, spans: Sequence[Span]) -> int:
    """Number of lines covered by ``spans``.

    :param data: the line data.
    :param spans: line-aligned spans.
    :returns: the count.
    """
    return sum(data.count(b"\n", start, end) for start, end in spans)


def _offset_after_lines(data: bytes, lines: int) -> int:
    offset = 0
    for _ in range(lines):
        offset = data.index(b"\n", offset) + 1
    return offset


def _offset_before_last_lines(data: bytes, lines: int) -> int:
    offset = len(data) - 1
    for _ in range(lines):
        offset = data.rindex(b"\n", 0, offset)
    return offset + 1 if lines else len(data)


def truncate_middle(data: bytes, head: int, tail: int) -> str:
    """Keep the first ``head`` and last ``tail`` lines, and every must-keep line in between.

    Each omitted stretch becomes an :func:`omission_marker`; a blank line separates the middle
    from the tail. Callers ensure ``head + tail`` is less than the number of lines.

    :param data: line data.
    :param head: lines kept from the start.
    :param tail: lines kept from the end.
    :returns: the text, trailing newlines trimmed.
    """
    head_end = _offset_after_lines(data, head)
    tail_start = _offset_before_last_lines(data, tail)
    pieces: list[bytes] = [data[:head_end]]
    cursor = head_end
    if tail_start > head_end:
        kept = must_keep_classifier().line_runs_within(data, [(head_end, tail_start)])
    else:
        kept = []
    for start, end in kept:
        if start > cursor:
            marker = omission_marker(data.count(b"\n", cursor, start))
            pieces.append(marker.encode() + b"\n")
        pieces.append(data[start:end])
        cursor = end
    if cursor < tail_start:
        pieces.append(omission_marker(data.count(b"\n", cursor, tail_start)).encode() + b"\n")
    if tail:
        pieces.append(b"\n")
        pieces.append(data[tail_start:])
    return b"".join(pieces).decode("utf-8", "surrogatepass").rstrip("\n")
