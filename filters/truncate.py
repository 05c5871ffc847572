"""``truncate``: keep the head and the tail of a long output (and every must-keep line)."""

from __future__ import annotations

import dataclasses
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.selection import as_line_data, truncate_middle
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams
from tooldeck.filters.tables import Ge

__all__ = ["Truncate", "TruncateParams"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class TruncateParams(StrategyParams):
    """Parameters of ``truncate``.

    :param max_lines: outputs of at most this many lines pass unchanged.
    :param head: lines kept from the start.
    :param tail: lines kept from the end.
    """

    max_lines: Annotated[int, Ge(1)]
    head: Annotated[int, Ge(0)] = 20
    tail: Annotated[int, Ge(0)] = 20

    def __post_init__(self) -> None:
        if self.head + self.tail > self.max_lines:
            raise ValueError(
                f"head ({self.head}) + tail ({self.tail}) must not exceed"
                f" max_lines ({self.max_lines})"
            )


class Truncate(Strategy[TruncateParams]):
    """Outputs longer than ``max_lines`` keep ``head`` + ``tail`` lines around omission markers.

    Partial when truncated, Fallback (unchanged) otherwise.
    """

    name = "truncate"
    Params = TruncateParams

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Truncate ``clean`` when it is too long.

        :param clean: sanitized output.
        :param exit_code: unused.
        :returns: the reduction.
        """
        data = as_line_data(clean) if clean else b""
        if data.count(b"\n") <= self.params.max_lines:
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        text = truncate_middle(data, self.params.head, self.params.tail)
        return Reduction(text, FilterConfidence.PARTIAL, must_keep_checked=True)
