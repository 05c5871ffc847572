"""Shorten decorative rulers: a line of 72 ``-`` becomes ``---``.

Test runners, build tools and installers draw lines of one repeated character across the
terminal (``=``, ``_``, ``-``, ``*``, ``#``, ``~`` and box-drawing dashes), some of them
around a title. The length of a bare ruler carries nothing, and on a 120-column terminal a
single output spends kilobytes on them. A ruler around a title (``=== 3 failed in 0.4s ===``)
is left whole: readers quote such lines, and a search for the quoted text must still find
them. The engine shortens bare rulers as its last step on the outputs it reduces (never on a
file view or a short output); outputs that carry a diff are left alone, since there a line of
dashes is file content.
"""

from __future__ import annotations

import re

__all__ = ["carries_diff", "compact_ruler", "compact_rulers"]

_RULER = re.compile(
    r"^(?P<indent>[ \t]*(?:\[[A-Z]+\][ \t]+)?)(?P<char>[=_\-*#~─━═⎯])(?P=char){9,}"
    r"[ \t]*$",
    re.MULTILINE,
)
_DIFF = re.compile(r"^(?:@@ |diff --git |\+\+\+ |--- a/)", re.MULTILINE)


def _short(match: re.Match[str]) -> str:
    return f"{match['indent']}{match['char'] * 3}"


def compact_ruler(line: str) -> str:
    """One line with its ruler shortened (unchanged when it is not a ruler).

    :param line: a single line.
    :returns: the line, or its short form.
    """
    return _RULER.sub(_short, line)


def carries_diff(text: str) -> bool:
    """Whether ``text`` holds a unified diff, whose lines of dashes may be content.

    :param text: an output.
    :returns: ``True`` when a hunk header or file header line is present.
    """
    return _DIFF.search(text) is not None


def compact_rulers(text: str) -> str:
    """Every ruler line of ``text`` shortened; the text unchanged when it carries a diff.

    :param text: an output, one line per newline.
    :returns: the text with short rulers.
    """
    if carries_diff(text):
        return text
    return _RULER.sub(_short, text)
