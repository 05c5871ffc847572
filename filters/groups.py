"""The first lines of each group of a listing: a search's first matches in every file.

A match list (``grep -rn``, ``rg`` without headings, ``git grep -n``) names its file on every
line. A reader of a long one needs to know which files matched, how often, and what the
matches look like: the first lines of each file's run are kept, and the rest of the run
becomes one omission with its exact count (``… 19 lines like "starlette/routing.py:…"
omitted``), written by the generic reduction like any other omitted stretch.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tooldeck.filters.patterns import PatternError, Regex, compile_pattern

__all__ = ["GroupHeads", "compile_group", "group_heads"]


def compile_group(pattern: str) -> Regex:
    """Compile a group pattern (RE2), which must capture the group's key.

    :param pattern: the pattern.
    :returns: the compiled pattern.
    :raises PatternError: when it is not valid RE2 or has no capture group.
    """
    regex = compile_pattern(pattern, label="group pattern")
    if regex.groups < 1:
        raise PatternError(f"group pattern {pattern!r} has no capture group (the group's key)")
    return regex


@dataclasses.dataclass(frozen=True)
class GroupHeads:
    """The lines taken from the groups of an output.

    :param taken: the numbers of the first lines of each group's run.
    :param grouped: whether most lines that hold text belong to a group (a match list,
        not a listing that happens to hold a few such lines).
    """

    taken: set[int]
    grouped: bool


def group_heads(lines: Sequence[str], regex: Regex, head: int) -> GroupHeads:
    """The first ``head`` lines of each group.

    A line's group is the first capture group of ``regex`` (searched in the line); a line
    the pattern does not match belongs to no group and is not taken. A group starts over
    when its key comes back after another group (a file listed twice is two runs).

    :param lines: the output's lines.
    :param regex: the compiled group pattern (:func:`compile_group`): its first capture
        group is the group's key (the file name).
    :param head: lines taken from the start of each group's run.
    :returns: the lines taken, and whether the output is grouped.
    """
    taken: set[int] = set()
    current: str | None = None
    seen = keyed = text = 0
    for index, line in enumerate(lines):
        if line.strip():
            text += 1
        match = regex.search(line)
        if match is None:
            continue
        keyed += 1
        key = match.group(1)
        if key != current:
            current, seen = key, 0
        if seen < head:
            taken.add(index)
            seen += 1
    return GroupHeads(taken, keyed * 2 > text)
