"""``strip_noise``: drop every line matching one of the noise patterns."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.line_view import line_data_pieces
from tooldeck.filters.must_keep import ListingCount, must_keep_classifier
from tooldeck.filters.noise_cut import WINDOW, NoiseCut
from tooldeck.filters.omissions import noise_notice
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.sanitize import sanitized_line_data
from tooldeck.filters.spans import LineData
from tooldeck.filters.strategy import Reduction, StageResult, Strategy, StrategyParams
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

        The text goes through the chunked core (:class:`~tooldeck.filters.noise_cut.NoiseCut`)
        a megabyte at a time: what is alive is the text, the kept lines and one or two windows.

        :param clean: sanitized output.
        :param exit_code: unused.
        :returns: the reduction.
        """
        if not clean:
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        listing = functools.partial(_listing_of, line_data_pieces(clean))
        return self._cut(line_data_pieces(clean), listing, clean)

    def apply(self, raw: str, exit_code: int | None = None) -> StageResult:
        """:meth:`Strategy.apply`, the text sanitized and cut a piece at a time.

        The sanitized text is never held whole (:class:`~tooldeck.filters.sanitize.
        SanitizeStream` feeds the chunked core): what is alive is the raw text, the kept lines
        and a few windows. Same result as sanitizing first and calling :meth:`reduce`.

        :param raw: the command output as captured.
        :param exit_code: unused.
        :returns: the stage result.
        """
        listing = functools.partial(_listing_of, sanitized_line_data(raw))
        reduction = self._cut(sanitized_line_data(raw), listing, None)
        return StageResult(reduction.text, reduction.confidence)

    def _cut(
        self,
        data: Iterable[bytes],
        listing: Callable[[], Sequence[LineMatcher]],
        clean: str | None,
    ) -> Reduction:
        """Cut line data given in pieces; ``clean``: the text, when the caller holds it."""
        cut = NoiseCut(self._noise, listing, window=WINDOW)
        kept = bytearray()
        for piece in data:
            kept += cut.feed(piece)
        kept += cut.finish()
        if not cut.removed:
            if clean is None:  # (the kept lines are the text and its added newline)
                clean = kept[:-1].decode("utf-8", "surrogatepass")
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        marker = noise_notice(cut.removed, cut.first)
        if len(kept) <= 1:  # nothing kept but at most one empty line: the marker alone
            return Reduction(marker, FilterConfidence.FULL, must_keep_checked=True)
        # the kept lines end with a newline: the marker goes after them, decoded in one go
        kept += marker.encode("utf-8", "surrogatepass")
        text = kept.decode("utf-8", "surrogatepass")
        return Reduction(text, FilterConfidence.FULL, must_keep_checked=True)

    def stream(
        self, clean: Iterable[LineData], write: Callable[[bytes], object]
    ) -> FilterConfidence:
        """:meth:`reduce` on a text arriving in pieces, its output written as it becomes final.

        Memory stays about two windows (:data:`~tooldeck.filters.noise_cut.WINDOW`) whatever
        the text's length, except while a window must wait for a fact of the whole text
        (:mod:`tooldeck.filters.noise_cut`).

        :param clean: the sanitized text's UTF-8 bytes, in pieces of any size (no newline
            added after its last line).
        :param write: called with the output's UTF-8 bytes, piece by piece, in order; the
            pieces together are the text :meth:`reduce` gives.
        :returns: the confidence :meth:`reduce` gives.
        """
        cut = NoiseCut(self._noise, window=WINDOW)  # the listing kinds counted as pieces come
        kept = _KeptWriter(write)
        for piece in clean:
            kept.add(cut.feed(piece))
        if not cut.fed:
            return FilterConfidence.FALLBACK
        kept.add(cut.feed(b"\n"))
        kept.add(cut.finish())
        if not cut.removed:  # everything was written but the added newline: the text itself
            return FilterConfidence.FALLBACK
        kept.end(noise_notice(cut.removed, cut.first).encode("utf-8", "surrogatepass"))
        return FilterConfidence.FULL


class _KeptWriter:
    """Writes the kept lines as they come, all but their last newline until the text ends.

    That newline ends the text's added last line when nothing is removed, and the notice
    stands alone when at most one empty line is kept: both are known only at the end.
    """

    def __init__(self, write: Callable[[bytes], object]) -> None:
        self._write = write
        self._held = b""
        self._size = 0

    def add(self, kept: bytearray) -> None:
        """Write the kept lines but the last newline (held back in its place)."""
        if kept:
            self._size += len(kept)
            self._write(self._held + kept[:-1])
            self._held = bytes(kept[-1:])

    def end(self, notice: bytes) -> None:
        """Write the held newline and the notice (the notice alone after at most one byte)."""
        self._write(notice if self._size <= 1 else self._held + notice)


def _listing_of(data: Iterable[bytes]) -> tuple[LineMatcher, ...]:
    """The listing kinds protected in the line data ``data``, counted piece by piece."""
    count = ListingCount(must_keep_classifier())
    for piece in data:
        count.add(piece)
    return count.short()
