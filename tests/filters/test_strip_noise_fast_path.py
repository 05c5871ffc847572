"""Hypothesis: the one-scan ``strip_noise`` path and the sanitizer equal the previous code.

The reference for ``strip_noise`` is the two-scan path the library still keeps as its fallback
(noise runs from :meth:`LineMatcher.line_runs`, then
:meth:`MustKeepClassifier.line_runs_within` over them); the runs of the one-scan path are
compared with the library's per-line path; the sanitizer's reference is the library's own with
the previous blank-line pattern put back.
"""

from __future__ import annotations

import re
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.filters import sanitize
from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import lost_must_keep_lines, must_keep_classifier
from tooldeck.filters.omissions import noise_notice
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.registry import default_strategy_registry
from tooldeck.filters.sanitize import sanitize_output
from tooldeck.filters.selection import as_line_data, cut_spans, from_line_data, subtract
from tooldeck.filters.strategy import StageResult

# ---- the references -------------------------------------------------------------------------

# The blank-line pattern before its branches were reordered; everything else of the sanitizer
# is unchanged, so the previous sanitizer is the library's with this pattern put back.
_OLD_BLANK_LINES_AFTER_CONTENT = re.compile(r"\n[ \t\f\v]*\n(?:[ \t\f\v]*\n)+|\n[ \t\f\v]+\n")


def old_sanitize_output(text: str) -> str:
    with mock.patch.object(sanitize, "_BLANK_LINES_AFTER_CONTENT", _OLD_BLANK_LINES_AFTER_CONTENT):
        return sanitize_output(text)


def old_strip_noise(noise: LineMatcher, raw: str) -> tuple[str, FilterConfidence]:
    """The two-scan path: noise runs, then the must-keep lines inside them."""
    clean = sanitize_output(raw)
    if not clean:
        return clean, FilterConfidence.FALLBACK
    data = as_line_data(clean)
    runs = noise.line_runs(data)
    protected = must_keep_classifier().line_runs_within(data, runs) if runs else []
    kept_data, removed = cut_spans(data, runs, protected)
    if not removed:
        return clean, FilterConfidence.FALLBACK
    kept = from_line_data(kept_data)
    dropped = subtract(runs, protected)
    first = next((line for start, end in dropped
                  for line in from_line_data(data[start:end]).split("\n") if line.strip()), "")
    marker = noise_notice(removed, first)
    return (f"{kept}\n{marker}" if kept else marker), FilterConfidence.FULL


# ---- generators ------------------------------------------------------------------------------

NOISE_PATTERN_CHOICES = [
    r"^\s*$",
    r"^$",
    r"^\s*Compiling ",
    r"^npm warn",
    r"^test \S+ \.\.\. ok$",
    r"error",  # noise that is also must-keep
    r"^\s*-->",  # noise on location lines (followers)
    r"^\s+at ",
    r"(?i)fail",
    r"x\z",
    r"[^a-z]{3}",
    r"é|✕",
    r"\bok\b",
    r"^ ---> [a-f0-9]+$",
]

LINES = [
    "",
    " ",
    "\t",
    "  \f ",
    "   Compiling serde v1.0.1",
    "npm warn deprecated x@1.0.0: unsupported",
    "npm warn error here",
    "test tests::case_1 ... ok",
    "test tests::case_2 ... FAILED",
    "test error_case ... ok",
    "error[E0308]: mismatched types",
    "warning: unused variable: `x`",
    "  --> src/module_1.rs:10:7",
    "  --> src/error.rs:3:1",
    "    at run (app.js:1:2)",
    "at x:1",
    "   = note: `#[warn(unused_variables)]` on by default",
    "Traceback (most recent call last):",
    '  File "a.py", line 3, in f',
    "E   assert 1 == 2",
    "✕ renders",
    "\u00d7 fails",
    "héllo wörld",
    "ok",
    "xx",
    " ---> 3f2a",
    "Step 1/4 : FROM x",
    "\x1b[31merror\x1b[0m: red",
    "\x1b[1mCompiling\x1b[0m bold",
    "progress 10%\rprogress 100%",
    "line\r",
    "FAILED",
    "12-34",
]

line_text = st.one_of(
    st.sampled_from(LINES),
    st.text(alphabet=st.sampled_from(list("ae rx-:>\t\r\x1b[m0é✕E")), max_size=12),
)
raw_texts = st.builds(
    lambda lines, newline: "\n".join(lines) + ("\n" if newline else ""),
    st.lists(line_text, max_size=40),
    st.booleans(),
)
pattern_lists = st.lists(st.sampled_from(NOISE_PATTERN_CHOICES), min_size=1, max_size=4)


# ---- properties ------------------------------------------------------------------------------


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw_texts)
def test_sanitize_equals_previous(raw: str) -> None:
    assert sanitize_output(raw) == old_sanitize_output(raw)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("\n \t\f\v\r\x1ba[m")), max_size=40))
def test_sanitize_equals_previous_on_whitespace(raw: str) -> None:
    assert sanitize_output(raw) == old_sanitize_output(raw)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern_lists, raw_texts)
def test_strip_noise_equals_previous(patterns: list[str], raw: str) -> None:
    strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": patterns})
    expected_text, expected_confidence = old_strip_noise(LineMatcher(patterns), raw)
    assert strategy.apply(raw, 1) == StageResult(expected_text, expected_confidence)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern_lists, raw_texts)
def test_runs_with_stops_equal_two_scans(patterns: list[str], raw: str) -> None:
    clean = sanitize_output(raw)
    data = as_line_data(clean)
    noise = LineMatcher(patterns)
    classifier = must_keep_classifier()
    scanned = noise.runs_with_stops(data, classifier.matcher)
    assert scanned is not None
    runs, stops = scanned
    assert runs == noise.line_runs(data)
    expected_stops = [
        (start, end)
        for start, end in classifier.matcher.line_runs(data)
        for start, end in _lines(data, start, end)
        if any(run_start <= start < run_end for run_start, run_end in runs)
    ]
    assert [(start, end) for start, end, _ in stops] == expected_stops
    for start, _, run_end in stops:
        assert any(run_start <= start < end == run_end for run_start, end in runs)
    slow_path = classifier.line_runs_within(data, runs)
    assert classifier.line_runs_within_found(data, runs, stops) == slow_path


def _lines(data: bytes, start: int, end: int) -> list[tuple[int, int]]:
    lines: list[tuple[int, int]] = []
    while start < end:
        after = data.index(b"\n", start) + 1
        lines.append((start, after))
        start = after
    return lines


def test_unconfinable_patterns_take_the_previous_path() -> None:
    noise = LineMatcher([r"(?s)a.b", "^noise"])
    data = b"noise\na\nerror: x\n"
    assert noise.runs_with_stops(data, must_keep_classifier().matcher) is None
    strategy = default_strategy_registry().build(
        {"type": "strip_noise", "patterns": [r"(?s)a.b", "^noise"]}
    )
    expected = 'error noise\nkeep\n(1 noise lines removed, like "noise")'
    assert strategy.apply("noise\nerror noise\nkeep").output == expected


def test_stop_patterns_matching_an_empty_line_find_the_empty_lines_inside_runs() -> None:
    # (the previous one-automaton path could not take them; the bounded search can: an empty
    # line just past a run is not inside it)
    noise = LineMatcher(["^x", "^$"])
    for data, runs, stops in [
        (b"x\n\nx\ny\n\n", [(0, 5), (7, 8)], [(2, 3, 5), (7, 8, 8)]),
        (b"x\ny\n\nz\n", [(0, 2), (4, 5)], [(4, 5, 5)]),
    ]:
        scanned = noise.runs_with_stops(data, LineMatcher(["^$"]))
        assert scanned is not None
        assert (scanned[0], list(scanned[1])) == (runs, stops)
        # the lines are a sequence: by index, by slice, counted
        found = scanned[1]
        assert (len(found), found[0], found[-1], found[1:]) == (len(stops), stops[0],
                                                                 stops[-1], stops[1:])


def test_noise_must_keep_lines_and_their_locations_stay() -> None:
    strategy = default_strategy_registry().build(
        {"type": "strip_noise", "patterns": [r"^\s*$", "error", r"^\s*-->", "^noise"]}
    )
    # a location arrow after an error stays; one into a dependency, alone, is noise
    raw = (
        "noise\nerror: a\n  --> src/a.rs:1:2\nnoise\n\n\nkeep\n"
        "  --> /root/.cargo/registry/src/b.rs:2:3\nnoise"
    )
    result = strategy.apply(raw)
    assert result.output == (
        'error: a\n  --> src/a.rs:1:2\nkeep\n(5 noise lines removed, like "noise")'
    )
    assert result.confidence is FilterConfidence.FULL


# ---- the anchored next-line search, stop lines at run edges, byte offsets ≠ char offsets -----

EDGE_LINES = [
    "",
    " ",
    "\t\f",
    "noise",
    "noise é✕",
    "noise error",  # noise and must-keep
    "error: é",  # must-keep only
    "  --> src/é.rs:1:2",  # a location line (follower)
    "    at f (x.js:1:2)",
    "✕ fails",
    "héllo",
    "keep",
]
EDGE_PATTERNS = [
    r"^noise",
    r"^\s*$",
    r"é",
    r"^\s*-->",
    r"error",
    r"^$",
    r"✕",
    r"^(noise|keep)",
    r"(é)\S",
]

edge_texts = st.builds(
    lambda lines, newline: "\n".join(lines) + ("\n" if newline else ""),
    st.lists(st.sampled_from(EDGE_LINES), max_size=30),
    st.booleans(),
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(EDGE_PATTERNS), min_size=1, max_size=3), edge_texts)
def test_line_runs_equal_line_by_line_matching(patterns: list[str], raw: str) -> None:
    clean = sanitize_output(raw)
    data = as_line_data(clean)
    noise = LineMatcher(patterns)
    expected = noise._line_runs_one_by_one(data)  # the library's per-line path
    assert noise.line_runs(data) == expected
    scanned = noise.runs_with_stops(data, must_keep_classifier().matcher)
    assert scanned is not None
    assert scanned[0] == expected


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(EDGE_PATTERNS), min_size=1, max_size=3), edge_texts)
def test_strip_noise_on_edge_lines_equals_previous(patterns: list[str], raw: str) -> None:
    strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": patterns})
    expected_text, expected_confidence = old_strip_noise(LineMatcher(patterns), raw)
    assert strategy.apply(raw, 1) == StageResult(expected_text, expected_confidence)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["", " ", "\t", "\f", "\v", " \t ", "a", "é", "\r", "x\r", "\x1b[0m"]),
        max_size=25,
    ).map("\n".join)
)
def test_sanitize_blank_runs_equal_previous(raw: str) -> None:
    assert sanitize_output(raw) == old_sanitize_output(raw)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(EDGE_PATTERNS), min_size=1, max_size=3), edge_texts)
def test_strip_noise_on_edge_lines_loses_no_must_keep_line(patterns: list[str],
                                                           raw: str) -> None:
    strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": patterns})
    output = strategy.apply(raw, 1).output
    assert lost_must_keep_lines(sanitize_output(raw), output) == []


def test_a_location_chain_after_a_must_keep_line_stays() -> None:
    """A location line following another location line of a must-keep line is kept (the
    second link of the chain used to be dropped when it alone was noise)."""
    raw = "noise error\n    at f (x.js:1:2)\n  --> src/é.rs:1:2\n  --> src/é.rs:3:4\né"
    strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": ["é"]})
    assert strategy.apply(raw, 1).output == (
        "noise error\n    at f (x.js:1:2)\n  --> src/é.rs:1:2\n  --> src/é.rs:3:4\n"
        '(1 noise lines removed, like "é")'
    )
