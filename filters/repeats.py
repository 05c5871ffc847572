"""Facts stated again: a protected line printed over and over is protected fewer times.

A line printed again word for word is protected once; a fact stated over and over with
other particulars (:data:`REPEATED` lines of one :func:`line_template`, about one file) is
protected at its first and last statement, and the reduction counts the others: ``ERROR
tests/a.py::t1`` … 203 like it … ``ERROR tests/z.py::t9``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tooldeck.filters.spans import Span, intersect, lines_of, subtract

__all__ = ["FINDINGS_WHOLE_UP_TO", "REPEATED", "REPEATS_FROM_LINES", "line_template",
           "without_repeats"]

REPEATED = 10
"""A line template protected this many times or more is a repeated fact."""

REPEATS_FROM_LINES = 60
"""Facts are grouped as repeats only in outputs of more lines: a shorter one is read whole."""

_TEMPLATE_PARTS = re.compile(
    r"""'[^'\n]*'|"[^"\n]*"|`[^`\n]*`"""  # quoted values
    r"|\S*[/\\:.]\S*[\w)\]]"  # paths, dotted and qualified names, URLs, test ids
    r"|\b[0-9a-f]*\d[0-9a-f]*\b"  # numbers and hashes
    r"|\b\w*_\w*|\b[a-z]+[A-Z]\w*"  # identifiers: snake_case, CONSTANT_NAME, camelCase
)


def line_template(line: str) -> str:
    """What a line says once its particulars are masked: values, paths, numbers, names.

    :param line: one line.
    :returns: e.g. ``ERROR _`` for ``ERROR tests/test_a.py::test_b[x]``.
    """
    return _TEMPLATE_PARTS.sub("_", line.strip())


_SUBJECT = re.compile(r"[\w.@+-]*(?:/[\w.@+-]+)+|[\w@+-]+\.[A-Za-z]\w*(?=:\d|::|\s|$)")
"""The file a line is about (its first path), which keeps the facts of each file apart."""


def without_repeats(
    data: bytes,
    runs: list[Span],
    exempt: list[Span],
    located: Callable[[bytes, int], bool],
) -> list[Span]:
    """``runs`` without the lines that state a protected fact again.

    A line printed again word for word is protected once (its first time), unless a
    location follows it (the same message about another place); a fact stated
    over and over with other particulars (:data:`REPEATED` lines of one template) is
    protected at its first and last statement. A fact is repeated per file: the same
    message about two files is two facts. Lines of a listing and bare locations (``exempt``)
    are not facts stated again but the entries of a listing, each about its own place; a
    finding at a location (``src/a.py:3:0: C0301 Line too long``) can be repeated.

    :param data: line data.
    :param runs: the runs of protected lines.
    :param exempt: runs of the lines that are never repeats (listing entries, locations).
    :param located: whether a location line follows the line ending at an offset.
    :returns: the runs without the repeats.
    """
    seen: set[bytes] = set()
    dropped: list[Span] = []
    candidates: list[Span] = []
    exempt_lines = {start for span in intersect(runs, exempt) for start, _ in lines_of(data, *span)}
    for start, end in (span for run in runs for span in lines_of(data, *run)):
        raw = data[start:end]
        if raw in seen and len(raw) > _SHORTEST_REPEAT and not located(data, end):
            dropped.append((start, end))
            continue
        seen.add(raw)
        if start not in exempt_lines:
            candidates.append((start, end))
    if len(candidates) >= REPEATED and data.count(b"\n") > REPEATS_FROM_LINES:
        text = b"".join(data[start:end] for start, end in candidates).decode(
            "utf-8", "surrogatepass"
        )
        lines = text.split("\n")
        templates = _TEMPLATE_PARTS.sub("_", text).split("\n")
        groups: dict[tuple[str, str], list[Span]] = {}
        findings_whole = data.count(b"\n") <= FINDINGS_WHOLE_UP_TO
        for span, line, template in zip(candidates, lines, templates, strict=False):
            if findings_whole and _FINDING_AT.match(line):
                continue  # a finding at its own line and column: each names its own place
            subject = _SUBJECT.match(line)
            key = (subject[0] if subject else "", template.strip())
            groups.setdefault(key, []).append(span)
        dropped += [
            span for group in groups.values() if len(group) >= REPEATED for span in group[1:-1]
        ]
    return subtract(runs, sorted(dropped)) if dropped else runs


FINDINGS_WHOLE_UP_TO = 150
"""In an output of at most this many lines, a finding at a line and column is never a repeat
(:data:`_FINDING_AT`): a linter's report an agent reads whole. A longer one (hundreds of
``E501`` of one file) keeps each rule's first and last finding per file and counts the
others."""

_FINDING_AT = re.compile(r"\s*(?:[\w.@+/\\-]+\.\w+:\d+:\d+[:\s]|\d+:\d+\s+\w)")
"""A linter's or compiler's finding at a line and column: ``src/a.py:12:5: E501 …`` (ruff,
flake8, tsc's ``--pretty false``, gcc) or, under a file heading, ESLint's and stylelint's
``  9:31  warning  No magic number: 1  no-magic-numbers``. For a linter the findings are
the result: ten of one rule in one file are ten facts, each at its own place (up to
:data:`FINDINGS_WHOLE_UP_TO` lines)."""


_SHORTEST_REPEAT = 12
"""A line repeated word for word is protected once when it is longer than this (shorter
ones, ``FAIL`` or ``failures:``, mark where they stand)."""

