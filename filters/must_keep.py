"""The one classifier of lines no filter may drop: the protected kinds of fact.

Every strategy consults it (directly, or through the check in
:meth:`tooldeck.filters.strategy.Strategy.apply`), so a filter can shorten the output around a
failure but never hide the failure itself. The kinds are the tables of
:mod:`tooldeck.filters.fact_kinds`; whether a line of a kind is protected can depend on the
whole output:

- a location in source code is protected unless the code is a library's;
- a line quoting source code (a code frame) is never protected for the words it holds;
- listing and changed lines are protected while the output holds few of them, and changed
  lines only outside long blocks (a created resource, an added file);
- a fact stated over and over is protected at its first and last statement
  (:mod:`tooldeck.filters.repeats`);
- a protected line carries its followers: rustc's ``--> file:line``, the frames in the
  project after a JavaScript error, the message after a line ending in ``:``.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
from array import array
from collections.abc import Callable, Iterator, Sequence

from tooldeck.filters.fact_kinds import (
    CHANGED_BLOCK,
    LIBRARY_PATH,
    LISTING_LIMIT,
    LISTING_RULES,
    MUST_KEEP_RULES,
    QUOTED_RULES,
    SOURCE_RULES,
)
from tooldeck.filters.line_view import line_data
from tooldeck.filters.omissions import shortened
from tooldeck.filters.patterns import FoundLines, LineMatcher
from tooldeck.filters.repeats import without_repeats
from tooldeck.filters.rulers import compact_ruler
from tooldeck.filters.spans import LineData, Span, SpanArray, intersect, subtract, union

__all__ = [
    "CLASSIFY_WINDOW",
    "MUST_KEEP_RULES",
    "STAMP_PROBE",
    "ListingCount",
    "MustKeepClassifier",
    "ends_protected_context",
    "lost_must_keep_lines",
    "must_keep_classifier",
    "must_keep_line_flags",
    "must_keep_line_numbers",
    "opens_with_stamp",
    "stamps_lines",
]

_LOCATION_FOLLOWER = re.compile(
    rb"[ \t]*(?:-->[ \t]*\S+:\d+|at (?![^\n]*(?:node_modules/|node:[a-z_]))[^\n]*:\d+)[^\n]*\n"
)
"""The lines right after a must-keep line that belong to it are kept with it: a diagnostic
location (rustc's ``--> file:line``) and a JavaScript stack frame outside the libraries
(``at fn (file:line:col)``)."""


_FOLLOWER_FIRST_BYTES = b" \t-a"

CLASSIFY_WINDOW = 1 << 18
"""Bytes of a text :meth:`MustKeepClassifier.line_runs` scans at a time."""


def _located(data: LineData, end: int) -> bool:
    return _LOCATION_FOLLOWER.match(data, end) is not None


def _message_line_end(data: LineData, end: int, limit: int | None) -> int:
    """The end of the non-blank line at ``end`` (0 when there is none within ``limit``)."""
    line_end = data.find(b"\n", end) + 1
    if line_end == 0 or (limit is not None and line_end > limit) or not data[end:line_end].strip():
        return 0
    return line_end


def _after_followers(data: LineData, end: int, limit: int | None = None) -> int:
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


def _joined(data: LineData, spans: Sequence[tuple[int, ...]]) -> bytes:
    """The bytes of ``spans`` (``(start, end, …)`` tuples) one after the other.

    Copied through one buffer: ``bytes.join`` holds every slice as an object of its own
    first, which for many short lines takes several times their size.
    """
    buffer = bytearray()
    with memoryview(data) as view:
        for span in spans:
            buffer += view[span[0] : span[1]]
    return bytes(buffer)


_NPM_ERROR = "npm error"
_NPM_MASK = "npm _____"

_STAMP = re.compile(
    rb"(?m)^(?:\[?(?:\d{4}-\d{2}-\d{2}[T ])?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?"
    rb"[ \t]+)"
)
"""A time stamp a log (a CI console, ``docker logs -t``) prints before every line."""

_STAMP_PROBE = 2048
"""Stamps are masked in the whole text only when they open most lines of its first bytes."""


def _stamped(data: LineData) -> bool:
    """Whether a log stamps its lines: half of its first lines open with a time stamp."""
    head = data[:_STAMP_PROBE].split(b"\n")[:-1] or [data[:_STAMP_PROBE]]
    stamps = sum(1 for line in head if _STAMP.match(line))
    return stamps * 2 >= len(head)


def _blank(match: re.Match[bytes]) -> bytes:
    return b" " * len(match[0])


def _mask_tags(data: LineData, stamped: bool | None = None) -> LineData:
    """``data`` with the tags that open every line masked (same length).

    A time stamp before each line is blanked, so that a line is classified by what it says
    (``11:02:14  symbol  : method x()`` is javac's ``symbol`` field). npm's ``npm error`` tag
    marks the stream npm prints every line of its report on, not an error in that line: the
    usage text npm prints after the error is not protected because of it.

    ``stamped`` says whether the log stamps its lines when ``data`` is a piece of a longer text
    (:func:`stamps_lines` of the text's first bytes); ``None``: decided on ``data``. Given it,
    the masking of each line depends on that line only.
    """
    if _stamped(data) if stamped is None else stamped:
        data = _STAMP.sub(_blank, data)
    tag, mask = _NPM_ERROR.encode(), _NPM_MASK.encode()
    if tag not in data:
        return data
    masked = data.replace(b"\n" + tag, b"\n" + mask)
    return mask + masked[len(tag) :] if masked.startswith(tag) else masked


def _mask_line(line: str) -> str:
    """One line with its opening tags masked, as :func:`_mask_tags` masks them."""
    return _mask_tags(line.encode("utf-8", "surrogatepass")).decode("utf-8", "surrogatepass")


STAMP_PROBE = _STAMP_PROBE
"""How many first bytes of a text decide whether it stamps its lines (:func:`stamps_lines`)."""


def stamps_lines(head: LineData) -> bool:
    """Whether a text whose first bytes are ``head`` stamps its lines.

    Only the first :data:`STAMP_PROBE` bytes are read.

    :param head: the text's first bytes (the whole text when it is shorter).
    :returns: ``True`` when half of the lines there open with a time stamp.
    """
    return _stamped(head)


def opens_with_stamp(data: LineData, start: int, end: int) -> bool:
    """Whether a line of ``data[start:end]`` (line-aligned) opens with a time stamp.

    When none does, masking those lines as a stamped log's or not gives the same bytes.

    :param data: line data.
    :param start: a line start.
    :param end: a line end (just after a newline).
    :returns: ``True`` when a stamp opens one of the lines.
    """
    return _STAMP.search(data, start, end) is not None


def ends_protected_context(data: LineData, start: int) -> bool:
    """Whether no line from ``start`` on belongs to a protected line before ``start``.

    True when the line at ``start`` is no follower (:data:`_LOCATION_FOLLOWER`) and the line
    before it does not end with ``:``: then a protected line before ``start``, with all its
    followers, ends at ``start`` at the latest, and the lines from ``start`` on are classified
    without reading any line before them. The chunked filters cut their input there.

    :param data: line data.
    :param start: the start of a complete line of ``data``, after its first line.
    :returns: ``True`` when the text may be cut before ``start``.
    """
    if data[start - 2 : start - 1] == b":":
        return False
    return _LOCATION_FOLLOWER.match(data, start) is None


class ListingCount:
    """How many lines of each listing kind a text holds, counted a piece at a time.

    The listing kinds are protected while a text holds few lines of them
    (:data:`LISTING_LIMIT`): :meth:`short` gives the same kinds as the classifier decides on
    the whole text, for a text given in pieces (any cut, not only between lines).

    :param classifier: the classifier whose listing kinds are counted.
    """

    def __init__(self, classifier: MustKeepClassifier) -> None:
        self._classifier = classifier
        self._counts = [0] * len(classifier.listing_kinds)
        self._head = bytearray()  # the text's first bytes, until the stamp decision is made
        self._stamped: bool | None = None
        self._pending = bytearray()  # bytes after the last newline, or before the decision

    @property
    def long(self) -> bool:
        """Whether every listing kind already has more lines than the limit (none protected)."""
        return all(count > self._classifier.listing_limit for count in self._counts)

    def add(self, piece: LineData) -> None:
        """Count the lines of the next piece of the text.

        :param piece: the next bytes of the text (UTF-8, any length).
        """
        if self.long:
            return
        self._pending += piece
        if self._stamped is None:
            self._head += piece[: STAMP_PROBE - len(self._head)]
            if len(self._head) < STAMP_PROBE:
                return
            self._stamped = stamps_lines(self._head)
        cut = self._pending.rfind(b"\n") + 1
        if cut:
            self._count(bytes(self._pending[:cut]))
            del self._pending[:cut]

    def short(self) -> tuple[LineMatcher, ...]:
        """The listing kinds protected in the whole text, once all of it was added.

        :returns: the kinds, as the classifier decides them on the whole text.
        """
        if self._stamped is None:
            self._stamped = stamps_lines(self._head)
        if self._pending:
            self._count(bytes(self._pending))
            self._pending.clear()
        limit = self._classifier.listing_limit
        return tuple(kind for kind, count in zip(self._classifier.listing_kinds, self._counts,
                                                 strict=True) if count <= limit)

    def _count(self, data: bytes) -> None:
        masked = _mask_tags(data, self._stamped)
        if not self._classifier.listing_matcher.any_line(masked):
            return
        limit = self._classifier.listing_limit
        for index, kind in enumerate(self._classifier.listing_kinds):
            if self._counts[index] <= limit:
                for start, end in kind.line_runs(masked):
                    self._counts[index] += masked.count(b"\n", start, end)


class _Scans:
    """The line runs of each matcher over one text, each matcher scanning it at most once.

    The classification asks for the same kinds several times (strong lines, locations,
    listings); one RE2 scan of the whole text answers each of them.

    Kinds that most texts hold no line of (``rare``) are first looked for together: when one
    search of their union finds no line, none of them is scanned. A scan reads the whole text
    even when it finds nothing (≈ 12 ms per 5 MB each); the search stops at the first line.

    :param data: the (masked) line data every scan reads.
    :param rare: the union of the rare kinds' patterns and the kinds, or ``None``.
    """

    def __init__(
        self, data: LineData, rare: tuple[LineMatcher, tuple[LineMatcher, ...]] | None = None
    ) -> None:
        self.data = data
        self._runs: dict[int, tuple[LineMatcher, list[Span]]] = {}
        self._rare = rare

    def __call__(self, matcher: LineMatcher) -> list[Span]:
        """The runs of ``matcher`` in the data (callers must not change the list)."""
        if self._rare is not None and any(matcher is kind for kind in self._rare[1]):
            union, kinds = self._rare
            self._rare = None  # (looked for once)
            if not union.any_line(self.data):
                for kind in kinds:
                    self._runs[id(kind)] = (kind, [])
        known = self._runs.get(id(matcher))
        if known is not None and known[0] is matcher:
            return known[1]
        runs = matcher.line_runs(self.data)
        self._runs[id(matcher)] = (matcher, runs)
        return runs


class MustKeepClassifier:
    """Marks the lines that must survive every filter.

    :param rules: ``(kind, pattern)`` pairs always protected; defaults to
        :data:`MUST_KEEP_RULES`.
    :param source_rules: kinds protected unless the line names a library path
        (:data:`SOURCE_RULES`, :data:`LIBRARY_PATH`).
    :param listing_rules: kinds protected while a text holds at most ``listing_limit`` such
        lines (:data:`LISTING_RULES`).
    :param listing_limit: see :data:`LISTING_LIMIT`.
    """

    def __init__(
        self,
        rules: tuple[tuple[str, str], ...] = MUST_KEEP_RULES,
        source_rules: tuple[tuple[str, str], ...] = SOURCE_RULES,
        listing_rules: tuple[tuple[str, str], ...] = LISTING_RULES,
        listing_limit: int = LISTING_LIMIT,
    ) -> None:
        self.rules = (*rules, *source_rules, *listing_rules)
        label = "must-keep rule"
        self._strong = LineMatcher([pattern for _, pattern in rules], label=label)
        self._source = LineMatcher([pattern for _, pattern in source_rules], label=label)
        self._library = LineMatcher([LIBRARY_PATH], label=label)
        self._quoted = LineMatcher([pattern for _, pattern in QUOTED_RULES], label=label)
        self._listing = LineMatcher([pattern for _, pattern in listing_rules], label=label)
        self._listing_kinds = tuple(
            LineMatcher([pattern], label=label) for _, pattern in listing_rules
        )
        self._listing_limit = listing_limit
        package = [pattern for kind, pattern in rules if kind == "package change"]
        self._package = LineMatcher(package or [r"[^\s\S]"], label=label)
        changed = [pattern for kind, pattern in listing_rules if kind == "changed line"]
        self._changed = LineMatcher(changed, label=label) if changed else None
        # every line any kind may protect: the one scan that finds the candidates
        self._matcher = LineMatcher([pattern for _, pattern in self.rules], label=label)
        rare = (self._library, self._quoted, self._listing, self._package)
        self._rare = (
            LineMatcher([pattern for kind in rare for pattern in kind.patterns], label=label),
            rare,
        )

    @property
    def listing_kinds(self) -> tuple[LineMatcher, ...]:
        """The listing kinds, one matcher each (protected while a text holds few lines of one)."""
        return self._listing_kinds

    @property
    def listing_matcher(self) -> LineMatcher:
        """One matcher of every listing kind."""
        return self._listing

    @property
    def listing_limit(self) -> int:
        """The most lines of a listing kind a text may hold for them to be protected."""
        return self._listing_limit

    def _scans(self, data: LineData) -> _Scans:
        """The scans of ``data``, the rare kinds looked for together first."""
        return _Scans(data, self._rare)

    def is_must_keep(self, line: str) -> bool:
        """Whether one line, taken as a whole text, must be kept.

        :param line: a single line.
        :returns: ``True`` when a rule protects it (a listing line counts as a listing of one).
        """
        return self._protects(line, self._listing_kinds)

    def _protects(self, line: str, listing: Sequence[LineMatcher]) -> bool:
        """Whether ``line`` is protected, ``listing`` being the listing kinds that are."""
        line = _mask_line(line)
        if self._quoted.matches(line):
            return False
        if self._strong.matches(line):
            return True
        if self._source.matches(line) and not self._library.matches(line):
            return True
        return any(kind.matches(line) for kind in listing)

    def _short_listings_of(self, data: LineData) -> tuple[LineMatcher, ...]:
        """:meth:`_short_listings` of unmasked ``data``."""
        return self._short_listings(_mask_tags(data))

    def _short_listings(
        self, data: LineData, scan: _Scans | None = None
    ) -> tuple[LineMatcher, ...]:
        """The listing kinds protected in ``data``: those it holds few enough lines of."""
        scan = scan or self._scans(data)
        short: list[LineMatcher] = []
        for kind in self._listing_kinds:
            count = 0
            for start, end in scan(kind):
                count += data.count(b"\n", start, end)
                if count > self._listing_limit:
                    break
            else:
                short.append(kind)
        return tuple(short)

    def _classified(
        self,
        data: LineData,
        listing: Callable[[], Sequence[LineMatcher]],
        scan: _Scans | None = None,
    ) -> list[Span]:
        """Runs of the protected lines of ``data`` (masked), in span arithmetic.

        Protected: the always-protected kinds, the locations outside library paths and the
        listing kinds that are short, less the quoted lines. Each term is one RE2 scan of the
        whole text; no line is classified on its own. The kinds are scanned one by one, not
        first all together: a scan costs a call into RE2 per run it finds, and the candidates
        of all kinds make about as many runs as the always-protected ones (a log's warnings),
        where locations and listing lines make few.

        :param data: masked line data.
        :param listing: the listing kinds protected, asked only when a listing line is met.
        :param scan: the scans of ``data`` already made (none when ``None``).
        """
        scan = scan or self._scans(data)
        protected = scan(self._strong)
        source = scan(self._source)
        if source:
            protected = union(protected, subtract(source, scan(self._library)))
        if scan(self._listing):
            for kind in listing():
                protected = union(protected, scan(kind))
        if not protected:
            return protected
        quoted = scan(self._quoted)
        return subtract(protected, quoted) if quoted else protected

    def _protected_runs(
        self,
        data: LineData,
        listing: Callable[[], Sequence[LineMatcher]] | None = None,
        stamped: bool | None = None,
    ) -> list[tuple[int, int]]:
        """Runs of protected lines, before their followers are added.

        :param data: the text to scan.
        :param listing: the listing kinds protected, asked only when a listing line is met
            (``None``: decided on ``data`` itself).
        :param stamped: whether the text stamps its lines (``None``: decided on ``data``).
        """
        masked = _mask_tags(data, stamped)
        if listing is None:
            listing = functools.partial(self._short_listings, masked)
        return self._classified(masked, listing)

    def _without_long_changes(
        self,
        data: LineData,
        runs: list[tuple[int, int]],
        scan: _Scans,
        listing: Callable[[], Sequence[LineMatcher]],
    ) -> list[tuple[int, int]]:
        """``runs`` without the changed lines of long blocks (:data:`CHANGED_BLOCK`).

        A resource created by a plan or a file added by a diff is a block of ``+`` lines:
        the block is the change, not each of its lines.

        :param listing: the listing kinds protected in the whole text.
        """
        if self._changed is None or not runs:
            return runs
        long_blocks = [
            (start, end)
            for start, end in self._changed.line_runs(data)
            if data.count(b"\n", start, end) > CHANGED_BLOCK
        ]
        if not intersect(runs, long_blocks):
            return runs
        others = tuple(kind for kind in listing()
                       if kind.patterns[0] not in self._changed.patterns)
        kept = intersect(self._classified(scan.data, lambda: others, scan), long_blocks)
        return union(subtract(runs, long_blocks), kept)

    def line_runs(self, data: LineData) -> list[tuple[int, int]]:
        """Byte spans of runs of must-keep lines, each extended by the location lines after it.

        A fact stated over and over (:data:`REPEATED`: the same line but for its numbers,
        paths, names and quoted values) is protected at its first and last statement only.

        The text is classified a window of about :data:`CLASSIFY_WINDOW` bytes at a time
        (:meth:`_windows`), with what depends on the whole text decided on the whole text
        (time stamps, the listing kinds protected, the repeats): the scans' lists of spans,
        several times the text's size on a log full of warnings, never cover more than a
        window.

        :param data: UTF-8 text whose every line ends with a newline.
        :returns: the spans, in order.
        """
        stamped = _stamped(data)
        listing = functools.cache(functools.partial(self._whole_listings, data))
        protected, exempt = SpanArray(), SpanArray()
        for first, stop in self._windows(data):
            window = bytes(data[first:stop])
            scan = self._scans(_mask_tags(window, stamped))
            found = self._classified(scan.data, listing, scan)
            found = self._without_long_changes(window, found, scan, listing)
            bare = subtract(scan(self._source), scan(self._strong))
            entries = union(scan(self._listing), scan(self._package))
            del scan  # (freed before the next window is scanned)
            protected.extend(found, first)
            # entries and bare locations, not located findings
            exempt.extend(intersect(found, union(entries, bare)), first)
        kept = without_repeats(data, protected, exempt, _located)
        del protected, exempt
        runs: list[tuple[int, int]] = []
        for start, end in kept:
            end = _after_followers(data, end)
            if runs and start <= runs[-1][1]:
                runs[-1] = (runs[-1][0], max(end, runs[-1][1]))
            else:
                runs.append((start, end))
        return runs

    def _whole_listings(self, data: LineData) -> tuple[LineMatcher, ...]:
        """The listing kinds protected in the whole text, counted a window at a time."""
        count = ListingCount(self)
        for position in range(0, len(data), CLASSIFY_WINDOW):
            count.add(bytes(data[position : position + CLASSIFY_WINDOW]))
        return count.short()

    def _windows(self, data: LineData) -> Iterator[tuple[int, int]]:
        """Line-aligned windows of ``data`` of about :data:`CLASSIFY_WINDOW` bytes.

        A window never ends inside a run of changed lines, whose length decides whether its
        lines are protected (:meth:`_without_long_changes`).
        """
        first, size = 0, len(data)
        while first < size:
            stop = data.find(b"\n", first + CLASSIFY_WINDOW - 1) + 1 or size
            while stop < size and self._changed_at(data, stop):
                stop = data.index(b"\n", stop) + 1
            yield first, stop
            first = stop

    def _changed_at(self, data: LineData, start: int) -> bool:
        """Whether the lines before and at ``start`` are both changed lines."""
        if self._changed is None:
            return False
        before = data.rfind(b"\n", 0, start - 1) + 1
        two = bytes(data[before : data.index(b"\n", start) + 1])
        runs = self._changed.line_runs(two)
        return bool(runs) and runs[0] == (0, len(two))

    def line_runs_within(
        self,
        data: LineData,
        spans: Sequence[tuple[int, int]],
        *,
        stamped: bool | None = None,
        listing: Callable[[], Sequence[LineMatcher]] | None = None,
    ) -> list[tuple[int, int]]:
        """The must-keep lines that lie inside ``spans`` (the lines a filter is about to drop).

        Only the bytes of ``spans`` are scanned, which is much cheaper than :meth:`line_runs`
        when the dropped lines are noise; location lines following a must-keep line anywhere
        in ``data`` are included when they lie inside ``spans``.

        :param data: UTF-8 text whose every line ends with a newline.
        :param spans: sorted, non-overlapping, line-aligned byte spans.
        :param stamped: whether the log stamps its lines, when ``data`` is a piece of a longer
            text (``None``: decided on the first bytes of ``spans``, :func:`stamps_lines`).
        :param listing: the listing kinds protected, when ``data`` is a piece of a longer text
            (``None``: decided on ``data``); asked only when a listing line is met.
        :returns: sorted spans of must-keep lines, each inside one of ``spans``.
        """
        if not spans:
            return []
        joined = _joined(data, spans)
        offsets = [0]
        for start, end in spans:
            offsets.append(offsets[-1] + end - start)
        found: list[tuple[int, int]] = []
        if listing is None:
            listing = functools.partial(self._short_listings_of, data)
        for joined_start, joined_end in self._protected_runs(joined, listing, stamped):
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
        self,
        data: LineData,
        spans: Sequence[tuple[int, int]],
        lines: FoundLines,
        *,
        stamped: bool | None = None,
        listing: Callable[[], Sequence[LineMatcher]] | None = None,
    ) -> list[tuple[int, int]]:
        """:meth:`line_runs_within` when the must-keep lines inside ``spans`` are already known.

        :param data: UTF-8 text whose every line ends with a newline.
        :param spans: sorted, non-overlapping, line-aligned byte spans.
        :param lines: ``(start, end, span_end)`` of every line inside ``spans`` that the rules
            match, in order (``span_end`` the end of the span holding it), as
            :meth:`tooldeck.filters.patterns.LineMatcher.runs_with_stops` gives them.
        :param stamped: as for :meth:`line_runs_within` (decided on the first bytes of
            ``lines``).
        :param listing: as for :meth:`line_runs_within`.
        :returns: the same spans as :meth:`line_runs_within`.
        """
        if not spans:
            return []
        if not lines:
            return self._complete_within(data, spans, [])
        joined = _joined(data, lines)
        offsets = array(
            "q", itertools.accumulate(map(operator.sub, lines.ends, lines.starts), initial=0)
        )
        if listing is None:
            listing = functools.partial(self._short_listings_of, data)
        classified = self._classified(_mask_tags(joined, stamped), listing)
        del joined  # (freed before the spans it held are listed one by one)
        found: list[tuple[int, int]] = []
        append = found.append
        starts, ends, span_ends = lines.starts, lines.ends, lines.run_ends
        for run_start, run_end in classified:
            first = bisect.bisect_right(offsets, run_start) - 1
            last = min(bisect.bisect_left(offsets, run_end), len(lines))
            for index in range(first, last):
                start, end, span_end = starts[index], ends[index], span_ends[index]
                # Most lines have no follower: one that ends its span, or is followed by a line
                # that is no follower and does not end with ':', is taken as it is without
                # calling _after_followers (which gives ``end`` back for them).
                if end < span_end and (
                    data[end - 2 : end - 1] == b":"
                    or (data[end] in _FOLLOWER_FIRST_BYTES and _located(data, end))
                ):
                    end = _after_followers(data, end, limit=span_end)
                append((start, end))
        return self._complete_within(data, spans, found)

    def _complete_within(
        self, data: LineData, spans: Sequence[tuple[int, int]], found: list[tuple[int, int]]
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
        # merged in place: a second list as long as ``found`` (one span per protected line
        # inside the spans, ≈ a quarter of the text's size on a log full of warnings) is not built
        kept = 0
        for span in found:
            if kept and span[0] <= found[kept - 1][1]:
                last = found[kept - 1]
                found[kept - 1] = (last[0], max(span[1], last[1]))
            else:
                found[kept] = span
                kept += 1
        del found[kept:]
        return found

    def _line_before_is_must_keep(self, data: LineData, line_start: int) -> bool:
        start = data.rfind(b"\n", 0, line_start - 1) + 1
        return self.is_must_keep(data[start : line_start - 1].decode("utf-8", "surrogatepass"))

    def _chain_reaches(self, data: LineData, line_start: int, alive: dict[int, bool]) -> bool:
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
        data = line_data(text)
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
    :returns: the missing lines, in input order (empty when nothing was lost); a blob shown
        by its two ends and the count between (:func:`~tooldeck.filters.omissions.shortened`)
        is not lost, nor a ruler shown short around its whole title
        (:func:`~tooldeck.filters.rulers.compact_ruler`: the engine shortens rulers first).
    """
    if normalize is not None:
        output = normalize(output)
    present = set(output.split("\n"))
    lost: list[str] = []
    for line in must_keep_classifier().must_keep_lines(clean_input):
        probe = normalize(line) if normalize is not None else line
        if (
            probe not in present
            and probe not in output
            and shortened(probe) not in present
            and compact_ruler(probe) not in present
        ):
            lost.append(line)
    return lost


def must_keep_line_flags(data: LineData) -> bytearray:
    """One byte per line of line data: 1 for a must-keep line, 0 for the others.

    A byte per line, where a set of line numbers takes some 60 bytes per protected line.

    :param data: UTF-8 text whose every line ends with a newline.
    :returns: the flags, one per line.
    """
    flags = bytearray(data.count(b"\n"))
    line, offset = 0, 0
    for start, end in must_keep_classifier().line_runs(data):
        line += data.count(b"\n", offset, start)
        run = data.count(b"\n", start, end)
        flags[line : line + run] = b"\x01" * run
        line, offset = line + run, end
    return flags


def must_keep_line_numbers(text: str) -> set[int]:
    """0-based numbers of the must-keep lines of a text.

    :param text: text without a trailing newline.
    :returns: the line numbers.
    """
    if not text:
        return set()
    flags = must_keep_line_flags(line_data(text))
    return set(itertools.compress(itertools.count(), flags))
