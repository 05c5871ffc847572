"""The line grammar of test output, for the runners ``test_summary`` understands.

cargo/nextest, pytest (xdist), go test, jest/vitest/mocha and unittest.

Used by the ``test_summary`` strategy. The patterns are fixed and free of nested quantifiers, so
they use the standard library engine (user patterns never reach this module).
"""

from __future__ import annotations

import enum
import re

__all__ = ["PYTEST_HEADING", "LineKind", "cargo_counts", "classify_test_line", "is_block_end"]

PYTEST_HEADING = r"_+ [^\s_].* _+$"
"""pytest's heading of one failing test's details, its name between rulers of underscores;
one underscore on each side when the name is too long for the terminal's width."""


class LineKind(str, enum.Enum):
    """What a line of test output is."""

    SUMMARY = "summary"
    BLOCK_START = "block_start"
    PASSING = "passing"
    SECTION = "section"
    SUITE = "suite"
    OTHER = "other"


_GRAMMAR = re.compile(
    "|".join(
        (
            # final summaries, kept verbatim
            r"(?P<summary>test result: "  # cargo
            r"|\s*Summary \["  # nextest
            r"|=+ .*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|no tests ran)\b"
            r".* =+$"  # pytest
            r"|ok\s+\S+\s+(?:[\d.]+s|\(cached\))|FAIL\s+\S+\s+(?:[\d.]+s|\[.*\])$|FAIL$|PASS$"  # go
            r"|(?:Tests|Test Suites|Snapshots):\s+"  # jest
            r"|\s*(?:Test Files|Tests)\s{2,}\d+"  # vitest
            r"|\s*\d+ (?:passing|failing|pending)\b"  # mocha
            r"|Ran \d+ tests? in [\d.]+s$|(?:OK|FAILED)(?: \(.*\))?$)",  # unittest
            # the first line of one failure's details
            r"(?P<block_start>---- .+ stdout ----$"  # cargo
            rf"|{PYTEST_HEADING}"  # pytest
            r"|\s*--- FAIL: "  # go
            r"|\s*● (?!Console)"  # jest
            r"|\s*FAIL\s+\S+.* > "  # vitest
            r"|\s*\d+\) \S"  # mocha
            r"|(?:FAIL|ERROR): \S+ \(\S+\)$)",  # unittest
            # one passing test
            r"(?P<passing>test \S+ \.\.\. ok$|\s*PASS \["  # cargo, nextest
            r"|\S+::\S+.* PASSED\b|\[gw\d+\] \[\s*\d+%\] PASSED "  # pytest -v, xdist
            r"|\s*--- PASS: "  # go
            r"|\s*[✓√✔] "  # jest, vitest, mocha
            r"|.+ \.\.\. ok$)",  # unittest -v
            # structure lines that end a failure block and carry no information of their own
            r"(?P<section>=+ .* =+$|=== (?:RUN|PAUSE|CONT|NAME)\b|running \d+ tests?$"
            r"|failures:$|⎯{3,}|\S+\.py [.sFExX]+\s+\[\s*\d+%\]$)",
            r"(?P<suite>(?:PASS|FAIL)\s+\S+)",
        )
    )
)

_CARGO_BLOCK_END = "failures:"
_CARGO_COUNT = re.compile(r"(\d+) (passed|failed|ignored|filtered out)")


def classify_test_line(line: str) -> LineKind:
    """Classify one line of test-runner output.

    :param line: the line.
    :returns: its kind (``OTHER`` when no runner grammar recognises it).
    """
    match = _GRAMMAR.match(line)
    if match is None or match.lastgroup is None:
        return LineKind.OTHER
    return LineKind(match.lastgroup)


def is_block_end(line: str) -> bool:
    """Whether a line closes a failure block and belongs to it (cargo's ``failures:``).

    :param line: the line.
    :returns: ``True`` for the closing line.
    """
    return line == _CARGO_BLOCK_END


def cargo_counts(summary_line: str) -> dict[str, int] | None:
    """The counts of a cargo ``test result:`` line.

    :param summary_line: a summary line.
    :returns: the ``passed``, ``failed``, ``ignored``, ``filtered out`` counts; ``None`` for
        other lines.
    """
    if not summary_line.startswith("test result: "):
        return None
    counts = {"passed": 0, "failed": 0, "ignored": 0, "filtered out": 0}
    for number, kind in _CARGO_COUNT.findall(summary_line):
        counts[kind] += int(number)
    return counts
