"""The chunked core of ``strip_noise``: line data in, the kept lines out, a window at a time.

:class:`NoiseCut` takes a text's line data (UTF-8, every line ending with a newline) in
pieces of any size and gives back the kept lines as soon as they are final, so that a text is
never held whole: :meth:`tooldeck.filters.strip_noise.StripNoise.reduce` feeds it the pieces
of a string, ``tooldeck filter --stream`` the pieces of stdin. Its result is exactly what the
whole-text cut gave (the test oracle ``tests/filters/oracles.py`` keeps that code).

The pieces are gathered into **windows** of about :data:`WINDOW` bytes. A window ends before a
line that no protected line before it can reach (:func:`~tooldeck.filters.must_keep.
ends_protected_context`: no location follower, and the line before it does not end with
``:``), so the classifier reads nothing across the cut; the lines after the cut wait for the
next window. What crosses a cut is carried explicitly:

- a noise run open at the cut: it goes on in the next window, whose first span is never taken
  for the start of a run (the classifier looks back from a run's start only after the
  window's first line, and nothing before the cut can reach past it);
- the number of lines removed and the first removed line (the notice's count and example);
- the first :data:`~tooldeck.filters.must_keep.STAMP_PROBE` bytes of the lines the
  classifier reads inside the runs, which decide whether it masks time stamps; a window
  whose classified lines open with a stamp before those bytes are known waits;
- the listing kinds that are protected, which depend on the whole text's count of their
  lines (a :class:`~tooldeck.filters.must_keep.ListingCount`): given up front for a string,
  counted as the pieces arrive for a stream, where a window holding a listing line inside a
  run waits until the count passes the limit or the text ends.

A window that waits is kept and retried when it has doubled or the text has ended: rare
inputs (few protected lines inside the runs, a stamped log or a short listing among them)
can thus hold more than one window, never more than the text.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Iterable, Sequence

from tooldeck.filters.must_keep import (
    STAMP_PROBE,
    ListingCount,
    ends_protected_context,
    must_keep_classifier,
    opens_with_stamp,
    stamps_lines,
)
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.spans import LineData, Span, kept_pieces

__all__ = ["WINDOW", "NoiseCut"]

WINDOW = 1 << 20
"""Bytes of line data gathered before a window is cut."""

_MOVE_CHUNK = 1 << 20
"""Bytes moved at a time by :func:`_cut_in_place` (each move copies through a slice)."""


class _Unknown(Exception):
    """A fact of the whole text the window needs is not known yet: the window waits."""


ListingKinds = Callable[[bool], Sequence[LineMatcher] | None]
"""Given whether the whole text was fed, the protected listing kinds, or ``None``: not known yet."""


class NoiseCut:
    """Removes the noise lines of line data fed in pieces, keeping the protected ones.

    :param noise: the noise patterns.
    :param listing: gives the protected listing kinds of the whole text, asked at most once
        and only when a listing line lies inside the noise (``None``: counted from the pieces
        fed, known when the text ends or every kind is past the limit).
    :param window: bytes gathered before a window is cut.
    """

    def __init__(
        self,
        noise: LineMatcher,
        listing: Callable[[], Sequence[LineMatcher]] | None = None,
        *,
        window: int = WINDOW,
    ) -> None:
        self._noise = noise
        self._classifier = must_keep_classifier()
        self._window = window
        self._buffer = bytearray()
        self._waited = 0  # the buffer's size when a window last had to wait (0: none waits)
        self._head = bytearray()  # the first STAMP_PROBE bytes the classifier read in the runs
        self._listing_kinds = self._listing_source(listing)
        self.fed = 0
        """Bytes fed so far."""
        self.removed = 0
        """Lines removed so far."""
        self.first = ""
        """The first non-blank line removed (empty until one is)."""

    def _listing_source(
        self, listing: Callable[[], Sequence[LineMatcher]] | None
    ) -> ListingKinds:
        """How a window asks for the protected listing kinds (see :data:`ListingKinds`)."""
        if listing is None:
            count = ListingCount(self._classifier)
            self._count: ListingCount | None = count
            return lambda ended: count.short() if ended else (() if count.long else None)
        self._count = None
        known: list[Sequence[LineMatcher]] = []

        def lazily(ended: bool) -> Sequence[LineMatcher]:
            if not known:
                known.append(listing())
            return known[0]

        return lazily

    def feed(self, piece: LineData) -> bytearray:
        """Take the next bytes of the line data.

        :param piece: the next bytes (any length; lines may be split between pieces).
        :returns: kept lines now final (possibly none), in order.
        """
        self._buffer += piece
        self.fed += len(piece)
        if self._count is not None:
            self._count.add(piece)
        kept = bytearray()
        while len(self._buffer) >= self._window:
            if self._waited and len(self._buffer) < 2 * self._waited:
                break  # (a window waits: retried when the buffer has doubled)
            size = len(self._buffer)
            kept += self._step(ended=False)
            if len(self._buffer) == size:  # no window could be cut yet
                break
        return kept

    def finish(self) -> bytearray:
        """End the text: cut what is left (the line data must end with a newline).

        :returns: the last kept lines.
        """
        return self._step(ended=True) if self._buffer else bytearray()

    def _step(self, *, ended: bool) -> bytearray:
        """Cut the window the buffer holds; a window that must wait stays in the buffer."""
        buffer = self._buffer
        if ended:
            end = len(buffer)
        else:  # a window of about self._window bytes, the whole buffer when one waited
            reach = len(buffer) if self._waited else buffer.find(b"\n", self._window - 1) + 1
            end = _cut_point(buffer, reach or len(buffer))
        window = buffer[:end]
        kept = self._cut(window, ended=ended) if end else None
        if kept is None:
            self._waited = len(buffer)
            return bytearray()
        del buffer[:end]
        self._waited = 0
        return kept

    def _cut(self, window: bytearray, *, ended: bool) -> bytearray | None:
        """Remove the noise of one window in place; ``None`` when it must wait."""
        classifier = self._classifier
        scanned = self._noise.runs_with_stops(window, classifier.matcher)
        if scanned is None:
            noise = self._noise.line_runs(window)
            # what the classifier reads inside the runs: the runs themselves...
            read: Callable[[], Iterable[Span]] = functools.partial(iter, noise)
        else:
            noise, found = scanned
            # ... or the lines found in them
            read = functools.partial(zip, found.starts, found.ends, strict=True)
        if not noise:
            return window
        stamped = self._stamped(window, read, ended=ended)
        if stamped is None:
            return None

        def listing() -> Sequence[LineMatcher]:
            kinds = self._listing_kinds(ended)
            if kinds is None:
                raise _Unknown
            return kinds

        try:
            if scanned is None:
                protected = classifier.line_runs_within(
                    window, noise, stamped=stamped, listing=listing
                )
            else:
                protected = classifier.line_runs_within_found(
                    window, noise, found, stamped=stamped, listing=listing
                )
        except _Unknown:
            return None
        self._commit_head(window, read)
        if not self.first:
            self.first = _first_removed(window, noise, protected)
        self.removed += _cut_in_place(window, noise, protected)
        return window

    def _stamped(
        self, window: bytearray, read: Callable[[], Iterable[Span]], *, ended: bool
    ) -> bool | None:
        """Whether the classifier masks time stamps; ``None`` when not known yet and it matters.

        :param read: the spans the classifier reads, joined, in the window.
        """
        missing = STAMP_PROBE - len(self._head)
        if missing <= 0:
            return stamps_lines(self._head)
        head = self._head + _first_bytes(window, read(), missing)
        if ended or len(head) >= STAMP_PROBE:
            return stamps_lines(head)
        if any(opens_with_stamp(window, start, end) for start, end in read()):
            return None
        return False  # (no line it reads opens with a stamp: masking them changes nothing)

    def _commit_head(self, window: bytearray, read: Callable[[], Iterable[Span]]) -> None:
        """Add the window's first classified bytes to the head, once the window is cut."""
        missing = STAMP_PROBE - len(self._head)
        if missing > 0:
            self._head += _first_bytes(window, read(), missing)


def _first_bytes(data: LineData, spans: Iterable[Span], most: int) -> bytes:
    """The first ``most`` bytes of ``spans`` of ``data`` one after the other."""
    taken = bytearray()
    for start, end in spans:
        taken += data[start : min(end, start + most - len(taken))]
        if len(taken) >= most:
            break
    return bytes(taken)


def _cut_point(buffer: bytearray, reach: int) -> int:
    """Where a window of ``buffer`` may end: before its last line that stands alone.

    The line at the cut must be complete (it is read to know whether it follows the line
    before it) and end at ``reach`` at the latest; 0 when there is no such line yet.
    """
    end = buffer.rfind(b"\n", 0, reach)  # the end of the last complete line
    while end > 0:
        start = buffer.rfind(b"\n", 0, end) + 1
        if start == 0:
            return 0
        if ends_protected_context(buffer, start):
            return start
        end = start - 1
    return 0


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
