"""``fallback``: the generic reduction — every protected line kept, everything else counted.

The engine runs it on every output it may cut (after the matched rules, or alone when none
matched); a rule may run it with its own parameters. On sanitized text (ANSI escapes and
carriage-return progress already gone), an output longer than ``max_lines`` keeps:

1. every **protected line** (:mod:`tooldeck.filters.must_keep`: errors, warnings, failure
   details and locations, summaries and counts, short listings…) and every line matching the
   rule's own ``keep`` patterns (what its family prints that matters);
2. their **context** (:mod:`tooldeck.filters.context`): the line an error belongs to, what
   a kept line ending in ``:`` introduces, the rest of an exception message, the roots of an
   outline when the rule asks for them;
3. its **first and last lines** (as many as fit in ``edge_chars`` characters, at most
   ``head`` and ``tail`` lines).

Each stretch of other lines becomes one line with its exact count and an example
(:mod:`tooldeck.filters.omissions`): ``… 214 lines like "Collecting …" omitted``. A unified
diff is cut only between hunks (:mod:`tooldeck.filters.diff_cut`).

**Data** — a listing, a document, a JSON body: an output that reports no problem and does
not narrate steps, or any output of a rule that says it lists things (``output =
"listing"``) — is what the model asked to see: it passes whole up to ``data_lines`` lines,
and a longer one keeps ``data_edge`` lines at each end. Confidence: Fallback.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Annotated, Literal

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.context import closing_lines, context_lines, edge_lines, outline_lines
from tooldeck.filters.diff_cut import cut_diff, is_diff
from tooldeck.filters.groups import compile_group, group_heads
from tooldeck.filters.line_view import LineView, joined, line_data
from tooldeck.filters.match_list import is_match_list
from tooldeck.filters.must_keep import must_keep_line_flags
from tooldeck.filters.omissions import render
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.sanitize import sanitized_line_data
from tooldeck.filters.selection import from_line_data
from tooldeck.filters.spans import LineData
from tooldeck.filters.strategy import Reduction, StageResult, Strategy, StrategyParams
from tooldeck.filters.tables import Ge

__all__ = ["Fallback", "FallbackParams", "is_data"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class FallbackParams(StrategyParams):
    """Parameters of ``fallback``.

    :param min_lines: outputs of fewer lines pass unchanged.
    :param max_lines: outputs of at most this many lines pass unchanged (a rule for a diff
        or a log the model asked for sets how much it keeps whole).
    :param head: most lines kept from the start.
    :param tail: most lines kept from the end.
    :param edge_chars: characters the lines kept at each end may take (at least one line).
    :param keep: patterns (RE2) of lines kept like protected ones: the facts a family prints
        that the generic classifier does not know.
    :param outline: keep the lines that open the sections of an outline (flush left after
        indented lines, when there are few of them): the roots of a ``tree`` listing.
    :param data_lines: data passes unchanged up to this many lines.
    :param data_edge: lines kept at each end of longer data (2,000 characters at most).
    :param group: RE2 pattern whose first capture group names a line's group (the file of
        a search's match): the first ``group_head`` lines of each group's run are kept, the
        rest counted (:mod:`tooldeck.filters.groups`). Empty: no groups.
    :param group_head: lines kept at the start of each group's run.
    :param group_lines: data whose lines are mostly in groups (a match list) passes
        unchanged up to this many lines; longer, it keeps the first lines of each group and
        ``head``/``tail`` lines at its ends (data without groups, such as a list of file
        names, keeps to ``data_lines`` and ``data_edge``).
    :param output: what the output is. ``listing``: the command lists things (``ls``,
        ``find``, ``grep``), its output is data even when it reports a problem
        (``Permission denied`` between the paths found); ``report``: the command reports on a
        run (a test run, a build, a plan), never data; ``auto``: decided on the output
        (:func:`is_data`).
    """

    min_lines: Annotated[int, Ge(1)] = 20
    max_lines: Annotated[int, Ge(1)] = 20
    head: Annotated[int, Ge(1)] = 4
    tail: Annotated[int, Ge(1)] = 4
    edge_chars: Annotated[int, Ge(1)] = 160
    keep: list[str] = dataclasses.field(default_factory=list)
    outline: bool = False
    data_lines: Annotated[int, Ge(1)] = 1000
    data_edge: Annotated[int, Ge(1)] = 20
    group: str = ""
    group_head: Annotated[int, Ge(1)] = 1
    group_lines: Annotated[int, Ge(1)] = 60
    output: Literal["auto", "report", "listing"] = "auto"


_DATA_EDGE_CHARS = 2000

_BANNER_LINES = 3
"""A warning in the first lines (``apt does not have a stable CLI interface``) is a
banner: the output after it can still be data."""

_ALARM = re.compile(r"(?i)error|fail|warn|panic|fatal|exception|traceback|denied|killed")
"""A protected line that reports a problem: the output is then a report, not data."""

_NARRATION = re.compile(r"^[ \t]*(?:[A-Z][a-z]+ing\b|Setting up |(?:Get|Hit|Ign):\d)", re.MULTILINE)
"""A line narrating a step (``Downloading x``, ``Compiling y``, ``Setting up z``)."""

_BLANK = re.compile(r"^[ \t\f\v]*$", re.MULTILINE)

_COUNT_CHUNK = 1 << 20
"""Bytes of line data decoded at a time to count narrating and blank lines."""


def is_data(lines: Sequence[str], protected: Iterable[int], data: LineData | None = None) -> bool:
    """Whether an output is data the model asked for rather than a report on a run.

    Data reports no problem (past a banner) and does not narrate steps: a listing, a
    document, a JSON body; a search's hits are data whatever their text says
    (:func:`~tooldeck.filters.match_list.is_match_list`). An install log, a test run or a
    build is a report.

    :param lines: the output's lines.
    :param protected: the numbers of its protected lines.
    :param data: the lines as line data, when the caller has it (else encoded here).
    :returns: ``True`` for data.
    """
    if is_match_list(lines):  # (what the hits say is the searched files' text)
        return True
    banner = set(_nonblank(lines, _BANNER_LINES))
    if any(_ALARM.search(lines[index]) for index in protected if index not in banner):
        return False
    if data is None:
        data = line_data("\n".join(lines))
    narrating = blank = 0
    for text in _decoded(data):
        narrating += sum(1 for _ in _NARRATION.finditer(text))
        blank += sum(1 for _ in _BLANK.finditer(text))
    return narrating * 5 < len(lines) - blank


def _decoded(data: LineData) -> Iterator[str]:
    """Line data as texts of whole lines, a megabyte at a time, without their last newline.

    Joined with newlines they are the text: the line patterns find in them what they find
    in it.
    """
    position, size = 0, len(data)
    while position < size:
        cut = data.rfind(b"\n", position, position + _COUNT_CHUNK) + 1
        cut = cut or data.index(b"\n", position) + 1
        yield data[position : cut - 1].decode("utf-8", "surrogatepass")
        position = cut


def _nonblank(lines: Sequence[str], most: int, *, backwards: bool = False) -> list[int]:
    """The numbers of the first (or last) ``most`` lines that hold text."""
    found: list[int] = []
    order = range(len(lines) - 1, -1, -1) if backwards else range(len(lines))
    for index in order:
        if lines[index].strip():
            found.append(index)
            if len(found) == most:
                break
    return found


def _mark(flags: bytearray, numbers: Iterable[int]) -> None:
    """Set the flag of each line of ``numbers``."""
    for index in numbers:
        flags[index] = 1


class Fallback(Strategy[FallbackParams]):
    """Keeps every protected line with its context and counts the others.

    It works over the output's line data (:class:`~tooldeck.filters.line_view.LineView`):
    one byte per line says which are kept, and a line is decoded when it is read. Through
    :meth:`apply` the raw output is sanitized 256 KB at a time into that line data, so
    the sanitized text is never held as a string.
    """

    name = "fallback"
    Params = FallbackParams
    states_omissions = True

    def __init__(self, params: FallbackParams) -> None:
        super().__init__(params)
        self._keep = LineMatcher(params.keep, label="keep pattern") if params.keep else None
        self._group = compile_group(params.group) if params.group else None

    def apply(self, raw: str, exit_code: int | None = None) -> StageResult:
        """:meth:`Strategy.apply`, the output sanitized a piece at a time into line data.

        Same result as sanitizing first and calling :meth:`reduce`.

        :param raw: the command output as captured.
        :param exit_code: unused.
        :returns: the stage result.
        """
        # (sized for the usual case: sanitizing removes, an ASCII character is a byte)
        reduction = self._reduce(joined(sanitized_line_data(raw), len(raw) + 1), None)
        return StageResult(reduction.text, reduction.confidence)

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Reduce ``clean`` when it is long enough.

        :param clean: sanitized output.
        :param exit_code: unused.
        :returns: the reduction (protected lines are kept by construction).
        """
        if self._short(clean.count("\n") + 1):
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        return self._reduce(line_data(clean), clean)

    def _short(self, line_count: int) -> bool:
        """Whether an output of ``line_count`` lines passes unchanged."""
        return line_count < self.params.min_lines or line_count <= self.params.max_lines

    def _reduce(self, data: LineData, clean: str | None) -> Reduction:
        """Reduce the line data of a sanitized output (``clean``: its text, when held)."""
        params = self.params

        def unchanged() -> Reduction:
            text = from_line_data(data) if clean is None else clean
            return Reduction(text, FilterConfidence.FALLBACK, must_keep_checked=True)

        if self._short(data.count(b"\n") or 1):  # (no data: the empty text, one line)
            return unchanged()
        # classified before the offsets of the lines are taken: the classifier's line data
        # and the offsets are not alive at once
        protected = must_keep_line_flags(data)
        lines = LineView(data)
        if is_diff(lines):
            protected_set = set(itertools.compress(itertools.count(), protected))
            kept = cut_diff(list(lines), protected_set, params.max_lines, params.head // 2)
            return Reduction("\n".join(kept), FilterConfidence.FALLBACK, must_keep_checked=True)
        head, tail, edge_chars = params.head, params.tail, params.edge_chars
        groups = group_heads(lines, self._group, params.group_head) if self._group else None
        listing = params.output == "listing"
        numbers = functools.partial(itertools.compress, range(len(lines)))
        if listing or (params.output == "auto" and is_data(lines, numbers(protected), data)):
            # a match list (mostly grouped lines) is whole up to group_lines, other data up
            # to data_lines; longer, both keep their ends and a match list each group's head
            grouped = groups is not None and groups.grouped
            if len(lines) <= (params.group_lines if grouped else params.data_lines):
                return unchanged()
            head = tail = params.data_edge
            edge_chars = _DATA_EDGE_CHARS
        keep = protected
        if self._keep is not None:
            _mark(keep, (index for index, line in enumerate(lines) if self._keep.matches(line)))
        _mark(keep, context_lines(lines, numbers(keep)))
        _mark(keep, closing_lines(lines))
        if params.outline:
            _mark(keep, outline_lines(lines))
        if groups is not None:
            _mark(keep, groups.taken)
        _mark(keep, edge_lines(_nonblank(lines, head), lines, head, edge_chars))
        last = _nonblank(lines, tail, backwards=True)
        _mark(keep, edge_lines(last, lines, tail, edge_chars))
        kept = render(lines, numbers(keep))
        return Reduction("\n".join(kept), FilterConfidence.FALLBACK, must_keep_checked=True)
