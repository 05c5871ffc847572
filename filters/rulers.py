"""Shorten decorative rulers: a line of 72 ``-`` becomes ``---``.

Test runners, build tools and installers draw lines of one repeated character across the
terminal (``=``, ``_``, ``-``, ``*``, ``#``, ``~``, box-drawing dashes and pytest-sugar's
horizontal bars ``―``), some of them
around a title, or spaced (pytest's ``_ _ _ _ …`` between the frames of one failure's
traceback). The length of a ruler carries nothing, and on a 120-column terminal a single
output spends kilobytes on them: a bare ruler becomes three of its character (a spaced one
three spaced, ``_ _ _``), a ruler around
a title keeps three on each side (``=== test session starts ===``, ``=== FAILURES ===``,
``___ ERROR at setup of test_db ___``, ``=== slowest 5 durations ===``): the title is the
fact, and it is kept whole. A ruler around a run's final summary, counts and the time it
took (``=== 3 failed, 2 passed in 0.4s ===``), stays whole: readers quote that line as it
is, and it is printed once. A run of ``!`` is a ruler too (pytest's ``!!! stopping after 1
failures !!!``).

**Padding** is shortened with them: the spaces a tool prints to push a progress column to the
terminal's right edge (``tests/a.py::test_x FAILED      …      [ 18%]``, maven's ``[INFO]
Building core 1.0      …      [1/3]``) become one, and the spaces a terminal run leaves at
the end of a line it rewrote (``collected 31 items`` then 90 spaces) go; a run of fewer than
ten spaces, and the columns of a table (no bracketed column closing the line), stay. The
engine shortens rulers and padding before it reduces an output (never on a file view or a
short output); outputs that carry a diff are left alone, since there a line of dashes, or
trailing spaces, are file content.
"""

from __future__ import annotations

import functools
import re

from tooldeck.filters.fact_kinds import MUST_KEEP_RULES
from tooldeck.filters.patterns import LineMatcher

__all__ = ["carries_diff", "compact_ruler", "compact_rulers", "is_ruler"]

_RULER = re.compile(
    r"^(?P<indent>[ \t]*(?:\[[A-Z]+\][ \t]+)?)(?P<char>[=_\-*#~─━═⎯―!])(?P=char){9,}"
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
    r"^(?P<indent>[ \t]*)(?P<char>[=_\-*#~─━═⎯―!])(?P=char){9,}(?P<title>[ \t]+\S.*?\S?[ \t]+)"
    r"(?P=char){10,}[ \t]*$",
    re.MULTILINE,
)


@functools.cache
def _counts() -> LineMatcher:
    """The protected kind of a summary of counts (``3 failed, 2 passed``)."""
    return LineMatcher([pattern for kind, pattern in MUST_KEEP_RULES if kind == "count"],
                       label="count")


_TOOK = re.compile(r"\bin \d+(?:\.\d+)?m?s\b")
"""The time a run took, closing its summary (``in 0.47s``)."""


def _short_titled(match: re.Match[str]) -> str:
    """A titled ruler shortened unless it is a run's summary (``=== 3 failed in 0.4s ===``)."""
    title = match["title"]
    if _TOOK.search(title) and _counts().matches(title):
        return match[0]
    char = match["char"] * 3
    return f"{match['indent']}{char}{match['title']}{char}"


_PADDING = re.compile(
    r"(?P<column>(?<=\S) {10,})(?=\[[^\]\n]*\][ \t]*$)|(?<=\S)[ \t]{10,}$", re.MULTILINE
)
"""Ten or more spaces pushing a closing bracketed column (``[ 18%]``, ``[1/3]``, ``[pom]``)
to the right edge, or ending a line."""


def _short_padding(match: re.Match[str]) -> str:
    return " " if match["column"] else ""


def _shortened(text: str) -> str:
    return _TITLED.sub(_short_titled, _SPACED.sub(_short_spaced, _RULER.sub(_short, text)))


def compact_ruler(line: str) -> str:
    """One line with its ruler and its padding shortened (unchanged when it has neither).

    :param line: a single line.
    :returns: the line, or its short form.
    """
    return _PADDING.sub(_short_padding, _shortened(line))


def is_ruler(line: str) -> bool:
    """Whether a line is a ruler (bare, spaced or around a title) that compaction shortens.

    :param line: a single line.
    :returns: ``True`` for a ruler.
    """
    return _shortened(line) != line


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
    return _PADDING.sub(_short_padding, _shortened(text))

