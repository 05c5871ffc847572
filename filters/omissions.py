"""What stands for omitted lines: an exact count and one example.

Every stretch of lines a reduction leaves out becomes one line that says how many and what
they were: ``… 214 lines like "Collecting …" omitted`` when they share a shape, ``… 37 lines
omitted, like "Downloading …"`` when they do not. The example is what the lines start with
in common, or the first of them, cut to a readable length. Blank lines and bare rulers
between two kept lines are layout: a stretch of only those is dropped without a marker.
A kept line of more than 1,000 characters keeps its two ends and states how many
characters it lost.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence

__all__ = [
    "fold_marker",
    "line_shapes",
    "noise_notice",
    "omitted_marker",
    "render",
    "shortened",
    "stretch_marker",
]

_EXAMPLE_CHARS = 24
# Each pattern opens with the character (or set) its match starts with, so that ``re`` looks
# for that character in a tight loop before trying the rest; a pattern opening with ``^`` or a
# lookbehind is tried at every position (line_shapes over a text: 251 -> 151 ms for 5 MB).
_DIGITS = re.compile(r"\d+")
_ASCII_DIGITS = re.compile(r"[0-9]+")
"""``_DIGITS`` on an ASCII text, without the Unicode digit lookup per character."""
_AFTER_FIRST_WORD = re.compile(
    r"(?:[ \t\f\v](?<=\S[ \t\f\v])|:(?<=\S:)(?=:)|\[(?<=\S\[)|\((?<=\S\()).*"
)
"""From the first space or tab, ``::``, ``[`` or ``(`` after a non-space to the end of the line
(one pass: cutting at the first space, then at the first ``::``, ``[`` or ``(`` of what is
left, cuts at the first of them)."""
_DEEP_INDENT = re.compile(r"[ \t\f\v](?<![^\n][ \t\f\v])[ \t\f\v]{8,}")
"""Nine or more spaces or tabs opening a line (the character before the first is a newline)."""
_BLANK_HEAD = re.compile(r"[ \t\f\v](?<![^\n][ \t\f\v])[ \t\f\v]*$", re.MULTILINE)
"""A line of spaces and tabs only."""
_RULER_CHARS = "=_-*#~─━═⎯"
_DECORATION = re.compile(rf"^\s*(?:([{re.escape(_RULER_CHARS)}])\1{{2,}})?\s*$")

_LONG_LINE = 1000
_LONG_HEAD = 400
_LONG_TAIL = 100
_BLOB_SPACING = 40
"""A long line is a blob when its middle holds fewer than one space per this many
characters (base64, a minified bundle), else words."""
_ENCODED_BREAK = "%0A"
_ENCODED_LINES = 10
"""A long line holding this many percent-encoded line breaks is a whole text flattened into
one line (a CI runner's ``::debug::stdout: …%0A…`` echo of the output above it): shown by
its ends like a blob."""


def line_shapes(text: str) -> list[str]:
    """The shape of every line: indentation (up to 8) and first word, digits masked.

    The word is cut at ``::``, ``[`` or ``(`` (not at its first character), so that
    ``tests/a.py::t[1] PASSED`` and ``tests/a.py::t[2] PASSED`` share one; a blank line has
    the empty shape. Whole-text substitutions, one result per line of ``text``.

    :param text: text, one line per newline.
    :returns: one shape per line.
    """
    heads = _AFTER_FIRST_WORD.sub("", text)
    heads = _DEEP_INDENT.sub(" " * 8, heads)
    heads = _BLANK_HEAD.sub("", heads)
    digits = _ASCII_DIGITS if heads.isascii() else _DIGITS
    return digits.sub("#", heads).split("\n")


def _cut(text: str) -> str:
    return text if len(text) <= _EXAMPLE_CHARS else text[: _EXAMPLE_CHARS - 1] + "…"


def _example(lines: Sequence[str]) -> str:
    """The words all ``lines`` start with, or the first non-blank line, cut short."""
    shown = [line for line in lines if line.strip()] or lines
    first, last = shown[0], shown[-1]
    common = 0
    for left, right in zip(first, last, strict=False):
        if left != right:
            break
        common += 1
    prefix = first[:common]
    if common < len(first):  # back to the last whole word the lines share
        prefix = prefix[: prefix.rfind(" ") + 1] if " " in prefix.lstrip() else ""
    return _cut(prefix.strip() + " …" if prefix.strip() else first.strip())


def _count(lines: Sequence[str]) -> str:
    return "1 line" if len(lines) == 1 else f"{len(lines)} lines"


def fold_marker(lines: Sequence[str], like: list[str] | None = None) -> str:
    """The line replacing omitted lines of one shape.

    :param lines: the omitted lines.
    :param like: the lines the example is taken from (``lines`` without the blank lines and
        rulers between them); ``lines`` when ``None``.
    :returns: e.g. ``… 214 lines like "Collecting …" omitted``.
    """
    return f'… {_count(lines)} like "{_example(like or lines)}" omitted'


def stretch_marker(lines: Sequence[str], like: list[str]) -> str:
    """The line replacing omitted lines of several shapes.

    :param lines: the omitted lines.
    :param like: the omitted lines of the most common shape, the example is taken from.
    :returns: e.g. ``… 37 lines omitted, like "Downloading …"``.
    """
    return f'… {_count(lines)} omitted, like "{_example(like)}"'


def noise_notice(count: int, first: str) -> str:
    """The line that closes an output whose noise lines were removed.

    :param count: how many lines were removed.
    :param first: the first of them.
    :returns: e.g. ``(12 noise lines removed, like "Compiling serde v1.0")``, or ``(3 noise
        lines removed, all blank)``.
    """
    like = f'like "{_cut_notice(first.strip())}"' if first.strip() else "all blank"
    return f"({count} noise lines removed, {like})"


_NOTICE_CHARS = 40


def _cut_notice(text: str) -> str:
    return text if len(text) <= _NOTICE_CHARS else text[: _NOTICE_CHARS - 1] + "…"


def omitted_marker(lines: list[str], what: str = "lines") -> str:
    """The line replacing an elided stretch of a diff.

    :param lines: the omitted lines.
    :param what: what they are, plural.
    :returns: e.g. ``… 120 removed lines omitted, like "-    return x" …``.
    """
    example = next((line.strip() for line in lines if line.strip()), "")
    return f'… {len(lines)} {what} omitted, like "{_cut(example)}" …'


def shortened(line: str) -> str:
    """A kept line as shown: past 1,000 characters, the two ends of a blob.

    A base64 blob, a minified bundle or a whole text flattened into one line with its line
    breaks percent-encoded (``%0A``) keeps its first 400 and last 100 characters, with the
    count of those between. A long line of words (pip's ``Successfully installed`` and its
    hundred packages, a repr) is a list of facts and stays whole.

    :param line: a kept line.
    :returns: the line as shown.
    """
    if len(line) <= _LONG_LINE:
        return line
    hidden = len(line) - _LONG_HEAD - _LONG_TAIL
    words = line.count(" ", _LONG_HEAD, -_LONG_TAIL) * _BLOB_SPACING > hidden
    if words and line.count(_ENCODED_BREAK, _LONG_HEAD, -_LONG_TAIL) < _ENCODED_LINES:
        return line
    return f"{line[:_LONG_HEAD]}…[{hidden} characters omitted]…{line[-_LONG_TAIL:]}"


_SHAPE_SAMPLE = 400
"""Past this many lines, a stretch's shape is read from its first and last lines."""


def _content(lines: Iterable[str], most: int) -> list[str]:
    """The first ``most`` lines of ``lines`` that are not layout."""
    match = _DECORATION.match
    if isinstance(lines, list) and most >= len(lines):  # (all of them: no count to keep)
        return [line for line in lines
                if (head := line.lstrip()) and (head[0] not in _RULER_CHARS or not match(line))]
    found: list[str] = []
    for line in lines:
        # (a line with text can be layout only when it opens with a ruler character: most
        # lines are told apart by their first character, without running the pattern)
        head = line.lstrip()
        if head and (head[0] not in _RULER_CHARS or not match(line)):
            found.append(line)
            if len(found) == most:
                break
    return found


def _marker(gap: Sequence[str]) -> str | None:
    """The marker of a stretch of omitted lines, or ``None`` when it is only layout."""
    if len(gap) <= _SHAPE_SAMPLE:
        sample = _content(gap, len(gap))
    else:
        half = _SHAPE_SAMPLE // 2
        sample = _content(gap, half) + _content(gap[::-1], half)[::-1]
    if not sample:
        return None
    shapes = line_shapes("\n".join(sample))
    shape, _ = Counter(shapes).most_common(1)[0]
    like = [line for line, other in zip(sample, shapes, strict=True) if other == shape]
    if len(like) == len(sample):
        return fold_marker(gap, like)
    return stretch_marker(gap, like)


def render(lines: Sequence[str], keep: Iterable[int]) -> list[str]:
    """The kept lines in order, each stretch of other lines replaced by its marker.

    A stretch no longer than its marker is kept as it is.

    :param lines: the output's lines.
    :param keep: the numbers of the lines kept, ascending.
    :returns: the lines to show.
    """
    out: list[str] = []
    cursor = 0
    for index in itertools.chain(keep, (len(lines),)):
        if index > cursor:
            gap = lines[cursor:index]
            if len(gap) <= _SHAPE_SAMPLE:  # (read whole below, and a view decodes every read)
                gap = list(gap)
            marker = _marker(gap)
            if marker is not None:
                short = len(gap) <= len(marker)  # (a longer stretch is longer than its marker)
                if short and sum(len(line) + 1 for line in gap) <= len(marker) + 1:
                    out.extend(gap)
                else:
                    out.append(marker)
        if index < len(lines):
            out.append(shortened(lines[index]))
        cursor = index + 1
    return out
