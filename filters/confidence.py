"""How sure a filter stage is that its output is faithful to its input."""

from __future__ import annotations

import enum
from collections.abc import Iterable

__all__ = ["FilterConfidence", "worst_confidence"]


class FilterConfidence(str, enum.Enum):
    """A stage's confidence in its output.

    ``full``: the filter understood the output; ``partial``: a heuristic, lossy reduction;
    ``fallback``: passed through, the structure was not recognised.
    """

    FULL = "full"
    PARTIAL = "partial"
    FALLBACK = "fallback"

    @property
    def rank(self) -> int:
        """Badness order: 0 for full, 1 for partial, 2 for fallback."""
        return _RANK[self]


_RANK = {FilterConfidence.FULL: 0, FilterConfidence.PARTIAL: 1, FilterConfidence.FALLBACK: 2}


def worst_confidence(levels: Iterable[FilterConfidence]) -> FilterConfidence | None:
    """The worst of several confidences (fallback < partial < full).

    :param levels: the confidences of a pipeline's stages.
    :returns: the worst one, or ``None`` when ``levels`` is empty.
    """
    worst: FilterConfidence | None = None
    for level in levels:
        if worst is None or level.rank > worst.rank:
            worst = level
    return worst
