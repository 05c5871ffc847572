"""``strip_annotated``: drop annotated noise (cargo's ``Compiling …``), lead with a summary line."""

from __future__ import annotations

import dataclasses
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import must_keep_classifier
from tooldeck.filters.omissions import noise_notice
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.selection import (
    as_line_data,
    complement,
    from_line_data,
    join_spans,
    line_count,
    subtract,
    truncate_middle,
    union,
)
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams
from tooldeck.filters.tables import Ge, MinLen

__all__ = ["StripAnnotated", "StripAnnotatedParams"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class StripAnnotatedParams(StrategyParams):
    """Parameters of ``strip_annotated``.

    :param patterns: RE2 patterns marking noise lines (at least one).
    :param summary_pattern: a pattern marking the summary line, which is moved to the top.
    :param long_output_threshold: kept lines beyond this count are truncated.
    :param keep_head: lines kept from the start when truncating.
    :param keep_tail: lines kept from the end when truncating.
    """

    patterns: Annotated[list[str], MinLen(1)]
    summary_pattern: str | None = None
    long_output_threshold: Annotated[int, Ge(0)] = 30
    keep_head: Annotated[int, Ge(0)] = 10
    keep_tail: Annotated[int, Ge(0)] = 5


class StripAnnotated(Strategy[StripAnnotatedParams]):
    """Remove annotated noise, lead with the summary line and the count of removed lines.

    Full when noise was removed. Without noise: a failed command passes unchanged (Fallback), a
    long output is truncated (Partial), a short one passes unchanged (Fallback).
    """

    name = "strip_annotated"
    Params = StripAnnotatedParams

    def __init__(self, params: StripAnnotatedParams) -> None:
        super().__init__(params)
        self._noise = LineMatcher(params.patterns, label="strip_annotated pattern")
        self._summary = (
            LineMatcher([params.summary_pattern], label="summary_pattern")
            if params.summary_pattern is not None
            else None
        )

    def _shorten(self, data: bytes) -> str | None:
        lines = data.count(b"\n")
        head, tail = self.params.keep_head, self.params.keep_tail
        if lines > self.params.long_output_threshold and head + tail < lines:
            return truncate_middle(data, head, tail)
        return None

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Strip the annotated noise of ``clean``.

        :param clean: sanitized output.
        :param exit_code: the command's exit code; a failure disables truncation of clean output.
        :returns: the reduction.
        """
        if not clean:
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        data = as_line_data(clean)
        summary_runs = self._summary.line_runs(data) if self._summary else []
        noise = union(self._noise.line_runs(data), summary_runs)
        must_keep = must_keep_classifier().line_runs_within(data, noise)
        summary_runs = subtract(summary_runs, must_keep)
        noise = subtract(noise, must_keep)
        if not noise:
            shortened = None if exit_code not in (None, 0) else self._shorten(data)
            if shortened is None:
                return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
            return Reduction(shortened, FilterConfidence.PARTIAL, must_keep_checked=True)
        parts: list[str] = []
        if summary_runs:
            last_start, last_end = summary_runs[-1]
            summary = data[last_start : last_end - 1].rsplit(b"\n", 1)[-1]
            parts.append(summary.decode("utf-8", "surrogatepass").lstrip())
        first = next(
            (line for start, end in noise for line in from_line_data(data[start:end]).split("\n")
             if line.strip()),
            "",
        )
        parts.append(noise_notice(line_count(data, noise), first))
        kept = join_spans(data, complement(noise, len(data)))
        if kept:
            shortened = self._shorten(kept)
            parts.append("")
            parts.append(shortened if shortened is not None else from_line_data(kept))
        text = "\n".join(parts).rstrip("\n")
        return Reduction(text, FilterConfidence.FULL, must_keep_checked=True)
