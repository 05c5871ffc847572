"""Hypothesis and the corpus: the faster filter code gives what the code it replaced gave.

The references are the previous implementations, kept here only (not in the package):

- ``line_shapes`` with its previous patterns (each opened with ``^`` or a lookbehind);
- ``strip_noise``'s two-scan path (noise runs, then the must-keep lines inside them through
  :meth:`MustKeepClassifier.line_runs_within`), as ``test_strip_noise_fast_path`` has it;
- ``fallback`` with the previous ``line_shapes`` put back;
- the classifier's ``_classified`` that first scanned for the candidates of all kinds at once,
  and its scans that read the text once for each kind, the rare ones included.

Every corpus output is compared, both halves; for the held-back half only the number of
outputs that differ is reported (its outputs are never looked at one by one).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.filters import omissions
from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import (
    MustKeepClassifier,
    must_keep_classifier,
    must_keep_line_numbers,
)
from tooldeck.filters.omissions import line_shapes, noise_notice
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.registry import default_strategy_registry
from tooldeck.filters.sanitize import sanitize_output
from tooldeck.filters.selection import as_line_data, cut_spans, from_line_data, subtract
from tooldeck.filters.spans import union
from tooldeck.filters.strategy import StageResult

from .corpuskit import corpus

# ---- the references -------------------------------------------------------------------------

_OLD_DIGITS = re.compile(r"\d+")
_OLD_AFTER_FIRST_WORD = re.compile(r"(?<=\S)[ \t\f\v].*$", re.MULTILINE)
_OLD_HEAD_CUT = re.compile(r"(?<=\S)(?:::|[\[(]).*$", re.MULTILINE)
_OLD_DEEP_INDENT = re.compile(r"^[ \t\f\v]{9,}", re.MULTILINE)
_OLD_BLANK_HEAD = re.compile(r"^[ \t\f\v]+$", re.MULTILINE)


def old_line_shapes(text: str) -> list[str]:
    heads = _OLD_AFTER_FIRST_WORD.sub("", text)
    heads = _OLD_HEAD_CUT.sub("", heads)
    heads = _OLD_DEEP_INDENT.sub(" " * 8, heads)
    heads = _OLD_BLANK_HEAD.sub("", heads)
    return _OLD_DIGITS.sub("#", heads).split("\n")


def old_strip_noise(patterns: list[str], raw: str) -> StageResult:
    """The two-scan path: noise runs, then the must-keep lines inside them."""
    clean = sanitize_output(raw)
    if not clean:
        return StageResult(clean, FilterConfidence.FALLBACK)
    data = as_line_data(clean)
    runs = LineMatcher(patterns).line_runs(data)
    protected = must_keep_classifier().line_runs_within(data, runs) if runs else []
    kept_data, removed = cut_spans(data, runs, protected)
    if not removed:
        return StageResult(clean, FilterConfidence.FALLBACK)
    kept = from_line_data(kept_data)
    dropped = subtract(runs, protected)
    first = next((line for start, end in dropped
                  for line in from_line_data(data[start:end]).split("\n") if line.strip()), "")
    marker = noise_notice(removed, first)
    return StageResult(f"{kept}\n{marker}" if kept else marker, FilterConfidence.FULL)


def old_fallback(raw: str) -> StageResult:
    with mock.patch.object(omissions, "line_shapes", old_line_shapes):
        return default_strategy_registry().build({"type": "fallback"}).apply(raw, 1)


def old_classified(self: MustKeepClassifier, data: bytes, listing: Callable[[], object],
                   scan: object = None) -> list[tuple[int, int]]:
    """``_classified`` as it was: one scan for every candidate first, the kinds only if needed."""
    from tooldeck.filters import must_keep

    scan = scan or must_keep._Scans(data)
    runs = scan(self._matcher)
    if not runs:
        return runs
    protected = scan(self._strong)
    if subtract(runs, protected):
        source = scan(self._source)
        if source:
            protected = union(protected, subtract(source, scan(self._library)))
        if scan(self._listing):
            for kind in listing():
                protected = union(protected, scan(kind))
    quoted = scan(self._quoted)
    return subtract(protected, quoted) if quoted else protected


def old_scans(self: MustKeepClassifier, data: bytes) -> object:
    """The scans without the search for the rare kinds together: each kind scanned."""
    from tooldeck.filters import must_keep

    return must_keep._Scans(data)


def _with_old_classified(action: Callable[[], object]) -> object:
    with (
        mock.patch.object(MustKeepClassifier, "_classified", old_classified),
        mock.patch.object(MustKeepClassifier, "_scans", old_scans),
    ):
        return action()


# ---- random texts ---------------------------------------------------------------------------

# spaces of every kind, digits of two scripts, the characters the patterns cut or look behind
shape_chars = st.sampled_from(
    [*" \t\f\v\r\x1c\u00a0\u2003\u2028\x85:[(]).=-_#─a79٣é✕\n",
     "::", "  ", "         ", "\t" * 9, "ab", "x::y", "a[1]", "f(2)", "10"]
)
shape_texts = st.lists(shape_chars, max_size=60).map("".join)


@settings(max_examples=1500, deadline=None)
@given(shape_texts)
def test_line_shapes_equal_previous(text: str) -> None:
    assert line_shapes(text) == old_line_shapes(text)


NOISE = [r"^\s*$", r"^\s*Compiling ", r"^npm warn", r"warn", r"^\s+at ", r"^\s*-->", r"[0-9]{3}"]

log_lines = st.sampled_from(
    [
        "",
        "   Compiling serde v1.0.1",
        "npm warn deprecated x@1.0.0: unsupported",
        "npm warn error: here:",
        "warning: unused variable: `x`",
        "  --> src/module_1.rs:10:7",
        "    at run (app.js:1:2)",
        "    at run (node_modules/x/y.js:1:2)",
        "error[E0308]: mismatched types",
        "test tests::case_1 ... FAILED",
        "=====",
        "  ===== title",
        "tests/a.py::t[1] PASSED",
        "Downloading 123 files",
        "\u00a0",
        "   ",
    ]
)
log_texts = st.lists(log_lines, max_size=120).map("\n".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(NOISE), min_size=1, max_size=3), log_texts)
def test_strip_noise_equals_previous(patterns: list[str], raw: str) -> None:
    strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": patterns})
    assert strategy.apply(raw, 1) == old_strip_noise(patterns, raw)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(log_texts)
def test_fallback_equals_previous(raw: str) -> None:
    strategy = default_strategy_registry().build({"type": "fallback"})
    assert strategy.apply(raw, 1) == old_fallback(raw)


# ---- every corpus output --------------------------------------------------------------------

def _differing(same: Callable[[str], bool]) -> Iterator[tuple[str, str]]:
    """``(half, path)`` of each corpus output on which ``same`` fails."""
    for case in corpus().load_cases():
        if not same(case.text):
            yield case.half, case.relative


def _assert_none_differ(same: Callable[[str], bool]) -> None:
    differing = list(_differing(same))
    tune = [path for half, path in differing if half == corpus().TUNE]
    held_back = len(differing) - len(tune)
    # tune outputs are named; held-back ones only counted
    assert (tune, held_back) == ([], 0), f"tune: {tune}; held-back: {held_back} outputs"


def test_line_shapes_equal_previous_on_the_corpus() -> None:
    _assert_none_differ(lambda raw: line_shapes(sanitize_output(raw)) ==
                        old_line_shapes(sanitize_output(raw)))


def test_strip_noise_equals_previous_on_the_corpus() -> None:
    strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": NOISE})
    _assert_none_differ(lambda raw: strategy.apply(raw, 1) == old_strip_noise(NOISE, raw))


def test_fallback_equals_previous_on_the_corpus() -> None:
    strategy = default_strategy_registry().build({"type": "fallback"})
    _assert_none_differ(lambda raw: strategy.apply(raw, 1) == old_fallback(raw))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.integers(min_value=1, max_value=7))
def test_line_data_encoded_piece_by_piece_equals_one_encoding(text: str, chunk: int) -> None:
    # pieces cut between any two characters, lone surrogates included (surrogatepass)
    from tooldeck.filters import line_view

    with mock.patch.object(line_view, "_ENCODE_CHUNK", chunk):
        assert b"".join(line_view.line_data_pieces(text)) == as_line_data(text)
        assert line_view.line_data(text) == as_line_data(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "bb", "noise", "keep é"]), max_size=30),
       st.data(), st.integers(min_value=1, max_value=9))
def test_cut_in_place_equals_cut_spans(lines: list[str], data: st.DataObject, chunk: int) -> None:
    from tooldeck.filters import noise_cut

    text = as_line_data("\n".join(lines))
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode()) + 1)
    chosen = data.draw(st.lists(st.booleans(), min_size=len(lines), max_size=len(lines)))
    spared = data.draw(st.lists(st.booleans(), min_size=len(lines), max_size=len(lines)))
    removed = [(starts[i], starts[i + 1]) for i, yes in enumerate(chosen) if yes]
    protected = [(starts[i], starts[i + 1]) for i, yes in enumerate(spared) if yes]
    expected, count = cut_spans(text, removed, protected)
    buffer = bytearray(text)
    with mock.patch.object(noise_cut, "_MOVE_CHUNK", chunk):
        assert noise_cut._cut_in_place(buffer, removed, protected) == count
    assert bytes(buffer) == bytes(expected)


def old_subtract(spans: list[tuple[int, int]],
                 removed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    result: list[tuple[int, int]] = []
    cursor = 0
    for start, end in spans:
        while cursor < len(removed) and removed[cursor][1] <= start:
            cursor += 1
        probe = cursor
        while probe < len(removed) and removed[probe][0] < end:
            cut_start, cut_end = removed[probe]
            if cut_start > start:
                result.append((start, cut_start))
            start = max(start, cut_end)
            probe += 1
        if start < end:
            result.append((start, end))
    return result


def old_intersect(first: list[tuple[int, int]],
                  second: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(first) and j < len(second):
        start = max(first[i][0], second[j][0])
        end = min(first[i][1], second[j][1])
        if start < end:
            out.append((start, end))
        if first[i][1] < second[j][1]:
            i += 1
        else:
            j += 1
    return out


def _spans(cuts: list[int]) -> list[tuple[int, int]]:
    """Sorted, non-overlapping spans from increasing cut points (every other gap)."""
    points = sorted(set(cuts))
    return [(points[i], points[i + 1]) for i in range(0, len(points) - 1, 2)]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=20), st.lists(st.integers(0, 60), max_size=20))
def test_span_arithmetic_equals_previous(first_cuts: list[int], second_cuts: list[int]) -> None:
    from tooldeck.filters.spans import intersect

    first, second = _spans(first_cuts), _spans(second_cuts)
    assert subtract(first, second) == old_subtract(first, second)
    assert intersect(first, second) == old_intersect(first, second)


# ---- the classifier scanning kind by kind ---------------------------------------------------

def _tune_lines() -> list[str]:
    """Distinct lines of the tune half's outputs (the held-back half is not read line by line)."""
    seen: dict[str, None] = {}
    for case in corpus().load_cases():
        if case.half == corpus().TUNE:
            for line in sanitize_output(case.text).split("\n")[:400]:
                seen.setdefault(line[:300], None)
    return list(seen)


_TUNE_LINES = st.deferred(lambda: st.sampled_from(_tune_lines_cached()))


@functools.lru_cache(maxsize=1)
def _tune_lines_cached() -> list[str]:
    return _tune_lines()


tune_texts = st.lists(st.one_of(_TUNE_LINES, log_lines), max_size=80).map("\n".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tune_texts)
def test_classified_kind_by_kind_equals_previous(text: str) -> None:
    classifier = must_keep_classifier()
    data = as_line_data(text)
    new = (classifier.line_runs(data), must_keep_line_numbers(text),
           classifier.line_runs_within(data, [(0, len(data))]))
    old = _with_old_classified(lambda: (classifier.line_runs(data), must_keep_line_numbers(text),
                                        classifier.line_runs_within(data, [(0, len(data))])))
    assert new == old


def test_classified_kind_by_kind_equals_previous_on_the_corpus() -> None:
    classifier = must_keep_classifier()

    def runs(raw: str) -> object:
        data = as_line_data(sanitize_output(raw))
        return classifier.line_runs(data)

    _assert_none_differ(lambda raw: runs(raw) == _with_old_classified(lambda: runs(raw)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(NOISE), min_size=1, max_size=3), log_texts)
def test_any_line_is_whether_there_are_runs(patterns: list[str], raw: str) -> None:
    matcher = LineMatcher(patterns)
    data = as_line_data(sanitize_output(raw))
    assert matcher.any_line(data) == bool(matcher.line_runs(data))


def test_the_rare_kinds_are_scanned_when_one_of_them_is_there() -> None:
    # a quoted line (pytest's "E   + where") among errors: the search finds it, the scans run
    classifier = must_keep_classifier()
    data = as_line_data("error: one\nE       +  where 3 = f()\nerror: two")
    scans = classifier._scans(data)
    assert scans(classifier._quoted) == [(11, 36)]
    assert scans(classifier._listing) == []
