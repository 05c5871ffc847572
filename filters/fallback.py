"""``fallback``: the generic reduction for outputs no rule knows, and the last stage of every rule.

On sanitized text (ANSI escapes and carriage-return progress already gone):

1. **Runs of lines of one shape** are folded: lines whose first word is the same once digits
   are masked (``Collecting x``, ``Collecting y``…; ``tests/a.py::t[1] PASSED``…) keep their
   first and last line, and the lines between become one line stating the exact count and
   what they were: ``… 214 lines like "Collecting …" omitted``.
2. **A long middle** is elided: past ``max_lines`` lines, the first ``head`` and last ``tail``
   lines stay, and each stretch in between becomes ``… N lines omitted, like "…" …``; lines
   that open a section (flush left after indented lines, as the roots of a ``tree`` listing)
   stay when there are few of them.
3. **Protected lines** (:mod:`tooldeck.filters.must_keep`) are never folded nor elided.
4. **Diffs** (a ``diff --git`` or ``@@`` hunk header) are not folded: whole hunks are dropped
   from the middle, with counts; in a hunk longer than the budget, each long run of removed,
   added or context lines keeps its two ends and states how many lines it lost. Kept lines
   are never reshaped.

Outputs of at most ``max_lines`` lines (or fewer than ``min_lines``) come back unchanged: the
fallback only shortens what is still long. Confidence: Fallback.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import must_keep_line_numbers
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams
from tooldeck.filters.tables import Ge

__all__ = ["Fallback", "FallbackParams", "fold_marker", "omitted_marker"]

_DIGITS = re.compile(r"\d+")
_HUNK = re.compile(r"^(?:diff --git |@@ -\d)")
_EXAMPLE_CHARS = 72


@dataclasses.dataclass(frozen=True, kw_only=True)
class FallbackParams(StrategyParams):
    """Parameters of ``fallback``.

    :param min_lines: outputs of fewer lines pass unchanged.
    :param max_lines: after folding, outputs of at most this many lines keep their middle.
    :param head: lines kept from the start when the middle is elided.
    :param tail: lines kept from the end when the middle is elided.
    :param min_run: the shortest run of same-shape lines that is folded.
    """

    min_lines: Annotated[int, Ge(1)] = 20
    max_lines: Annotated[int, Ge(2)] = 60
    head: Annotated[int, Ge(1)] = 20
    tail: Annotated[int, Ge(1)] = 20
    min_run: Annotated[int, Ge(3)] = 4

    def __post_init__(self) -> None:
        if self.head + self.tail > self.max_lines:
            raise ValueError(
                f"head ({self.head}) + tail ({self.tail}) must not exceed"
                f" max_lines ({self.max_lines})"
            )


def _example(lines: list[str]) -> str:
    """The words all ``lines`` start with, or the first line, cut to a readable length."""
    first, last = lines[0], lines[-1]
    common = 0
    for left, right in zip(first, last, strict=False):
        if left != right:
            break
        common += 1
    prefix = first[:common]
    if common < len(first):
        prefix = prefix[: prefix.rfind(" ") + 1] if " " in prefix.strip() else ""
    text = prefix.strip() + " …" if prefix.strip() else first.strip()
    return text if len(text) <= _EXAMPLE_CHARS else text[: _EXAMPLE_CHARS - 1] + "…"


def fold_marker(lines: list[str]) -> str:
    """The line replacing a folded run of same-shape lines.

    :param lines: the omitted lines.
    :returns: e.g. ``… 214 lines like "Collecting …" omitted``.
    """
    return f'… {len(lines)} lines like "{_example(lines)}" omitted'


def omitted_marker(lines: list[str], what: str = "lines") -> str:
    """The line replacing an elided stretch.

    :param lines: the omitted lines.
    :param what: what they are, plural.
    :returns: e.g. ``… 120 lines omitted, like "Downloading …" …``.
    """
    example = lines[0].strip() or (lines[1].strip() if len(lines) > 1 else "")
    if len(example) > _EXAMPLE_CHARS:
        example = example[: _EXAMPLE_CHARS - 1] + "…"
    return f'… {len(lines)} {what} omitted, like "{example}" …'


_AFTER_FIRST_WORD = re.compile(r"(?<=\S)[ \t\f\v].*$", re.MULTILINE)
_HEAD_CUT = re.compile(r"(?<=\S)(?:::|[\[(]).*$", re.MULTILINE)
_DEEP_INDENT = re.compile(r"^[ \t\f\v]{9,}", re.MULTILINE)
_BLANK_HEAD = re.compile(r"^[ \t\f\v]+$", re.MULTILINE)


def _shapes(text: str) -> list[str]:
    """The shape of every line: indentation (up to 8) and first word, digits masked.

    The word is cut at ``::``, ``[`` or ``(`` (not at its first character); a blank line has
    the empty shape. Whole-text substitutions, one result per line of ``text``.
    """
    heads = _AFTER_FIRST_WORD.sub("", text)
    heads = _HEAD_CUT.sub("", heads)
    heads = _DEEP_INDENT.sub(" " * 8, heads)
    heads = _BLANK_HEAD.sub("", heads)
    return _DIGITS.sub("#", heads).split("\n")


# An item of the folded text: a line kept as is, or a marker standing for omitted lines.
_Item = tuple[str, list[str] | None, bool]  # (text, omitted lines or None, protected)


def _fold(lines: list[str], shapes: list[str], protected: set[int], min_run: int) -> list[_Item]:
    items: list[_Item] = []
    index = 0
    count = len(lines)
    while index < count:
        if index in protected:
            items.append((lines[index], None, True))
            index += 1
            continue
        shape = shapes[index]
        end = index + 1
        while end < count and end not in protected and shapes[end] == shape:
            end += 1
        if shape and end - index >= min_run:
            hidden = lines[index + 1 : end - 1]
            items.append((lines[index], None, False))
            items.append((fold_marker(hidden), hidden, False))
            items.append((lines[end - 1], None, False))
        else:
            items.extend((line, None, False) for line in lines[index:end])
        index = end
    return items


_MIN_ELIDED = 3
"""A stretch of fewer lines is kept: its marker would be no shorter than the lines."""


def _elide(items: list[_Item], head: int, tail: int, what: str = "lines") -> list[str]:
    kept: list[str] = []
    pending: list[_Item] = []

    def flush() -> None:
        lines = [line for text, hidden, _ in pending for line in (hidden or [text])]
        if len(lines) < _MIN_ELIDED:
            kept.extend(text for text, _, _ in pending)
        else:
            kept.append(omitted_marker(lines, what))
        pending.clear()

    last = len(items) - tail
    for position, item in enumerate(items):
        if position < head or position >= last or item[2]:
            flush()
            kept.append(item[0])
        else:
            pending.append(item)
    flush()
    return kept


_MAX_HEADINGS = 24


def _headings(lines: list[str]) -> set[int]:
    """Lines that open a section: flush left, after an indented or tree-drawn line.

    ``/usr/include/linux`` between two ``tree`` listings, a module header between indented
    log lines. When there are more than :data:`_MAX_HEADINGS` such lines the output has no
    outline, and none is kept.
    """
    found: set[int] = set()
    for index in range(1, len(lines)):
        line, previous = lines[index], lines[index - 1]
        flush_left = line[:1].isalnum() or line[:1] in "/.~"
        after_indent = previous[:1] in " \t" or (previous[:1] and not previous[:1].isascii())
        if flush_left and after_indent:
            found.add(index)
            if len(found) > _MAX_HEADINGS:
                return set()
    return found


def _hunks(lines: list[str]) -> list[tuple[int, int]]:
    """``(start, end)`` line ranges: the preamble, then one range per file header or hunk."""
    starts = [0] + [i for i, line in enumerate(lines) if i and _HUNK.match(line)]
    ends = [*starts[1:], len(lines)]
    return [(start, end) for start, end in zip(starts, ends, strict=True) if end > start]


def _cut_hunk(hunk: list[str], start: int, protected: set[int], keep: int) -> list[str]:
    """Shorten each long run of same-marker lines (``-``, ``+``, context) to its two ends."""
    kept: list[str] = []
    index = 0
    while index < len(hunk):
        marker = hunk[index][:1]
        end = index + 1
        while end < len(hunk) and hunk[end][:1] == marker:
            end += 1
        run = hunk[index:end]
        if len(run) <= 2 * keep + 1 or index == 0:
            kept.extend(run)
        else:
            items: list[_Item] = [
                (line, None, (start + index + offset) in protected)
                for offset, line in enumerate(run)
            ]
            what = {"-": "removed lines", "+": "added lines"}.get(marker, "context lines")
            kept.extend(_elide(items, keep, keep, what))
        index = end
    return kept


def _cut_diff(lines: list[str], protected: set[int], params: FallbackParams) -> list[str]:
    """Keep whole hunks while short; cut long ones per run; then drop middle hunks, counted."""
    kept: list[str] = []
    for start, end in _hunks(lines):
        hunk = lines[start:end]
        if end - start <= params.max_lines:
            kept.extend(hunk)
        else:
            kept.extend(_cut_hunk(hunk, start, protected, params.head // 2))
    if len(kept) <= params.max_lines * 4:
        return kept
    ranges = _hunks(kept)
    chosen: set[tuple[int, int]] = set()
    used = 0
    for left, right in zip(ranges, reversed(ranges), strict=True):
        if used >= params.max_lines * 2:
            break
        for hunk_range in (left, right):
            if hunk_range not in chosen:
                chosen.add(hunk_range)
                used += hunk_range[1] - hunk_range[0]
    result: list[str] = []
    cursor = 0
    for start, end in sorted(chosen):
        if start > cursor:
            result.append(_hunks_marker(kept[cursor:start]))
        result.extend(kept[start:end])
        cursor = end
    if cursor < len(kept):
        result.append(_hunks_marker(kept[cursor:]))
    return result


def _hunks_marker(lines: list[str]) -> str:
    hunks = sum(1 for line in lines if line.startswith("@@"))
    files = sum(1 for line in lines if line.startswith("diff --git "))
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    return (
        f"… {len(lines)} lines omitted: {files} files, {hunks} hunks,"
        f" {added} added and {removed} removed lines …"
    )


class Fallback(Strategy[FallbackParams]):
    """Folds same-shape runs and elides long middles, keeping every protected line."""

    name = "fallback"
    Params = FallbackParams

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Reduce ``clean`` when it is long enough.

        :param clean: sanitized output.
        :param exit_code: unused.
        :returns: the reduction (protected lines are kept by construction).
        """
        params = self.params
        lines = clean.split("\n")
        if len(lines) < params.min_lines or len(lines) <= params.max_lines:
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        protected = must_keep_line_numbers(clean)
        if any(_HUNK.match(line) for line in lines[:400]) and any(
            line.startswith("@@ ") for line in lines
        ):
            kept = _cut_diff(lines, protected, params)
        else:
            shapes = _shapes(clean)
            items = _fold(lines, shapes, protected | _headings(lines), params.min_run)
            if len(items) <= params.max_lines:
                kept = [text for text, _, _ in items]
            else:
                kept = _elide(items, params.head, params.tail)
        return Reduction("\n".join(kept), FilterConfidence.FALLBACK, must_keep_checked=True)
