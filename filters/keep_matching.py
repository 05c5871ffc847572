"""``keep_matching``: keep only the lines matching one of the patterns."""

from __future__ import annotations

import dataclasses
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import must_keep_classifier
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.selection import (
    as_line_data,
    complement,
    from_line_data,
    join_spans,
    union,
)
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams
from tooldeck.filters.tables import MinLen

__all__ = ["KeepMatching", "KeepMatchingParams"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class KeepMatchingParams(StrategyParams):
    """Parameters of ``keep_matching``.

    :param patterns: RE2 patterns; a line matching any of them is kept (at least one).
    """

    patterns: Annotated[list[str], MinLen(1)]


class KeepMatching(Strategy[KeepMatchingParams]):
    """Keep matching lines and must-keep lines, drop the rest.

    Full when some line matched (the output ends with ``(N other lines omitted)`` when lines were
    dropped); Fallback with the text unchanged when nothing matched.
    """

    name = "keep_matching"
    Params = KeepMatchingParams

    def __init__(self, params: KeepMatchingParams) -> None:
        super().__init__(params)
        self._wanted = LineMatcher(params.patterns, label="keep_matching pattern")

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Keep the matching lines of ``clean``.

        :param clean: sanitized output.
        :param exit_code: unused.
        :returns: the reduction.
        """
        if not clean:
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        data = as_line_data(clean)
        wanted = self._wanted.line_runs(data)
        if not wanted:
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        dropped = complement(wanted, len(data))
        kept_spans = union(wanted, must_keep_classifier().line_runs_within(data, dropped))
        kept = join_spans(data, kept_spans)
        omitted = data.count(b"\n") - kept.count(b"\n")
        text = from_line_data(kept)
        if omitted:
            text += f"\n({omitted} other lines omitted)"
        return Reduction(text, FilterConfidence.FULL, must_keep_checked=True)
