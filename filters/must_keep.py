"""The one classifier of lines no filter may drop: the protected kinds of fact.

Every strategy consults it (directly, or through the check in
:meth:`tooldeck.filters.strategy.Strategy.apply`), so a filter can shorten the output around a
failure but never hide the failure itself.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Sequence

from tooldeck.filters.patterns import LineMatcher

__all__ = [
    "MUST_KEEP_RULES",
    "MustKeepClassifier",
    "lost_must_keep_lines",
    "must_keep_classifier",
    "must_keep_line_numbers",
]

MUST_KEEP_RULES: tuple[tuple[str, str], ...] = (
    # (kind, pattern) — a line matching any pattern is protected. Kinds of fact:
    # errors and failures
    ("error word", r"(?i)\berror(?:s)?\b"),
    ("exception class", r"\b[A-Z]\w*(?:Error|Exception|Warning)\b"),
    ("failure word", r"(?i)\bfail(?:s|ed|ure|ures|ing)?\b"),
    ("panic", r"(?i)\bpanic(?:ked)?\b"),
    ("fatal", r"(?i)\bfatal\b"),
    ("traceback header", r"^Traceback \(most recent call last\)"),
    ("traceback frame", r"^\s*File \"[^\"]+\", line \d+"),
    ("pytest assertion line", r"^E\s"),
    ("assertion", r"(?i)\bassert(?:ion)?\b"),
    ("expected/actual", r"(?i)^\s*(?:left|right|expected|actual|received|got|want)\s*:"),
    ("expectation", r"(?i)\bexpected\b|\bwant(?:ed)? \S"),
    ("crash", r"(?i)segmentation fault|core dumped|\bkilled\b|out of memory"),
    ("npm error", r"^npm ERR!|^npm error"),
    ("workload failure", r"CrashLoopBackOff|ImagePullBackOff|ErrImagePull|OOMKilled|\bEvicted\b"),
    ("failed test marker", r"^\s*(?:✕|✗|\x{00D7}|●)\s"),
    # warnings: for a linter or a compiler, the warnings are the result
    ("warning", r"(?i)\bwarn(?:s|ed|ing|ings)?\b|\bEBADENGINE\b|\bdeprecated\b"),
    # failure details: a message that starts with the location it is about
    ("location", r"^\s*[\w./\\@+-]*\w\.[A-Za-z]\w*:\d+(?::\d+)?(?:[:,)\]]|\s|$)"),
    ("stack frame", r"^\s+at \S.*:\d+(?::\d+)?\)?\s*$"),
    # outcomes that are not a pass: skips and their reasons, expected failures, ignored tests
    (
        "skip",
        r"(?i)\bskip(?:s|ped|ping)?\b|\bxfail(?:ed)?\b|\bxpass(?:ed)?\b|\[no test files\]"
        r"|\bignored\b|\bno tests?\b|at least one test",
    ),
    # summaries and counts
    (
        "count",
        r"(?i)\b\d+ (?:passed|failed|skipped|errors?|warnings?|tests?|suites?|packages?"
        r"|files?|director(?:y|ies)|problems?|issues?|deselected|xfailed|xpassed|items?|added"
        r"|removed|changed|upgraded|newly installed|vulnerabilit(?:y|ies)|insertions?\(?"
        r"|deletions?\(?|to add|to change|to destroy|workers?|durations?)\b",
    ),
    ("exit status", r"(?i)\bexit(?:ed)? (?:with )?(?:code |status )?\d+\b|\bsuccessfully\b"),
    (
        "summary",
        r"(?i)^\s*(?:\[INFO\] )?(?:build (?:success|failure)|total time"
        r"|plan:|apply complete|saved the plan|your code has been rated|test result:"
        r"|tests?:\s|test suites:|ran \d+ tests?|OK\b|ok\s|--- (?:FAIL|SKIP)"
        r"|finished\b|done\b|found \d+|all checks passed|added \d+|up to date|audited \d+"
        r"|success\b|(?:PASS|FAIL)\s*$|# (?:tests|suites|pass|fail|cancelled|skipped|todo) \d+)",
    ),
    (
        "nothing to do",
        r"(?i)nothing to (?:do|commit|be done)|\bup[ -]to[ -]date\b|no changes"
        r"|no (?:issues|problems|errors) found|would be left unchanged|\bunchanged\b"
        r"|already (?:installed|up|exists)|no such|not found|\bmissing\b|no tests? (?:ran|found)",
    ),
    ("line reference", r"(?i)\bline \d+:"),
    # identifier lines of structured listings
    ("package change", r"^\s*(?:[+~-]|[├└]─+) @?[\w./-]+(?:==|@| )v?\d"),
    # top-level packages of a dependency tree (npm ls, pnpm list): what the project depends on
    ("dependency root", r"^[├└]─[─┬] @?[\w./-]+@v?\d"),
    ("package totals", r"^Packages: [+-]\d+"),
    ("status entry", r"^\t\S|^(?:[MADRCU?!][ MADRCU?!]|[ ][MADRCU]) \S"),
    ("commit", r"^commit [0-9a-f]{7,40}\b|^(?:[*|/\\ ]+ )?[0-9a-f]{7,12} \S"),
)
"""The must-keep rules, in order: kind, then RE2 pattern (per-line search)."""

_LOCATION_FOLLOWER = re.compile(
    rb"[ \t]*(?:-->[ \t]*\S+:\d+|at [^\n]*:\d+|>?[ \t]*\d*[ \t]*\|(?=[ \t\n])|= (?:note|help):)"
    rb"[^\n]*\n"
)
"""The lines right after a must-keep line that belong to it are kept with it: a diagnostic
location (rustc's ``--> file:line``, a JS stack frame ``at fn (file:line:col)``), and the
code frame of a compiler or test-runner diagnostic (``52 |     let s = 42;``, ``   |  ^^
expected `u32```, ``> 12 | expect(x)``, ``= note: …``)."""


_FOLLOWER_FIRST_BYTES = b" \t-a>|=0123456789"


def _message_line_end(data: bytes, end: int, limit: int | None) -> int:
    """The end of the non-blank line at ``end`` (0 when there is none within ``limit``)."""
    line_end = data.find(b"\n", end) + 1
    if line_end == 0 or (limit is not None and line_end > limit) or not data[end:line_end].strip():
        return 0
    return line_end


def _after_followers(data: bytes, end: int, limit: int | None = None) -> int:
    """Extend ``end`` over the lines that belong to the protected line ending there.

    Location and code-frame lines (:data:`_LOCATION_FOLLOWER`); or, when the protected line
    ends with ``:`` and no location line follows it, the message it introduces: the next
    non-blank line (``thread 'x' panicked at src/lib.rs:11:6:``, then the panic message).
    Never past ``limit``.
    """
    colon = end >= 2 and data[end - 2 : end - 1] == b":"
    line_end = end
    follower = _LOCATION_FOLLOWER.match(data, end)
    while follower is not None and (limit is None or follower.end() <= limit):
        end = follower.end()
        follower = _LOCATION_FOLLOWER.match(data, end)
    if colon and end == line_end:  # the colon introduced location lines, not a message
        end = _message_line_end(data, end, limit) or end
    return end


class MustKeepClassifier:
    """Marks the lines that must survive every filter.

    :param rules: ``(kind, pattern)`` pairs; defaults to :data:`MUST_KEEP_RULES`.
    """

    def __init__(self, rules: tuple[tuple[str, str], ...] = MUST_KEEP_RULES) -> None:
        self.rules = rules
        self._matcher = LineMatcher([pattern for _, pattern in rules], label="must-keep rule")

    def is_must_keep(self, line: str) -> bool:
        """Whether one line must be kept.

        :param line: a single line.
        :returns: ``True`` when any rule matches.
        """
        return self._matcher.matches(line)

    def line_runs(self, data: bytes) -> list[tuple[int, int]]:
        """Byte spans of runs of must-keep lines, each extended by the location lines after it.

        :param data: UTF-8 text whose every line ends with a newline.
        :returns: the spans, in order.
        """
        runs: list[tuple[int, int]] = []
        for start, end in self._matcher.line_runs(data):
            end = _after_followers(data, end)
            if runs and start <= runs[-1][1]:
                runs[-1] = (runs[-1][0], max(end, runs[-1][1]))
            else:
                runs.append((start, end))
        return runs

    def line_runs_within(
        self, data: bytes, spans: Sequence[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """The must-keep lines that lie inside ``spans`` (the lines a filter is about to drop).

        Only the bytes of ``spans`` are scanned, which is much cheaper than :meth:`line_runs`
        when the dropped lines are noise; location lines following a must-keep line anywhere
        in ``data`` are included when they lie inside ``spans``.

        :param data: UTF-8 text whose every line ends with a newline.
        :param spans: sorted, non-overlapping, line-aligned byte spans.
        :returns: sorted spans of must-keep lines, each inside one of ``spans``.
        """
        if not spans:
            return []
        joined = b"".join([data[start:end] for start, end in spans])
        offsets = [0]
        for start, end in spans:
            offsets.append(offsets[-1] + end - start)
        found: list[tuple[int, int]] = []
        for joined_start, joined_end in self._matcher.line_runs(joined):
            index = bisect.bisect_right(offsets, joined_start) - 1
            while joined_start < joined_end:
                span_start, span_end = spans[index]
                start = span_start + joined_start - offsets[index]
                piece_end = min(span_end, start + joined_end - joined_start)
                found.append((start, _after_followers(data, piece_end, limit=span_end)))
                joined_start += piece_end - start
                index += 1
        return self._complete_within(data, spans, found)

    @property
    def matcher(self) -> LineMatcher:
        """The line matcher of the rules (without the location-line extension)."""
        return self._matcher

    def line_runs_within_found(
        self, data: bytes, spans: Sequence[tuple[int, int]], lines: Sequence[tuple[int, int, int]]
    ) -> list[tuple[int, int]]:
        """:meth:`line_runs_within` when the must-keep lines inside ``spans`` are already known.

        :param data: UTF-8 text whose every line ends with a newline.
        :param spans: sorted, non-overlapping, line-aligned byte spans.
        :param lines: ``(start, end, span_end)`` of every line inside ``spans`` that the rules
            match, in order (``span_end`` the end of the span holding it), as
            :meth:`tooldeck.filters.patterns.LineMatcher.runs_with_stops` gives them.
        :returns: the same spans as :meth:`line_runs_within`.
        """
        if not spans:
            return []
        found = [
            (start, _after_followers(data, end, limit=span_end)) for start, end, span_end in lines
        ]
        return self._complete_within(data, spans, found)

    def _complete_within(
        self, data: bytes, spans: Sequence[tuple[int, int]], found: list[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """Add the follower lines opening a span after a must-keep line; sort and merge."""
        alive: dict[int, bool] = {}
        for span_start, _ in spans:
            if (
                span_start > 0
                and data[span_start] in _FOLLOWER_FIRST_BYTES
                and _LOCATION_FOLLOWER.match(data, span_start)
                and self._chain_reaches(data, span_start, alive)
            ):
                found.append((span_start, _after_followers(data, span_start)))
            elif (
                span_start > 1
                and data[span_start - 2 : span_start - 1] == b":"
                and self._line_before_is_must_keep(data, span_start)
            ):
                line_end = _message_line_end(data, span_start, None)
                if line_end:
                    found.append((span_start, _after_followers(data, line_end)))
        found.sort()
        merged: list[tuple[int, int]] = []
        for start, end in found:
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return merged

    def _line_before_is_must_keep(self, data: bytes, line_start: int) -> bool:
        start = data.rfind(b"\n", 0, line_start - 1) + 1
        return self.is_must_keep(data[start : line_start - 1].decode("utf-8", "surrogatepass"))

    def _chain_reaches(self, data: bytes, line_start: int, alive: dict[int, bool]) -> bool:
        """Whether a location line at ``line_start`` continues a must-keep line's chain.

        It does when the line before it is must-keep, or is itself a location line that
        continues such a chain (``error``, then ``at f (a.js:1:2)``, then ``--> b.rs:3:4``).
        ``alive`` remembers the answer for every line start looked at, so that all the spans
        of one text together read each line at most once.
        """
        walked: list[int] = []
        answer = False
        end = line_start - 1  # the newline that ends the previous line
        while end >= 0:
            start = data.rfind(b"\n", 0, end) + 1
            known = alive.get(start)
            if known is not None:
                answer = known
                break
            walked.append(start)
            if self.is_must_keep(data[start:end].decode("utf-8", "surrogatepass")):
                answer = True
                break
            if not _LOCATION_FOLLOWER.match(data, start):
                break
            end = start - 1
        for start in walked:
            alive[start] = answer
        return answer

    def must_keep_lines(self, text: str) -> list[str]:
        """The must-keep lines of a text, in order.

        :param text: text without a trailing newline (as :func:`sanitize_output` returns).
        :returns: the lines themselves.
        """
        if not text:
            return []
        data = text.encode("utf-8", "surrogatepass") + b"\n"
        lines: list[str] = []
        for start, end in self.line_runs(data):
            lines.extend(data[start : end - 1].decode("utf-8", "surrogatepass").split("\n"))
        return lines


@functools.lru_cache(maxsize=1)
def must_keep_classifier() -> MustKeepClassifier:
    """The shared classifier built from :data:`MUST_KEEP_RULES` (compiled once).

    :returns: the classifier.
    """
    return MustKeepClassifier()


def lost_must_keep_lines(
    clean_input: str,
    output: str,
    *,
    normalize: Callable[[str], str] | None = None,
) -> list[str]:
    """The must-keep lines of ``clean_input`` that do not appear in ``output``.

    :param clean_input: the sanitized text a filter received.
    :param output: what the filter produced.
    :param normalize: applied to both sides before comparing (for strategies that merge lines
        equal up to normalisation, such as ``dedup``).
    :returns: the missing lines, in input order (empty when nothing was lost).
    """
    if normalize is not None:
        output = normalize(output)
    present = set(output.split("\n"))
    lost: list[str] = []
    for line in must_keep_classifier().must_keep_lines(clean_input):
        probe = normalize(line) if normalize is not None else line
        if probe not in present and probe not in output:
            lost.append(line)
    return lost


def must_keep_line_numbers(text: str) -> set[int]:
    """0-based numbers of the must-keep lines of a text.

    :param text: text without a trailing newline.
    :returns: the line numbers.
    """
    if not text:
        return set()
    data = text.encode("utf-8", "surrogatepass") + b"\n"
    numbers: set[int] = set()
    line, offset = 0, 0
    for start, end in must_keep_classifier().line_runs(data):
        line += data.count(b"\n", offset, start)
        run = data.count(b"\n", start, end)
        numbers.update(range(line, line + run))
        line, offset = line + run, end
    return numbers
