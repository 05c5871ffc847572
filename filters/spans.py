"""Span arithmetic over line data: sorted, non-overlapping ``(start, end)`` byte ranges.

Texts are handled as UTF-8 ``bytes`` in which every line ends with a newline; a *span*
covers whole lines. The line filters and the protected-line classifier select lines with
these operations instead of splitting texts into lists of lines.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

__all__ = [
    "LineData", "Span", "SpanArray", "complement", "intersect", "kept_pieces", "lines_of",
    "subtract", "union",
]

Span = tuple[int, int]

LineData = bytes | bytearray
"""UTF-8 text in which every line ends with a newline (a filter may own a mutable copy)."""


def subtract(spans: Sequence[Span], removed: Sequence[Span]) -> list[Span]:
    """The parts of ``spans`` not covered by ``removed`` (both sorted, non-overlapping).

    :param spans: the spans to cut.
    :param removed: the spans to cut out.
    :returns: the remaining spans, sorted.
    """
    result: list[Span] = []
    append = result.append
    cursor = 0
    count = len(removed)  # (the loops below run once per span: len() hoisted out of them)
    for start, end in spans:
        while cursor < count and removed[cursor][1] <= start:
            cursor += 1
        probe = cursor
        while probe < count and removed[probe][0] < end:
            cut_start, cut_end = removed[probe]
            if cut_start > start:
                append((start, cut_start))
            start = max(start, cut_end)
            probe += 1
        if start < end:
            append((start, end))
    return result


def union(first: Sequence[Span], second: Sequence[Span]) -> list[Span]:
    """Merge two sorted span lists into one sorted, non-overlapping list.

    :param first: spans.
    :param second: more spans.
    :returns: the merged spans (adjacent spans are joined).
    """
    merged: list[Span] = []
    for start, end in sorted([*first, *second]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def complement(spans: Sequence[Span], size: int) -> list[Span]:
    """The ranges of ``[0, size)`` outside ``spans``.

    :param spans: sorted, non-overlapping spans.
    :param size: length of the data.
    :returns: the gaps, sorted.
    """
    gaps: list[Span] = []
    cursor = 0
    for start, end in spans:
        if start > cursor:
            gaps.append((cursor, start))
        cursor = end
    if cursor < size:
        gaps.append((cursor, size))
    return gaps


def intersect(first: Sequence[Span], second: Sequence[Span]) -> list[Span]:
    """The ranges covered by both span lists.

    :param first: sorted, non-overlapping spans.
    :param second: more such spans.
    :returns: the overlaps, sorted.
    """
    out: list[Span] = []
    i = j = 0
    first_count, second_count = len(first), len(second)
    while i < first_count and j < second_count:
        start = max(first[i][0], second[j][0])
        end = min(first[i][1], second[j][1])
        if start < end:
            out.append((start, end))
        if first[i][1] < second[j][1]:
            i += 1
        else:
            j += 1
    return out


def kept_pieces(removed: Sequence[Span], protected: Sequence[Span], size: int) -> Iterator[Span]:
    """The pieces of ``[0, size)`` left when ``removed`` is cut except where ``protected`` overlaps.

    Equivalent to ``complement(subtract(removed, protected), size)`` without building either
    list; neighbouring pieces are not merged (a piece may be empty). Nothing is cut exactly
    when the one piece given is ``(0, size)``.

    :param removed: sorted, non-overlapping spans to drop.
    :param protected: sorted, non-overlapping spans to keep regardless.
    :param size: the length of the data the spans cover.
    :returns: the kept pieces, in order.
    """
    cursor = guard = 0
    guards = len(protected)
    for start, end in removed:
        while guard < guards and protected[guard][1] <= start:
            guard += 1
        probe = guard
        while probe < guards and protected[probe][0] < end:
            keep_start, keep_end = protected[probe]
            if keep_start > start:
                yield cursor, start
                cursor = keep_start
            start = max(start, keep_end)
            probe += 1
        if start < end:
            yield cursor, start
            cursor = end
    yield cursor, size


def lines_of(data: bytes, start: int, end: int) -> list[Span]:
    """The span of each line of the line-aligned span ``[start, end)``.

    :param data: line data (every line ends with a newline).
    :param start: where the span starts (a line start).
    :param end: where it ends (just after a newline).
    :returns: one span per line.
    """
    lines: list[Span] = []
    while start < end:
        line_end = data.index(b"\n", start) + 1
        lines.append((start, line_end))
        start = line_end
    return lines


class SpanArray(Sequence[Span]):
    """Sorted spans kept in two arrays of offsets: 16 bytes a span, not a tuple's 120."""

    __slots__ = ("ends", "starts")

    def __init__(self) -> None:
        self.starts = array("q")
        self.ends = array("q")

    def extend(self, spans: Iterable[Span], offset: int = 0) -> None:
        """Add spans after the last one.

        :param spans: sorted spans, none before the last one held.
        :param offset: added to each offset (the spans of a window of a longer text).
        """
        for start, end in spans:
            self.starts.append(start + offset)
            self.ends.append(end + offset)

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> Span: ...

    @overload
    def __getitem__(self, index: slice) -> list[Span]: ...

    def __getitem__(self, index: int | slice) -> Span | list[Span]:
        if isinstance(index, slice):
            return list(zip(self.starts[index], self.ends[index], strict=True))
        return self.starts[index], self.ends[index]

    def __iter__(self) -> Iterator[Span]:
        return zip(self.starts, self.ends, strict=True)
