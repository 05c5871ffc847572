"""``test_summary``: keep failures and final summaries of test runs, count the passing tests."""

from __future__ import annotations

import dataclasses
import re
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import must_keep_classifier, must_keep_line_numbers
from tooldeck.filters.rulers import is_ruler
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams
from tooldeck.filters.tables import Ge
from tooldeck.filters.test_runners import (
    PYTEST_HEADING,
    LineKind,
    cargo_counts,
    classify_test_line,
    is_block_end,
)

__all__ = ["TestSummary", "TestSummaryParams", "compact_pytest_block", "omission_line"]

_BLOCK_BREAKS = frozenset(
    {LineKind.SUMMARY, LineKind.BLOCK_START, LineKind.PASSING, LineKind.SECTION, LineKind.SUITE}
)


@dataclasses.dataclass(frozen=True, kw_only=True)
class TestSummaryParams(StrategyParams):
    """Parameters of ``test_summary``.

    :param max_failures: failure blocks shown in full; later ones are counted.
    :param truncate_stack_trace: lines kept per failure block (its first quarter and its
        last three quarters: a traceback ends with what failed).
    """

    __test__ = False

    max_failures: Annotated[int, Ge(0)] = 10
    truncate_stack_trace: Annotated[int, Ge(1)] = 50


def omission_line(counts: list[tuple[int, str]]) -> str | None:
    """State what was omitted, e.g. ``... (342 passing tests, 3 other lines omitted) ...``.

    :param counts: ``(count, singular noun)`` pairs; zero counts are left out.
    :returns: the line, or ``None`` when nothing was omitted.
    """
    parts = [f"{count} {noun}{'' if count == 1 else 's'}" for count, noun in counts if count]
    return f"... ({', '.join(parts)} omitted) ..." if parts else None


class _Scan:
    """The pieces of one test output, gathered in a single pass."""

    def __init__(self) -> None:
        self.blocks: list[list[str]] = []
        self.heading: str | None = None
        self.kept: list[str] = []
        self.summaries: list[str] = []
        self.passing = 0
        self.other = 0


def _scan(lines: list[str], must_keep: set[int]) -> _Scan:
    scan = _Scan()
    block: list[str] | None = None
    for number, line in enumerate(lines):
        kind = classify_test_line(line)
        if block is not None:
            if is_block_end(line):
                block.append(line)
                block = None
                continue
            if kind not in _BLOCK_BREAKS:
                block.append(line)
                continue
            block = None
        if kind is LineKind.SUMMARY:
            scan.summaries.append(line)
        elif kind is LineKind.BLOCK_START:
            block = [line]
            scan.blocks.append(block)
        elif kind is LineKind.PASSING:
            scan.passing += 1
        elif number not in must_keep:
            scan.other += 1
        elif kind is LineKind.SECTION and not scan.blocks:
            if scan.heading is not None:
                scan.kept.append(scan.heading)
            scan.heading = line
        else:
            scan.kept.append(line)
    if scan.heading is not None and not scan.blocks:
        scan.kept.append(scan.heading)
    return scan


_PYTEST_HEADER = re.compile(PYTEST_HEADING)
_PYTEST_LOCATION = re.compile(r"\S+:\d+: \S")
_PYTEST_EVIDENCE = re.compile(r"(?:>|E(?:\s|$))|\s*\^+\s*$")


def compact_pytest_block(block: list[str]) -> tuple[list[str], int]:
    """A pytest failure block without the context pytest prints around the evidence.

    The traceback part (up to the block's last ``file:line: Error`` location line) keeps its
    header, the failing source line (``>``) and the source line before it, the explanation
    (``E …``), the caret markers, every location line and every must-keep line; the rest of
    the source and the repr of fixture values are dropped, much as ``--tb=short`` would.
    What follows the last location (captured output, logs) stays whole.

    :param block: the block's lines, header first.
    :returns: the kept lines, and how many non-blank lines were dropped.
    """
    if not block or not _PYTEST_HEADER.match(block[0]):
        return block, 0
    last = max((i for i, line in enumerate(block) if _PYTEST_LOCATION.match(line)), default=-1)
    if last < 0:
        return block, 0
    classifier = must_keep_classifier()
    kept = [block[0]]
    for index in range(1, last):
        line = block[index]
        following = block[index + 1]
        if (
            _PYTEST_EVIDENCE.match(line)
            or _PYTEST_LOCATION.match(line)
            or (following.startswith(">") and line[:1].isspace() and line.strip())
            or (line.strip() and classifier.is_must_keep(line))
        ):
            kept.append(line)
    dropped = sum(1 for line in block[1:last] if line.strip()) - (len(kept) - 1)
    kept += block[last:]
    return kept, dropped


def _head_and_tail(block: list[str], limit: int) -> list[str]:
    """A failure block cut to ``limit`` lines in its middle, never at its end.

    A traceback ends with what failed (the exception and its message, the assertion's
    location), and a long one is long in the middle (frames of the test runner and of
    libraries): the first quarter of the budget and the last three quarters are kept, with
    ``... (N more lines)`` between.
    """
    if len(block) <= limit:
        return block
    head = max(1, limit // 4)
    tail = limit - head
    return [*block[:head], f"... ({len(block) - limit} more lines)",
            *(block[-tail:] if tail else [])]


def _trimmed(block: list[str]) -> list[str]:
    """The block without its trailing blank lines and bare rulers (unittest's ``=====``)."""
    end = len(block)
    while end > 1 and (not block[end - 1].strip() or is_ruler(block[end - 1])):
        end -= 1
    return block[:end]


def _cargo_total(summaries: list[str]) -> str | None:
    totals = {"passed": 0, "failed": 0, "ignored": 0, "filtered out": 0}
    found = 0
    for line in summaries:
        counts = cargo_counts(line)
        if counts is not None:
            found += 1
            for key, value in counts.items():
                totals[key] += value
    if found < 2:
        return None
    verdict = "FAILED" if totals["failed"] else "ok"
    return (
        f"test result (all suites): {verdict}. {totals['passed']} passed;"
        f" {totals['failed']} failed; {totals['ignored']} ignored;"
        f" {totals['filtered out']} filtered out"
    )


class TestSummary(Strategy[TestSummaryParams]):
    """Failure details, must-keep lines and the runners' own summary lines; passing tests counted.

    The failure blocks come first, under the runner's own must-keep heading when it has one
    (pytest's ``=== FAILURES ===``, cargo's ``failures:``), else under ``FAILURES:``.

    Understands cargo test/nextest, pytest (plain, ``-v``, xdist), go test, jest, vitest and mocha.
    Full when a summary or a test result was recognised; Fallback (unchanged) otherwise.
    """

    __test__ = False
    name = "test_summary"
    Params = TestSummaryParams

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Summarise a test run.

        :param clean: sanitized output.
        :param exit_code: unused: failures are shown whatever the exit code says.
        :returns: the reduction.
        """
        lines = clean.split("\n") if clean else []
        scan = _scan(lines, must_keep_line_numbers(clean))
        if not scan.summaries and not scan.passing and not scan.blocks:
            return Reduction(clean, FilterConfidence.FALLBACK)
        out: list[str] = []
        context = 0
        if scan.blocks:
            out += [scan.heading or "FAILURES:", ""]
            limit = self.params.truncate_stack_trace
            for block in map(_trimmed, scan.blocks[: self.params.max_failures]):
                block, dropped = compact_pytest_block(block)
                context += dropped
                out += _head_and_tail(block, limit)
                out.append("")
            hidden = len(scan.blocks) - self.params.max_failures
            if hidden > 0:
                out.append(f"... and {hidden} more failure(s)")
        out += scan.kept
        omitted = omission_line(
            [
                (scan.passing, "passing test"),
                (context, "traceback context line"),
                (scan.other, "other line"),
            ]
        )
        if omitted is not None:
            out.append(omitted)
        out += scan.summaries
        total = _cargo_total(scan.summaries)
        if total is not None:
            out.append(total)
        return Reduction("\n".join(out).rstrip("\n"), FilterConfidence.FULL)
