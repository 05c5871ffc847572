r"""The lines of line data read in place: a sequence of lines without a list of strings.

``text.split("\n")`` holds every line as a string object of its own, about 2.5 times the
text's size on a log of short lines. A :class:`LineView` holds the line data and one offset
per line (4 bytes, 8 past 4 GB) and decodes a line when it is read; a slice is another view
over the same data, so a stretch of a million lines costs nothing until it is read.
"""

from __future__ import annotations

import bisect
import itertools
from array import array
from collections.abc import Iterator, Sequence
from typing import overload

from tooldeck.filters.spans import LineData

__all__ = ["LineView", "line_starts"]

_CHUNK = 1 << 16
"""Bytes split at a time when offsets are taken or lines are read in order."""


def line_starts(data: LineData) -> array[int]:
    """The offset of every line of ``data``, then ``len(data)``.

    :param data: line data (every line ends with a newline).
    :returns: ``len(lines) + 1`` offsets, ascending.
    """
    starts = array("I" if len(data) < 1 << 32 else "q", [0])
    position, size = 0, len(data)
    step = (1).__add__  # (a line's length and its newline, summed in C)
    while position < size:
        cut = data.rfind(b"\n", position, position + _CHUNK) + 1 or data.index(b"\n", position) + 1
        pieces = data[position:cut].split(b"\n")
        pieces.pop()  # (empty: after the chunk's last newline)
        lengths = map(step, map(len, pieces))
        starts.extend(itertools.islice(itertools.accumulate(lengths, initial=position), 1, None))
        position = cut
    return starts


class LineView(Sequence[str]):
    r"""The lines of line data, each decoded (UTF-8, ``surrogatepass``) when it is read.

    Equal, line for line, to ``data[:-1].decode("utf-8", "surrogatepass").split("\n")``.

    :param data: line data (every line ends with a newline); not copied, must not change.
    :param starts: :func:`line_starts` of ``data`` (taken when ``None``).
    """

    __slots__ = ("_data", "_indexes", "_starts")

    def __init__(
        self, data: LineData, starts: array[int] | None = None, *, indexes: range | None = None
    ) -> None:
        self._data = data
        self._starts = line_starts(data) if starts is None else starts
        self._indexes = range(len(self._starts) - 1) if indexes is None else indexes

    def __len__(self) -> int:
        return len(self._indexes)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> LineView: ...

    def __getitem__(self, index: int | slice) -> str | LineView:
        if isinstance(index, slice):
            return LineView(self._data, self._starts, indexes=self._indexes[index])
        line = self._indexes[index]
        starts = self._starts
        return self._data[starts[line] : starts[line + 1] - 1].decode("utf-8", "surrogatepass")

    def __iter__(self) -> Iterator[str]:
        indexes = self._indexes
        if indexes.step != 1 or not indexes:
            return map(self.__getitem__, range(len(indexes)))
        first, stop = indexes.start, indexes.stop
        if self._starts[stop] - self._starts[first] <= _CHUNK:  # (one piece: no generator)
            return iter(self._decoded(first, stop))
        return itertools.chain.from_iterable(self._pieces(first, stop))

    def _decoded(self, first: int, stop: int) -> list[str]:
        """Lines ``first`` to ``stop`` (excluded), decoded at once."""
        starts = self._starts
        return self._data[starts[first] : starts[stop] - 1].decode("utf-8", "surrogatepass").split(
            "\n"
        )

    def _pieces(self, first: int, stop: int) -> Iterator[list[str]]:
        """Lines ``first`` to ``stop`` (excluded), a chunk of lines at a time."""
        starts = self._starts
        while first < stop:
            last = min(stop, _line_at(starts, starts[first] + _CHUNK, first + 1))
            yield self._decoded(first, last)
            first = last


def _line_at(starts: array[int], offset: int, low: int) -> int:
    """The number of the first line starting at or after ``offset`` (not before ``low``)."""
    return bisect.bisect_left(starts, offset, low)
