"""``git_diff``: a per-file insertion/deletion summary of a unified diff."""

from __future__ import annotations

import dataclasses
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams
from tooldeck.filters.tables import Ge

__all__ = ["GitDiff", "GitDiffParams"]

_FILE_HEADER = "diff --git a/"


@dataclasses.dataclass(frozen=True, kw_only=True)
class GitDiffParams(StrategyParams):
    """Parameters of ``git_diff``.

    :param max_diff_lines: diffs longer than this say ``(truncated from N lines)``.
    """

    max_diff_lines: Annotated[int, Ge(1)] = 500


def _file_name(header: str) -> str:
    rest = header[len(_FILE_HEADER) :]
    cut = rest.find(" b/")
    return rest[:cut] if cut >= 0 else rest


class GitDiff(Strategy[GitDiffParams]):
    """One ``{file}    | +{added} -{deleted}`` line per file, then the totals line.

    Full when a ``diff --git`` header was found; Fallback (unchanged) otherwise.
    """

    name = "git_diff"
    Params = GitDiffParams

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Summarise the diff in ``clean``.

        :param clean: sanitized output.
        :param exit_code: unused.
        :returns: the reduction.
        """
        names: list[str] = []
        added: list[int] = []
        deleted: list[int] = []
        lines = clean.split("\n") if clean else []
        for line in lines:
            if line.startswith(_FILE_HEADER):
                names.append(_file_name(line))
                added.append(0)
                deleted.append(0)
            elif names and line.startswith("+") and not line.startswith("+++"):
                added[-1] += 1
            elif names and line.startswith("-") and not line.startswith("---"):
                deleted[-1] += 1
        if not names:
            return Reduction(clean, FilterConfidence.FALLBACK)
        out = [f"{name}    | +{a} -{d}" for name, a, d in zip(names, added, deleted, strict=True)]
        summary = (
            f"{len(names)} files changed, {sum(added)} insertions(+), {sum(deleted)} deletions(-)"
        )
        if len(lines) > self.params.max_diff_lines:
            summary += f" (truncated from {len(lines)} lines)"
        out.append(summary)
        return Reduction("\n".join(out), FilterConfidence.FULL)
