r"""Where a rule came from in its TOML file: the line of each ``[[a.b.c]]`` header.

``tomllib`` gives values, not positions, so the lines are found by scanning the source text
for the array-of-tables headers of one dotted key: a line that is, after leading blanks,
``[[`` + the key (bare or quoted parts, blanks around the dots) + ``]]``, optionally followed
by a comment. Lines inside multi-line strings (three double or three single quotes) are skipped.

The scan is trusted only when it agrees with the parser: :func:`array_table_lines` is given
how many tables ``tomllib`` found and returns nothing unless it found exactly that many
headers. Rules written as an inline array (``bash = [{…}, {…}]``) therefore get no line, and
no rule is ever given another rule's line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["array_table_lines", "header_key"]

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_BASIC = re.compile(r'"((?:[^"\\]|\\.)*)"')
_LITERAL = re.compile(r"'([^']*)'")
_TRIPLE = re.compile(r'"""|\'\'\'')


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def header_key(line: str) -> tuple[str, ...] | None:
    """The key parts of an array-of-tables header line, or ``None`` when it is not one.

    :param line: one line of TOML text.
    :returns: ``("tools", "permissions", "bash")`` for ``[[tools.permissions."bash"]]``.
    """
    text = line.strip()
    if not text.startswith("[["):
        return None
    pos, parts = 2, []
    while True:
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        for pattern in (_BARE, _BASIC, _LITERAL):
            found = pattern.match(text, pos)
            if found:
                part = found.group(0) if pattern is _BARE else found.group(1)
                parts.append(_unescape(part) if pattern is _BASIC else part)
                pos = found.end()
                break
        else:
            return None
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        if text.startswith(".", pos):
            pos += 1
            continue
        if not text.startswith("]]", pos):
            return None
        rest = text[pos + 2 :].strip()
        return tuple(parts) if not rest or rest.startswith("#") else None


def array_table_lines(text: str, key: Sequence[str], expected: int) -> tuple[int, ...]:
    """The 1-based line of each ``[[key]]`` header, in order, if there are ``expected``.

    :param text: the TOML source.
    :param key: the key's parts, e.g. ``("tools", "permissions", "bash")`` (compared exactly).
    :param expected: how many tables the parser found under that key.
    :returns: one line per table, or ``()`` when the scan does not find exactly that many.
    """
    wanted = tuple(key)
    lines: list[int] = []
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is None and header_key(line) == wanted:
            lines.append(number)
        for quote in _TRIPLE.findall(line):
            if in_string is None:
                in_string = quote
            elif quote == in_string:
                in_string = None
    return tuple(lines) if len(lines) == expected else ()
