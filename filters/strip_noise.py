"""``strip_noise``: drop every line matching one of the noise patterns."""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import must_keep_classifier
from tooldeck.filters.omissions import noise_notice
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.spans import LineData, Span, kept_pieces
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams
from tooldeck.filters.tables import MinLen

__all__ = ["StripNoise", "StripNoiseParams"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class StripNoiseParams(StrategyParams):
    """Parameters of ``strip_noise``.

    :param patterns: RE2 patterns; a line matching any of them is noise (at least one).
    """

    patterns: Annotated[list[str], MinLen(1)]


class StripNoise(Strategy[StripNoiseParams]):
    """Remove noise lines; must-keep lines stay even when they match a noise pattern.

    Full when lines were removed (the output ends with ``(N noise lines removed, like
    "<the first of them>")``), Fallback with the text unchanged otherwise.
    """

    name = "strip_noise"
    Params = StripNoiseParams

    def __init__(self, params: StripNoiseParams) -> None:
        super().__init__(params)
        self._noise = LineMatcher(params.patterns, label="strip_noise pattern")

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Drop the noise lines of ``clean``.

        :param clean: sanitized output.
        :param exit_code: unused.
        :returns: the reduction.
        """
        if not clean:
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        data = _line_data(clean)
        classifier = must_keep_classifier()
        scanned = self._noise.runs_with_stops(data, classifier.matcher)
        if scanned is None:
            noise = self._noise.line_runs(data)
            protected = classifier.line_runs_within(data, noise) if noise else []
        else:
            noise, must_keep = scanned
            del scanned
            protected = classifier.line_runs_within_found(data, noise, must_keep)
            del must_keep
        first = _first_removed(data, noise, protected)
        # the kept lines are moved to the front of the line data: no second buffer
        removed = _cut_in_place(data, noise, protected)
        del noise, protected
        if not removed:
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        marker = noise_notice(removed, first)
        if len(data) <= 1:  # nothing kept but at most one empty line: the marker alone
            return Reduction(marker, FilterConfidence.FULL, must_keep_checked=True)
        # the kept lines end with a newline: the marker goes after them, decoded in one go
        data += marker.encode("utf-8", "surrogatepass")
        text = data.decode("utf-8", "surrogatepass")
        return Reduction(text, FilterConfidence.FULL, must_keep_checked=True)


_ENCODE_CHUNK = 1 << 20
"""Characters encoded at a time by :func:`_line_data`."""


def _line_data(text: str) -> bytearray:
    """``text`` as line data (UTF-8, every line ending with a newline), encoded piece by piece.

    ``text.encode()`` plus a newline holds the text, its encoding and the copy with the newline at
    once: three times the text. Encoded a megabyte at a time into one growing buffer, the
    peak is the text, the buffer and one piece.
    """
    data = bytearray()
    for start in range(0, len(text), _ENCODE_CHUNK):
        data += text[start : start + _ENCODE_CHUNK].encode("utf-8", "surrogatepass")
    data += b"\n"
    return data


_MOVE_CHUNK = 1 << 20
"""Bytes moved at a time by :func:`_cut_in_place` (each move copies through a slice)."""


def _cut_in_place(data: bytearray, removed: Sequence[Span], protected: Sequence[Span]) -> int:
    """Remove ``removed`` from ``data`` except where ``protected`` overlaps, in place.

    What :func:`tooldeck.filters.selection.cut_spans` keeps, moved to the front of ``data``
    (which is then cut to it) instead of copied into a second buffer.

    :param data: the line data, changed in place (unchanged when nothing is removed).
    :param removed: sorted, non-overlapping, line-aligned spans to drop.
    :param protected: sorted, non-overlapping, line-aligned spans to keep regardless.
    :returns: the number of lines dropped.
    """
    size = len(data)
    lines = data.count(b"\n")
    write = 0
    for start, end in kept_pieces(removed, protected, size):
        if end - start == size:  # nothing cut
            return 0
        write = _move(data, write, start, end)
    del data[write:]
    return lines - data.count(b"\n")


def _move(data: bytearray, write: int, start: int, end: int) -> int:
    """Copy ``data[start:end]`` to ``write`` (not after ``start``); returns where it ends."""
    if write == start:  # (the lines before the first cut are in place)
        return end
    # each move copies through a slice: at most a megabyte at a time
    while end - start > _MOVE_CHUNK:
        data[write : write + _MOVE_CHUNK] = data[start : start + _MOVE_CHUNK]
        write, start = write + _MOVE_CHUNK, start + _MOVE_CHUNK
    data[write : write + end - start] = data[start:end]
    return write + end - start


def _first_removed(data: LineData, noise: Sequence[Span], protected: Sequence[Span]) -> str:
    """The first non-blank noise line that was removed (not protected)."""
    starts = [start for start, _ in protected]
    for start, end in noise:
        while start < end:
            line_end = data.index(b"\n", start) + 1
            inside = bisect.bisect_right(starts, start) - 1
            if inside < 0 or protected[inside][1] <= start:
                line = data[start : line_end - 1].decode("utf-8", "surrogatepass")
                if line.strip():
                    return line
            start = line_end
    return ""
