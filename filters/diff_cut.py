"""Diffs cut only between hunks, with counts: the part of ``fallback`` for unified diffs.

A diff is kept whole while short. Past the budget, a hunk longer than the budget keeps the two
ends of each long run of removed, added or context lines (``… 1490 removed lines omitted,
like "…" …``); past four budgets, whole hunks are dropped from the middle, counted (``… 812
lines omitted: 3 files, 9 hunks, 120 added and 95 removed lines …``). Kept lines are never
reshaped: a ``+``, ``-`` or leading space stays what git wrote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tooldeck.filters.omissions import omitted_marker

__all__ = ["cut_diff", "is_diff"]

_HUNK = re.compile(r"^(?:diff --git |@@ -\d)")

# An item of a run: a line, and whether it is protected.
_Item = tuple[str, bool]

_MIN_ELIDED = 3
"""A stretch of fewer lines is kept: its marker would be no shorter than the lines."""


def is_diff(lines: Sequence[str]) -> bool:
    """Whether ``lines`` hold a unified diff (a file or hunk header near the top, a hunk).

    :param lines: the lines of an output.
    :returns: ``True`` for a diff.
    """
    return any(_HUNK.match(line) for line in lines[:400]) and any(
        line.startswith("@@ ") for line in lines
    )


def _elide(items: list[_Item], keep: int, what: str) -> list[str]:
    """The first and last ``keep`` items, protected items, and markers for the rest."""
    kept: list[str] = []
    pending: list[str] = []

    def flush() -> None:
        if len(pending) < _MIN_ELIDED:
            kept.extend(pending)
        else:
            kept.append(omitted_marker(pending, what))
        pending.clear()

    last = len(items) - keep
    for position, (line, protected) in enumerate(items):
        if position < keep or position >= last or protected:
            flush()
            kept.append(line)
        else:
            pending.append(line)
    flush()
    return kept


def _hunks(lines: list[str]) -> list[tuple[int, int]]:
    """``(start, end)`` line ranges: the preamble, then one range per file header or hunk."""
    starts = [0] + [i for i, line in enumerate(lines) if i and _HUNK.match(line)]
    ends = [*starts[1:], len(lines)]
    return [(start, end) for start, end in zip(starts, ends, strict=True) if end > start]


def _cut_hunk(hunk: list[str], start: int, protected: set[int], keep: int) -> list[_Item]:
    """Shorten each long run of same-marker lines (``-``, ``+``, context) to its two ends."""
    kept: list[_Item] = []
    index = 0
    while index < len(hunk):
        marker = hunk[index][:1]
        end = index + 1
        while end < len(hunk) and hunk[end][:1] == marker:
            end += 1
        items = [
            (line, (start + index + offset) in protected)
            for offset, line in enumerate(hunk[index:end])
        ]
        if len(items) <= 2 * keep + 1 or index == 0:
            kept.extend(items)
        else:
            what = {"-": "removed lines", "+": "added lines"}.get(marker, "context lines")
            kept.extend((line, False) for line in _elide(items, keep, what))
        index = end
    return kept


def cut_diff(lines: list[str], protected: set[int], budget: int, keep: int) -> list[str]:
    """Keep whole hunks while short; cut long ones per run; then drop middle hunks, counted.

    :param lines: the lines of the diff.
    :param protected: numbers of the protected lines, which are never cut.
    :param budget: a hunk of at most this many lines stays whole; the output keeps whole
        hunks from both ends up to twice this many lines once it is over four times it.
    :param keep: lines kept at each end of a long run inside a hunk.
    :returns: the kept lines and markers.
    """
    kept: list[_Item] = []
    for start, end in _hunks(lines):
        if end - start <= budget:
            kept.extend((lines[index], index in protected) for index in range(start, end))
        else:
            kept.extend(_cut_hunk(lines[start:end], start, protected, keep))
    if len(kept) <= budget * 4:
        return [line for line, _ in kept]
    ranges = _hunks([line for line, _ in kept])
    chosen: set[tuple[int, int]] = set()
    used = 0
    for left, right in zip(ranges, reversed(ranges), strict=True):
        if used >= budget * 2:
            break
        for hunk_range in (left, right):
            if hunk_range not in chosen:
                chosen.add(hunk_range)
                used += hunk_range[1] - hunk_range[0]
    result: list[str] = []
    for hunk_range in ranges:
        items = kept[hunk_range[0] : hunk_range[1]]
        if hunk_range in chosen:
            result.extend(line for line, _ in items)
        else:
            result.extend(_outline(items))
    return result


def _outline(hunk: list[_Item]) -> list[str]:
    """A hunk (or a file's header lines) reduced to what names it and what it changes.

    The ``diff --git`` or ``@@`` header stays, the ``---``/``+++`` lines that name the file
    (the only name a diff not made by git has), every protected line (``ERROR: a.py
    Imports are incorrectly sorted`` between the files of ``isort --diff``), and the first
    and last lines of each run of removed or added lines; the rest is counted in markers,
    but for stretches of fewer than :data:`_MIN_ELIDED` lines (the middle of a run of three
    changed lines), which a marker would not shorten.
    """
    shown: list[str] = []
    hidden: list[str] = []
    previous = ""
    for position, (line, protected) in enumerate(hunk):
        marker = line[:1]
        following = hunk[position + 1][0][:1] if position + 1 < len(hunk) else ""
        file_line = line.startswith(("+++ ", "--- "))
        changed = marker in "+-" and not file_line
        ends_run = changed and (marker != previous or marker != following)
        header = position == 0 and (line.startswith("diff --git ") or line.startswith("@@"))
        if header or ends_run or protected or file_line:
            shown.extend(_counted(hidden))
            hidden = []
            shown.append(line)
        else:
            hidden.append(line)
        previous = marker
    shown.extend(_counted(hidden))
    return shown


def _counted(hidden: list[str]) -> list[str]:
    """The marker for ``hidden`` lines of an outlined hunk, or the lines when as short."""
    if len(hidden) < _MIN_ELIDED:
        return hidden
    return [_hunks_marker(hidden)]


def _hunks_marker(lines: list[str]) -> str:
    hunks = sum(1 for line in lines if line.startswith("@@"))
    files = sum(1 for line in lines if line.startswith("diff --git "))
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    return (
        f"… {len(lines)} lines omitted: {files} files, {hunks} hunks,"
        f" {added} added and {removed} removed lines …"
    )
