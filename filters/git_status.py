"""``git_status``: count changed files by kind (short and long ``git status`` formats)."""

from __future__ import annotations

import dataclasses
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams
from tooldeck.filters.tables import Ge

__all__ = ["GitStatus", "GitStatusParams", "status_code"]

_SHORT_CODES = (("MM", "M"), ("M ", "M"), ("AM", "A"), ("A ", "A"), ("D ", "D"), ("??", "??"))
_LONG_CODES = (("modified:", "M"), ("new file:", "A"), ("deleted:", "D"))
_BRANCH_PREFIXES = ("On branch ", "## ", "HEAD detached ")


def status_code(line: str) -> tuple[str, str] | None:
    """The change kind (``M``, ``A``, ``D``, ``??``) and path of one status line.

    The line is trimmed first, so `` M file`` counts as modified.

    :param line: a line of ``git status`` or ``git status --short`` output.
    :returns: ``(kind, path)``, or ``None`` for other lines.
    """
    trimmed = line.strip()
    for prefix, kind in _SHORT_CODES:
        if trimmed.startswith(prefix):
            return kind, trimmed[len(prefix) :].strip()
    for prefix, kind in _LONG_CODES:
        if trimmed.startswith(prefix):
            return kind, trimmed[len(prefix) :].strip()
    return None


@dataclasses.dataclass(frozen=True, kw_only=True)
class GitStatusParams(StrategyParams):
    """Parameters of ``git_status``.

    :param list_files: also list the files (``KIND  path``) when at most this many changed.
    """

    list_files: Annotated[int, Ge(0)] = 0


class GitStatus(Strategy[GitStatusParams]):
    """``M  {m} files | A  {a} files | D  {d} files | ??  {u} files`` after the branch line.

    Long-format output counts the tab-indented paths under ``Untracked files:`` as untracked.

    Full when a change was counted; Fallback (unchanged) otherwise, e.g. "nothing to commit".
    """

    name = "git_status"
    Params = GitStatusParams

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Count the changes listed in ``clean``.

        :param clean: sanitized output.
        :param exit_code: unused.
        :returns: the reduction.
        """
        counts = {"M": 0, "A": 0, "D": 0, "??": 0}
        files: list[str] = []
        branch: str | None = None
        untracked_section = False
        for line in clean.split("\n"):
            if branch is None and line.startswith(_BRANCH_PREFIXES):
                branch = line
                continue
            if line.startswith("Untracked files:"):
                untracked_section = True
                continue
            if untracked_section:
                if line.startswith("\t"):
                    counts["??"] += 1
                    files.append(f"??  {line.strip()}")
                    continue
                untracked_section = line.startswith("  (")  # the "(use git add …)" hint
            parsed = status_code(line)
            if parsed is not None:
                counts[parsed[0]] += 1
                files.append(f"{parsed[0]}  {parsed[1]}")
        if not files:
            return Reduction(clean, FilterConfidence.FALLBACK)
        out = [] if branch is None else [branch]
        out.append(" | ".join(f"{kind}  {count} files" for kind, count in counts.items()))
        if len(files) <= self.params.list_files:
            out += files
        return Reduction("\n".join(out), FilterConfidence.FULL)
