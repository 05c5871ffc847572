"""Hypothesis: no strategy raises on arbitrary text, and none loses a must-keep line."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tooldeck.filters.dedup import Dedup
from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.must_keep import lost_must_keep_lines
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.registry import default_strategy_registry
from tooldeck.filters.rules import builtin_rules
from tooldeck.filters.sanitize import sanitize_output
from tooldeck.filters.selection import complement, cut_spans, join_spans, subtract, union

REGISTRY = default_strategy_registry()
SPECS: list[dict[str, Any]] = [
    {"type": "strip_noise", "patterns": [r"^\s*$", "^noise", r"\d{3}"]},
    {"type": "truncate", "max_lines": 6, "head": 2, "tail": 2},
    {"type": "keep_matching", "patterns": ["keep", "->"]},
    {"type": "strip_annotated", "patterns": ["^noise", "Compiling"], "summary_pattern": "^Finished",
     "long_output_threshold": 4, "keep_head": 1, "keep_tail": 1},
    {"type": "test_summary", "max_failures": 1, "truncate_stack_trace": 2},
    {"type": "group_by_rule", "location_pattern": r"-->\s*(.+:\d+)",
     "rule_pattern": r"warn\((\w+)\)"},
    {"type": "git_status"},
    {"type": "git_diff", "max_diff_lines": 5},
    {"type": "dedup", "max_unique_patterns": 2},
    # a match list grouped by file, with thresholds small enough for short texts to be cut
    {"type": "fallback", "output": "listing", "group": r"^([^\s:]*[^\s:\d][^\s:]*):",
     "group_lines": 4, "data_lines": 4, "data_edge": 1, "min_lines": 1, "max_lines": 3},
]  # fmt: skip
STRATEGIES = [REGISTRY.build(spec) for spec in SPECS]

FRAGMENTS = [
    "noise line", "keep this", "error: boom", "ERROR x", "FAILED tests/a.py::t", "panicked at",
    "Traceback (most recent call last):", "E   assert 1 == 2", "Compiling x", "Finished dev",
    "test a ... ok", "test result: ok. 1 passed; 0 failed", "---- t stdout ----", "failures:",
    " M file.py", "?? new.txt", "diff --git a/f b/f", "+added", "-removed", "  --> src/a.rs:1:2",
    "#[warn(unused)]", "2024-01-01T00:00:00Z req 10.0.0.1", "", "   ", "\x1b[31mred\x1b[0m",
    "50%\r100%", "=== 1 failed, 2 passed in 0.1s ===", "--- FAIL: TestX", "✕ adds", "123 abc",
    "a -> b", "Tests:       1 failed, 2 total", "___ test_x ___", "ok  \tpkg\t0.1s",
    "S101 Use of `assert` detected", "   --> src/app/models.py:12:5", "-- Configuring done",
    "==7== Invalid read of size 8", "  Found existing installation: idna 3.4",
    "[INFO] Compiling 12 source files to /x/target", "  --> /root/.cargo/registry/a.rs:1:1",
    "src/a.py:12:    raise ValueError(x)", "src/a.py:13:async def f():", "src/b.py:3:  x = 1",
    "src/b.py:4:5: F401 unused", "src/b.py:9: error: bad",
]  # fmt: skip
line_text = st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=30))
outputs = st.lists(line_text, max_size=40).map("\n".join)
exit_codes = st.sampled_from([None, 0, 1, 101])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=outputs, exit_code=exit_codes)
# found by hypothesis: a colon line followed by a location line once protected the line after
# the location in the whole text but not inside the spans a strategy was about to drop
@example(text="Traceback (most recent call last):\n  --> src/a.rs:1:2\nnoise line",
         exit_code=None)
def test_no_strategy_raises_or_loses_must_keep_lines(text: str, exit_code: int | None) -> None:
    clean = sanitize_output(text)
    for spec, strategy in zip(SPECS, STRATEGIES, strict=True):
        output = strategy.apply(text, exit_code).output
        normalize = strategy.normalize if spec["type"] == "dedup" else None  # type: ignore[attr-defined]
        assert lost_must_keep_lines(clean, output, normalize=normalize) == [], spec["type"]


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=400), exit_code=exit_codes)
def test_strategies_accept_any_unicode(text: str, exit_code: int | None) -> None:
    for strategy in STRATEGIES:
        strategy.apply(text, exit_code)


ENGINE = FilterEngine(builtin_rules(REGISTRY).rules)


def _log_dedup() -> Dedup:
    strategy = next(rule.strategy for rule in ENGINE.rules if rule.name == "log-dedup")
    assert isinstance(strategy, Dedup)
    return strategy


LOG_DEDUP = _log_dedup()
COMMANDS = ["cargo test", "pytest -v", "git status", "git diff", "make", "docker logs x",
            "npm install", "ls", "go test ./...", "npx jest", "ruff check ."]  # fmt: skip


@settings(max_examples=100, deadline=None)
@given(text=outputs, command=st.sampled_from(COMMANDS), exit_code=exit_codes)
def test_engine_keeps_raw_and_must_keep_lines(
    text: str, command: str, exit_code: int | None
) -> None:
    result = ENGINE.apply(command, text, exit_code)
    assert result.raw == text
    dedup = command.startswith("docker logs")
    lost = lost_must_keep_lines(
        sanitize_output(text), result.output, normalize=LOG_DEDUP.normalize if dedup else None
    )
    assert lost == []


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.sampled_from(["", " ", "a", "ab", "b a", "\t", "aa b"]), max_size=12))
def test_whole_text_matching_equals_per_line_matching(lines: list[str]) -> None:
    data = ("\n".join(lines) + "\n").encode() if lines else b""
    patterns = [r"^\s*$", r"a\s+b", r"[^b]$"]
    fast = LineMatcher(patterns)
    slow = LineMatcher([*patterns, r"(?s)zzz"])
    assert fast.line_runs(data) == slow.line_runs(data)


@settings(max_examples=200, deadline=None)
@given(
    flags=st.lists(st.sampled_from([0, 1, 2, 3]), max_size=30),
)
def test_cut_spans_equals_subtract_then_join(flags: list[int]) -> None:
    # each line is removed (bit 1) and/or protected (bit 2)
    data = b"".join(f"line {number}\n".encode() for number in range(len(flags)))
    offsets = [0]
    for number in range(len(flags)):
        offsets.append(offsets[-1] + len(f"line {number}\n"))

    def runs(bit: int) -> list[tuple[int, int]]:
        spans = [(offsets[n], offsets[n + 1]) for n, flag in enumerate(flags) if flag & bit]
        return union(spans, [])

    removed, protected = runs(1), runs(2)
    expected = join_spans(data, complement(subtract(removed, protected), len(data)))
    kept, dropped = cut_spans(data, removed, protected)
    assert kept == expected
    assert dropped == sum(1 for flag in flags if flag == 1)


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=st.characters(codec=None), max_size=60))
def test_engine_accepts_surrogates(text: str) -> None:
    ENGINE.apply("cargo clippy", text + "\udcff\nerror: x", 1)


def reference_sanitize(text: str) -> str:
    """Zeph's sanitize_output, line by line, as the specification of ours (wider escapes)."""
    text = re.sub(
        r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]",
        "",
        text,
    )
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    out: list[str] = []
    previous_blank = False
    for line in lines:
        line = line.removesuffix("\r")
        line = line.rsplit("\r", 1)[-1]
        blank = line.strip(" \t\f\v") == ""
        if blank and previous_blank:
            continue
        out.append("" if blank else line)
        previous_blank = blank
    return "\n".join(out)


@settings(max_examples=500, deadline=None)
@given(
    text=st.lists(
        st.sampled_from(["a", "b c", "", " ", "\t", "\r", "x\ry", "\x1b[1m", "\x1b(B", " z "]),
        max_size=12,
    ).map("\n".join)
    | st.text(alphabet=" \t\r\nab\x1b[m", max_size=30)
)
def test_sanitize_matches_the_line_by_line_specification(text: str) -> None:
    assert sanitize_output(text) == reference_sanitize(text)


DIFF_LINES = ["-old", "+new", " context", "-error: removed", "+    raise ValueError(x)",
              "ERROR: a.py Imports are incorrectly sorted", ""]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(
    files=st.lists(
        st.lists(st.lists(st.sampled_from(DIFF_LINES), min_size=1, max_size=30),
                 min_size=1, max_size=3),
        min_size=5, max_size=30,
    ),
    git=st.booleans(),
)
def test_a_cut_diff_keeps_every_file_name_and_protected_line_in_order(
    files: list[list[list[str]]], git: bool
) -> None:
    lines: list[str] = []
    for number, hunks in enumerate(files):
        if git:
            lines.append(f"diff --git a/m{number}.py b/m{number}.py")
        lines += [f"--- a/m{number}.py", f"+++ b/m{number}.py"]
        for hunk in hunks:
            lines += ["@@ -1,9 +1,9 @@", *hunk]
    text = "\n".join(lines)
    strategy = REGISTRY.build({"type": "fallback"})
    out = strategy.apply(text, 1).output.split("\n")
    names = [line for line in lines if line.startswith(("--- a/", "+++ b/"))]
    assert [line for line in out if line.startswith(("--- a/", "+++ b/"))] == names
    assert lost_must_keep_lines(sanitize_output(text), "\n".join(out)) == []
