"""Shorten decorative rulers: a line of 72 ``-`` becomes ``---``.

Test runners, build tools and installers draw lines of one repeated character across the
terminal (``=``, ``_``, ``-``, ``*``, ``#``, ``~`` and box-drawing dashes), some of them
around a title, or spaced (pytest's ``_ _ _ _ …`` between the frames of one failure's
traceback). The length of a ruler carries nothing, and on a 120-column terminal a single
output spends kilobytes on them: a bare ruler becomes three of its character (a spaced one
three spaced, ``_ _ _``), a ruler around
a title keeps three on each side (``=== test session starts ===``, ``___ test_div ___``). A
ruler around a protected title (``=== 3 failed in 0.4s ===``, ``=== FAILURES ===``) stays
whole: a protected line is never reshaped, readers quote such lines, and a search for the
quoted text must still find them. The engine shortens
rulers before it reduces an output (never on a file view or a short output); outputs that
carry a diff are left alone, since there a line of dashes is file content.
"""

from __future__ import annotations

import re

from tooldeck.filters.must_keep import must_keep_classifier

__all__ = ["carries_diff", "compact_ruler", "compact_rulers"]

_RULER = re.compile(
    r"^(?P<indent>[ \t]*(?:\[[A-Z]+\][ \t]+)?)(?P<char>[=_\-*#~─━═⎯])(?P=char){9,}"
    r"[ \t]*$",
    re.MULTILINE,
)
_SPACED = re.compile(
    r"^(?P<indent>[ \t]*)(?P<char>[=_\-*#~])(?: (?P=char)){9,}[ \t]*$", re.MULTILINE
)
"""A ruler of one character and spaces, ``_ _ _ _ …``: pytest between a failure's frames."""
_DIFF = re.compile(r"^(?:@@ |diff --git |\+\+\+ |--- a/)", re.MULTILINE)


def _short(match: re.Match[str]) -> str:
    return f"{match['indent']}{match['char'] * 3}"


def _short_spaced(match: re.Match[str]) -> str:
    char = match["char"]
    return f"{match['indent']}{char} {char} {char}"


_TITLED = re.compile(
    r"^(?P<indent>[ \t]*)(?P<char>[=_\-*#~─━═⎯])(?P=char){9,}(?P<title>[ \t]+\S.*?\S?[ \t]+)"
    r"(?P=char){10,}[ \t]*$",
    re.MULTILINE,
)


def _short_unprotected(match: re.Match[str]) -> str:
    """A titled ruler shortened unless it is protected (``=== 3 failed in 0.4s ===``)."""
    if must_keep_classifier().is_must_keep(match[0]):
        return match[0]
    char = match["char"] * 3
    return f"{match['indent']}{char}{match['title']}{char}"


def compact_ruler(line: str) -> str:
    """One line with its ruler shortened (unchanged when it is not a ruler).

    :param line: a single line.
    :returns: the line, or its short form.
    """
    return _TITLED.sub(_short_unprotected, _SPACED.sub(_short_spaced, _RULER.sub(_short, line)))


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
    return _TITLED.sub(_short_unprotected, _SPACED.sub(_short_spaced, _RULER.sub(_short, text)))

