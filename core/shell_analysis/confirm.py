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
"""

from __future__ import annotations

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


def find_confirm(
    command: str, analysis: CommandAnalysis, patterns: Sequence[str] = DEFAULT_CONFIRM_PATTERNS
) -> str | None:
    """Return the first confirm pattern the command hits.

    :param command: the raw command.
    :param analysis: its analysis (for the segment view).
    :param patterns: confirm patterns, e.g. :data:`DEFAULT_CONFIRM_PATTERNS`.
    :returns: the pattern as configured, or ``None``.
    """
    views = [command.lower(), deobfuscate(command).lower()]
    views.extend(" ".join(w.value for w in s.words).lower() for s in analysis.segments)
    for pattern in patterns:
        needle = pattern.lower()
        if any(contains_pattern(view, needle) for view in views):
            return pattern
    return None
