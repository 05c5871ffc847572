"""Lines that say again what the line before said: near-identical runs and repeated blocks.

Any tool prints the same thing over and over with other particulars: one progress line per
file, one ``Downloading x (12 kB)`` per package, the same two-line frame of a stack trace per
call, the same four-line block per package. Those lines differ only by what
:func:`line_shape` masks — numbers, hex ids and hashes, durations, sizes, percentages,
versions, timestamps and paths — and the reader learns what they are from one of them and
how many there were. Two classes are folded:

- a **run** of at least :data:`RUN` consecutive lines of one shape keeps its first line; the
  others become one omission line with their exact count and an example
  (:func:`tooldeck.filters.omissions.render`);
- a **block** of 2 to :data:`LONGEST_BLOCK` lines whose shapes repeat at least
  :data:`BLOCKS` times in a row keeps its first occurrence; the other occurrences are counted
  the same way.

A protected line (:mod:`tooldeck.filters.must_keep`) is never folded: the text around it is.
The engine folds a failed command's output that no rule knows with these classes alone
(:func:`fold_repeats`): every line that is not a repeat of one shown stays, whatever its
vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from tooldeck.filters.must_keep import must_keep_line_numbers
from tooldeck.filters.omissions import render

__all__ = ["BLOCKS", "LONGEST_BLOCK", "RUN", "fold_repeats", "folded_lines", "line_shape"]

RUN = 4
"""Consecutive lines of one shape folded (the first kept)."""

BLOCKS = 3
"""Consecutive occurrences of one block shape folded (the first kept)."""

LONGEST_BLOCK = 6
"""Lines in the longest repeated block looked for."""

_PARTICULARS = re.compile(
    r"\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?"  # timestamps
    r"|\b\d\d?:\d\d(?::\d\d(?:[.,]\d+)?)?\b"  # times of day, elapsed times
    r"|[\w.~@+-]*(?:[/\\][\w.~@+-]+)+[/\\]?"  # paths (and URLs' paths)
    r"|\b0x[0-9a-fA-F]+\b|\b[0-9a-f]*\d[0-9a-f]*[a-f][0-9a-f]*\b"  # hex ids, hashes
    r"|\bv?\d+(?:[.,_]\d+)*(?:[-+~.]?[A-Za-z]+\d*)*"  # numbers, versions, durations, sizes
    r"(?:\s?(?:%|[kKMGT]i?B\b|B\b|bytes\b|ms\b|[uµn]s\b|s\b|[mh]\b))?"
)
"""What differs between lines that say the same thing."""

_SHAPE_CHARS = 160
"""Characters of a line its shape is read from (a run of long lines is a run by its start)."""


def line_shape(line: str) -> str:
    """A line with its particulars masked: what it says once they are taken out.

    :param line: one line.
    :returns: e.g. ``Downloading # (#)`` for ``Downloading idna-3.7-py3-none-any.whl (66 kB)``
        (paths, numbers, hashes, durations, sizes, versions and timestamps each become ``#``).
    """
    return _PARTICULARS.sub("#", line[:_SHAPE_CHARS].rstrip())


def folded_lines(lines: list[str], protected: Collection[int]) -> set[int]:
    """The numbers of the lines that repeat a shown line or block, protected ones excepted.

    :param lines: the output's lines.
    :param protected: numbers of lines never folded.
    :returns: the lines to leave out (each stretch becomes one counted omission line).
    """
    shapes = [line_shape(line) if line.strip() else "" for line in lines]
    folded: set[int] = set()
    index = 0
    while index < len(lines):
        span = _run(shapes, index) or _blocks(shapes, index)
        if span is None:
            index += 1
            continue
        first, end = span
        folded.update(number for number in range(first, end) if number not in protected)
        index = end
    return folded


def _run(shapes: list[str], start: int) -> tuple[int, int] | None:
    """``(first folded, end)`` of a run of one shape opening at ``start``, else ``None``."""
    shape = shapes[start]
    if not shape:
        return None
    end = start + 1
    while end < len(shapes) and shapes[end] == shape:
        end += 1
    return (start + 1, end) if end - start >= RUN else None


def _blocks(shapes: list[str], start: int) -> tuple[int, int] | None:
    """``(first folded, end)`` of the longest repeated block opening at ``start``."""
    best: tuple[int, int] | None = None
    for size in range(2, LONGEST_BLOCK + 1):
        block = shapes[start : start + size]
        if len(block) < size or not block[0] or len(set(block)) == 1:
            continue
        end = start + size
        while shapes[end : end + size] == block:
            end += size
        if (end - start) // size >= BLOCKS and (best is None or end > best[1]):
            best = (start + size, end)
    return best


def fold_repeats(text: str) -> str:
    """``text`` with its near-identical runs and repeated blocks folded, nothing else cut.

    :param text: sanitized output.
    :returns: the folded text (``text`` itself when nothing repeats).
    """
    lines = text.split("\n")
    folded = folded_lines(lines, must_keep_line_numbers(text))
    if not folded:
        return text
    keep = set(range(len(lines))) - folded
    return "\n".join(render(lines, keep))
