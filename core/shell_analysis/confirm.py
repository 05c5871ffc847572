r"""Confirm patterns: substrings that make a command need a human "yes".

A pattern (lowercase) is looked for in three views of the command, first hit in pattern order:

| view                           | catches                                               |
| ------------------------------ | ----------------------------------------------------- |
| the raw command, lowercased    | Zeph's behaviour (``DROP TABLE users``, ``$(``, ``` ` ```) |
| :func:`.deobfuscate` of it     | ``\x72m x``, ``'r''m' x``                             |
| each segment's words, joined   | resolved quoting and nesting (``r\m x``, ``sh -c 'rm x'``) |

A pattern starting with a letter or digit must start a word: the character before it may not
be a letter, digit, ``_``, ``-`` or ``.``. So ``rm `` matches ``rm x`` and ``/bin/rm x`` but not
``terraform plan`` nor the option in ``docker run --rm img``; ``eval `` does not match
``medieval x``. (Zeph's plain substring test asks for all of these.)

Each pattern set is compiled once into one regular expression (each pattern escaped, the
word-start rule as a look-behind); a command is searched with it once per distinct view, and
only a command that hits something is walked pattern by pattern to report the first one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.deobfuscate import deobfuscate
from tooldeck.shell_analysis.model import CommandAnalysis

__all__ = ["DEFAULT_CONFIRM_PATTERNS", "contains_pattern", "find_confirm"]

DEFAULT_CONFIRM_PATTERNS: tuple[str, ...] = (
    "rm ",
    "git push -f",
    "git push --force",
    "drop table",
    "drop database",
    "truncate ",
    "$(",
    "`",
    "<(",
    ">(",
    "<<<",
    "eval ",
)
"""Zeph's default confirm patterns."""


def contains_pattern(text: str, pattern: str) -> bool:
    """Test one lowercase pattern against one lowercase text, with the word-start rule.

    :param text: the lowercase view of the command.
    :param pattern: the lowercase pattern.
    :returns: whether the pattern occurs (starting a word when it starts with a word character,
        see the module docstring).
    """
    if not pattern:
        return False
    needs_boundary = pattern[0].isalnum() or pattern[0] == "_"
    start = text.find(pattern)
    while start >= 0:
        before = text[start - 1] if start else " "
        if not needs_boundary or not (before.isalnum() or before in "_-."):
            return True
        start = text.find(pattern, start + 1)
    return False


# the word-start rule of contains_pattern: in a str pattern, \w is str.isalnum() plus "_"
_NOT_AFTER_WORD = r"(?<![\w.\-])"


@functools.lru_cache(maxsize=64)
def _any_pattern(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    """One expression that matches where :func:`contains_pattern` holds for some pattern."""
    parts = []
    for pattern in patterns:
        needle = pattern.lower()
        if needle:
            boundary = needle[0].isalnum() or needle[0] == "_"
            parts.append((_NOT_AFTER_WORD if boundary else "") + re.escape(needle))
    return re.compile("|".join(parts)) if parts else None


def find_confirm(
    command: str, analysis: CommandAnalysis, patterns: Sequence[str] = DEFAULT_CONFIRM_PATTERNS
) -> str | None:
    """Return the first confirm pattern the command hits.

    :param command: the raw command.
    :param analysis: its analysis (for the segment view).
    :param patterns: confirm patterns, e.g. :data:`DEFAULT_CONFIRM_PATTERNS`.
    :returns: the pattern as configured, or ``None``.
    """
    any_pattern = _any_pattern(tuple(patterns))
    if any_pattern is None:
        return None
    views = dict.fromkeys([command.lower(), deobfuscate(command).lower()])
    views.update(dict.fromkeys(" ".join(w.value for w in s.words).lower()
                               for s in analysis.segments))
    if not any(any_pattern.search(view) for view in views):
        return None
    for pattern in patterns:
        needle = pattern.lower()
        if any(contains_pattern(view, needle) for view in views):
            return pattern
    return None
