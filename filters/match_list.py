"""Whether an output is a match list: a search's hits, each line naming its file and line.

``grep -rn``, ``rg -n`` without headings, ``git grep -n`` and their ``-C``/``-A``/``-B``
context print one hit a line, ``path:line:text`` (a context line ``path-line-text``, groups
apart by ``--``). The text after the place is the searched file's, not the tool's report: an
``error`` or ``Exception`` there says nothing about the run. Such an output is data — what
the model asked to see — even when no rule knows the command.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["is_match_list"]

_ENTRY = re.compile(r"[^\s:]+(?::\d+[:-]|-\d+-)|--$")
"""A hit (``path:12:``, ``path:12-``), a context line (``path-12-``), a group separator."""

_SAMPLE = 100
"""Lines read at each end: a match list is one shape from its first line to its last."""

SHARE = 0.9
"""The share of the sampled lines holding text that must be entries."""

_FEWEST = 5
"""Fewer entries than this are no list."""


def is_match_list(lines: Sequence[str]) -> bool:
    """Whether ``lines`` are a search's hits, read from their first and last lines.

    :param lines: the output's lines.
    :returns: ``True`` when at least :data:`SHARE` of the sampled lines that hold text are
        hits, context lines or group separators (and there are a few).
    """
    sample = lines if len(lines) <= 2 * _SAMPLE else [*lines[:_SAMPLE], *lines[-_SAMPLE:]]
    texts = [line for line in sample if line.strip()]
    entries = sum(1 for line in texts if _ENTRY.match(line))
    return entries >= _FEWEST and entries >= SHARE * len(texts)
