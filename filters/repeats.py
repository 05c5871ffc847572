"""Facts stated again: a protected line printed over and over is protected fewer times.

A line printed again word for word is protected once; a fact stated over and over with
other particulars (:data:`REPEATED` lines of one :func:`line_template`, about one file) is
protected at its first and last statement, and the reduction counts the others: ``ERROR
tests/a.py::t1`` … 203 like it … ``ERROR tests/z.py::t9``.
"""

from __future__ import annotations

import itertools
import re
from array import array
from collections.abc import Callable, Iterator, Sequence

from tooldeck.filters.spans import LineData, Span, SpanArray

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
    data: LineData,
    runs: Sequence[Span],
    exempt: SpanArray,
    located: Callable[[LineData, int], bool],
) -> Sequence[Span]:
    """``runs`` without the lines that state a protected fact again.

    A line printed again word for word is protected once (its first time), unless a
    location follows it (the same message about another place); a fact stated
    over and over with other particulars (:data:`REPEATED` lines of one template) is
    protected at its first and last statement. A fact is repeated per file: the same
    message about two files is two facts. Lines of a listing and bare locations (``exempt``)
    are not facts stated again but the entries of a listing, each about its own place; a
    finding at a location (``src/a.py:3:0: C0301 Line too long``) can be repeated.

    The lines are walked in order, a repeat flagged by a byte and a candidate remembered by
    offset in arrays (a span per line would take several times the text on a log full of
    warnings); their templates are taken :data:`_TEMPLATE_CHUNK` lines at a time.

    :param data: line data.
    :param runs: the runs of protected lines.
    :param exempt: sorted, line-aligned spans of the lines that are never repeats (listing
        entries, locations).
    :param located: whether a location line follows the line ending at an offset.
    :returns: the runs without the repeats.
    """
    seen: set[bytes] = set()  # (a line of at most _SHORTEST_REPEAT bytes is never a repeat)
    dropped = bytearray()  # a byte per protected line, in order: 1 for a repeat
    candidates = array("q")  # starts of the lines that may be repeats of a template
    numbers = array("q")  # and their numbers among the protected lines
    exempt_starts, exempt_ends, exempt_at = exempt.starts, exempt.ends, 0
    for run_start, run_end in runs:
        start = run_start
        while start < run_end:
            end = data.index(b"\n", start) + 1
            raw = bytes(data[start:end])
            if len(raw) > _SHORTEST_REPEAT:
                if raw in seen and not located(data, end):
                    dropped.append(1)
                    start = end
                    continue
                seen.add(raw)
            while exempt_at < len(exempt_starts) and exempt_ends[exempt_at] <= start:
                exempt_at += 1
            if exempt_at == len(exempt_starts) or exempt_starts[exempt_at] > start:
                candidates.append(start)
                numbers.append(len(dropped))
            dropped.append(0)
            start = end
    del seen
    for number in _template_middles(data, candidates):
        dropped[numbers[number]] = 1
    if 1 not in dropped:
        return runs
    return _without_lines(data, runs, dropped)


_TEMPLATE_CHUNK = 4096
"""Candidate lines decoded and masked at a time."""


def _template_middles(data: LineData, candidates: array[int]) -> Iterator[int]:
    """Numbers of the candidates between the first and last statement of a repeated fact.

    :param data: line data.
    :param candidates: the starts of the candidate lines, ascending.
    :returns: numbers (positions in ``candidates``), ascending.
    """
    line_count = data.count(b"\n")
    if len(candidates) < REPEATED or line_count <= REPEATS_FROM_LINES:
        return iter(())
    groups: dict[tuple[str, str], array[int]] = {}  # candidate numbers by fact
    findings_whole = line_count <= FINDINGS_WHOLE_UP_TO
    for first in range(0, len(candidates), _TEMPLATE_CHUNK):
        numbers = range(first, min(first + _TEMPLATE_CHUNK, len(candidates)))
        buffer = bytearray()
        for start in candidates[numbers.start : numbers.stop]:
            buffer += data[start : data.index(b"\n", start) + 1]
        text = buffer.decode("utf-8", "surrogatepass")
        del buffer
        lines = text.split("\n")
        templates = _TEMPLATE_PARTS.sub("_", text).split("\n")
        for number, line, template in zip(numbers, lines, templates, strict=False):
            if findings_whole and _FINDING_AT.match(line):
                continue  # a finding at its own line and column: each names its own place
            subject = _SUBJECT.match(line)
            key = (subject[0] if subject else "", template.strip())
            group = groups.get(key)
            if group is None:
                groups[key] = group = array("q")
            group.append(number)
    dropped = bytearray(len(candidates))
    for group in groups.values():
        if len(group) >= REPEATED:
            for number in group[1:-1]:
                dropped[number] = 1
    return itertools.compress(itertools.count(), dropped)


def _without_lines(data: LineData, runs: Sequence[Span], dropped: bytearray) -> list[Span]:
    """``runs`` less their lines flagged in ``dropped`` (a byte per line of the runs)."""
    kept: list[Span] = []
    number = 0
    for run_start, run_end in runs:
        piece = start = run_start
        while start < run_end:
            end = data.index(b"\n", start) + 1
            if dropped[number]:
                if piece < start:
                    kept.append((piece, start))
                piece = end
            number += 1
            start = end
        if piece < run_end:
            kept.append((piece, run_end))
    return kept


FINDINGS_WHOLE_UP_TO = 150
"""In an output of at most this many lines, a finding at a line and column is never a repeat
(:data:`_FINDING_AT`): a linter's report an agent reads whole. A longer one (hundreds of
``E501`` of one file) keeps each rule's first and last finding per file and counts the
others."""

_FINDING_AT = re.compile(
    r"\s*(?:[\w.@+/\\-]+\.\w+:\d+:\d+[:\s]|\d+:\d+\s+\w)|\s+[\w.@+/\\-]+\.\w+:\d+: \S"
)
"""A linter's or compiler's finding at a line and column: ``src/a.py:12:5: E501 …`` (ruff,
flake8, tsc's ``--pretty false``, gcc) or, under a file heading, ESLint's and stylelint's
``  9:31  warning  No magic number: 1  no-magic-numbers``; and a failing test's message at
its line, indented under the test (go test's ``    format_test.go:64: test 3: got …``).
For a linter the findings are the result: ten of one rule in one file are ten facts, each
at its own place (up to :data:`FINDINGS_WHOLE_UP_TO` lines); ten failing tests' messages
are ten failures."""


_SHORTEST_REPEAT = 12
"""A line repeated word for word is protected once when it is longer than this (shorter
ones, ``FAIL`` or ``failures:``, mark where they stand)."""

