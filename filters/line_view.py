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
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from tooldeck.filters.spans import LineData

__all__ = ["LineView", "joined", "line_data", "line_data_pieces", "line_starts"]

_CHUNK = 1 << 16
"""Bytes split at a time when offsets are taken or lines are read in order."""


_ENCODE_CHUNK = 1 << 18
"""Characters encoded at a time by :func:`line_data_pieces`."""


def line_data_pieces(text: str) -> Iterator[bytes]:
    """``text`` as line data (UTF-8, a newline after its last line), a piece at a time.

    :param text: a text without a trailing newline (as the sanitizer leaves it).
    :returns: the encoded pieces, the added newline last.
    """
    for start in range(0, len(text), _ENCODE_CHUNK):
        yield text[start : start + _ENCODE_CHUNK].encode("utf-8", "surrogatepass")
    yield b"\n"


def joined(pieces: Iterable[bytes], size: int) -> bytearray:
    """The pieces one after the other, in one buffer allocated for ``size`` bytes up front.

    ``b"".join`` holds the pieces and the result at once, and a buffer grown piece by piece
    is reallocated with an eighth to spare; past ``size`` this one grows like that.

    :param pieces: the bytes.
    :param size: the expected total (the text's length in characters: exact for ASCII).
    :returns: the buffer, exactly as long as the pieces.
    """
    data = bytearray(size)
    used = 0
    for piece in pieces:
        data[used : used + len(piece)] = piece
        used += len(piece)
    del data[used:]
    return data


def line_data(text: str) -> bytearray:
    """``text`` as line data, encoded a piece at a time into one buffer.

    Same bytes as :func:`~tooldeck.filters.selection.as_line_data`, without the text's full
    encoding and its copy with the newline added alive at once (three times the text).

    :param text: a text without a trailing newline.
    :returns: the UTF-8 bytes, a newline after the last line.
    """
    return joined(line_data_pieces(text), len(text) + 1)


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
            view = LineView.__new__(LineView)  # (the same data and offsets: nothing to check)
            view._data, view._starts, view._indexes = self._data, self._starts, self._indexes[index]
            return view
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
