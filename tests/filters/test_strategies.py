"""Zeph §4.2: every strategy row, plus our faithfulness additions (counts, must-keep lines)."""

from __future__ import annotations

from typing import Any

import pytest

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.group_by_rule import is_cargo_noise
from tooldeck.filters.strategy import Strategy, StrategyConfigError, StrategyRegistry

FULL, PARTIAL, FALLBACK = FilterConfidence.FULL, FilterConfidence.PARTIAL, FilterConfidence.FALLBACK
CLIPPY = {
    "type": "group_by_rule",
    "location_pattern": r"^\s*-->\s*(.+:\d+)",
    "rule_pattern": r"#\[warn\(([^)]+)\)\]",
}


def build(registry: StrategyRegistry, **spec: Any) -> Strategy[Any]:
    return registry.build(spec)


def savings(raw: str, out: str) -> float:
    return (1 - len(out) / len(raw)) * 100


# --- strip_noise ---------------------------------------------------------------------------


def test_strip_noise_removes_noise_and_counts_it(registry: StrategyRegistry) -> None:
    strategy = build(registry, type="strip_noise", patterns=[r"^noise:", r"^\s*$"])
    raw = "noise: ignore this\nkeep this\nnoise: also ignore\nkeep too"
    result = strategy.apply(raw)
    assert result.confidence is FULL
    assert result.output == (
        'keep this\nkeep too\n(2 noise lines removed, like "noise: ignore this")'
    )


def test_strip_noise_without_match_is_fallback_and_unchanged(registry: StrategyRegistry) -> None:
    result = build(registry, type="strip_noise", patterns=["^NOMATCH"]).apply("line one\nline two")
    assert (result.confidence, result.output) == (FALLBACK, "line one\nline two")


def test_strip_noise_matches_after_ansi_is_stripped(registry: StrategyRegistry) -> None:
    result = build(registry, type="strip_noise", patterns=["^noise"]).apply(
        "\x1b[33mnoise\x1b[0m line\nclean line"
    )
    assert result.confidence is FULL
    assert result.output.split("\n")[0] == "clean line"


def test_strip_noise_empty_input_is_fallback(registry: StrategyRegistry) -> None:
    assert build(registry, type="strip_noise", patterns=["x"]).apply("").confidence is FALLBACK


def test_strip_noise_never_drops_an_error_line(registry: StrategyRegistry) -> None:
    strategy = build(registry, type="strip_noise", patterns=[r"^\s*Compiling"])
    result = strategy.apply("Compiling a\nCompiling b failed: error[E0425]\nCompiling c")
    assert result.output == (
        'Compiling b failed: error[E0425]\n(2 noise lines removed, like "Compiling a")'
    )


# --- truncate ------------------------------------------------------------------------------


def lines(count: int) -> str:
    return "\n".join(f"line {number}" for number in range(count))


def test_truncate_short_output_passes(registry: StrategyRegistry) -> None:
    result = build(registry, type="truncate", max_lines=50, head=10, tail=10).apply(lines(3))
    assert (result.confidence, result.output) == (FALLBACK, lines(3))


def test_truncate_keeps_head_and_tail(registry: StrategyRegistry) -> None:
    result = build(registry, type="truncate", max_lines=10, head=3, tail=3).apply(lines(20))
    assert result.confidence is PARTIAL
    kept = result.output.split("\n")
    assert kept[:3] == ["line 0", "line 1", "line 2"]
    assert kept[-3:] == ["line 17", "line 18", "line 19"]
    assert "lines omitted" in result.output
    assert "line 3\n" not in result.output


def test_truncate_states_the_exact_count(registry: StrategyRegistry) -> None:
    result = build(registry, type="truncate", max_lines=10, head=2, tail=2).apply(lines(20))
    assert result.output == "line 0\nline 1\n... (16 lines omitted) ...\n\nline 18\nline 19"


def test_truncate_exactly_at_threshold_is_fallback(registry: StrategyRegistry) -> None:
    result = build(registry, type="truncate", max_lines=10, head=5, tail=5).apply(lines(10))
    assert result.confidence is FALLBACK
    assert "omitted" not in result.output


def test_truncate_empty_input_is_fallback(registry: StrategyRegistry) -> None:
    assert build(registry, type="truncate", max_lines=50).apply("").confidence is FALLBACK


def test_truncate_rejects_head_plus_tail_over_max(registry: StrategyRegistry) -> None:
    with pytest.raises(StrategyConfigError, match="must not exceed"):
        build(registry, type="truncate", max_lines=10, head=8, tail=5)


def test_truncate_defaults_head_and_tail_to_twenty(registry: StrategyRegistry) -> None:
    strategy = build(registry, type="truncate", max_lines=100)
    assert (strategy.params.head, strategy.params.tail) == (20, 20)


def test_truncate_keeps_must_keep_lines_from_the_middle(registry: StrategyRegistry) -> None:
    body = lines(50).split("\n")
    body[25] = "ERROR: disk full"
    result = build(registry, type="truncate", max_lines=10, head=2, tail=2).apply("\n".join(body))
    assert result.output == (
        "line 0\nline 1\n... (23 lines omitted) ...\nERROR: disk full\n"
        "... (22 lines omitted) ...\n\nline 48\nline 49"
    )


# --- keep_matching -------------------------------------------------------------------------

GIT_PUSH = """Enumerating objects: 5, done.
Counting objects: 100% (5/5), done.
Writing objects: 100% (3/3), 300 bytes | 300.00 KiB/s, done.
To github.com:user/repo.git
   abc1234..def5678  main -> main"""


def test_keep_matching_keeps_git_push_lines(registry: StrategyRegistry) -> None:
    result = build(registry, type="keep_matching", patterns=["->", "^To "]).apply(GIT_PUSH)
    assert result.confidence is FULL
    assert "To github.com:user/repo.git" in result.output
    assert "main -> main" in result.output
    assert "Enumerating" not in result.output
    assert result.output.endswith("(3 other lines omitted)")


def test_keep_matching_without_match_is_fallback(registry: StrategyRegistry) -> None:
    result = build(registry, type="keep_matching", patterns=["^NOMATCH"]).apply("a\nb")
    assert (result.confidence, result.output) == (FALLBACK, "a\nb")


# --- strip_annotated -----------------------------------------------------------------------

ANNOTATED = {"type": "strip_annotated", "patterns": [r"^\s*Compiling ", r"^\s*Checking "]}


def test_strip_annotated_removes_noise_and_leads_with_summary(registry: StrategyRegistry) -> None:
    strategy = build(registry, **ANNOTATED, summary_pattern=r"^\s*Finished ")
    raw = "   Compiling a v1\n    Checking b v1\n    Build complete in 1s\nerror: oops"
    strategy = build(registry, **ANNOTATED, summary_pattern=r"^\s*Build complete ")
    result = strategy.apply(raw, 0)
    assert result.confidence is FULL
    assert result.output == (
        'Build complete in 1s\n(3 noise lines removed, like "Compiling a v1")\n\nerror: oops'
    )


def test_strip_annotated_leaves_a_protected_summary_in_place(registry: StrategyRegistry) -> None:
    strategy = build(registry, **ANNOTATED, summary_pattern=r"^\s*Finished ")
    raw = "   Compiling a v1\n    Checking b v1\n    Finished dev in 1s\nerror: oops"
    result = strategy.apply(raw, 0)
    assert result.output == (
        '(2 noise lines removed, like "Compiling a v1")\n\n    Finished dev in 1s\nerror: oops'
    )


def test_strip_annotated_failed_without_noise_passes_raw(registry: StrategyRegistry) -> None:
    raw = "error[E0308]: mismatched types\n --> src/main.rs:4:18"
    result = build(registry, type="strip_annotated", patterns=["^Compiling"]).apply(raw, 1)
    assert (result.confidence, result.output) == (FALLBACK, raw)


def test_strip_annotated_short_clean_output_is_fallback(registry: StrategyRegistry) -> None:
    result = build(registry, type="strip_annotated", patterns=["Compiling"]).apply(
        "short output\nno noise", 0
    )
    assert result.confidence is FALLBACK


def test_strip_annotated_long_output_without_noise_is_truncated(registry: StrategyRegistry) -> None:
    strategy = build(registry, type="strip_annotated", patterns=["^NOISE"])
    result = strategy.apply(lines(40), 0)
    assert result.confidence is PARTIAL
    assert "... (25 lines omitted) ..." in result.output


def test_strip_annotated_summary_pattern_without_summary_line(registry: StrategyRegistry) -> None:
    strategy = build(registry, **ANNOTATED, summary_pattern=r"^\s*Finished ")
    result = strategy.apply("Compiling a\nCompiling b\nerror: build failed", 1)
    assert result.confidence is FULL
    assert result.output == '(2 noise lines removed, like "Compiling a")\n\nerror: build failed'


def test_strip_annotated_head_tail_beyond_kept_lines(registry: StrategyRegistry) -> None:
    strategy = build(
        registry, type="strip_annotated", patterns=["^NOISE"], long_output_threshold=2,
        keep_head=10, keep_tail=5,
    )  # fmt: skip
    result = strategy.apply("NOISE\n" * 10 + "k1\nk2\nk3", 0)
    assert result.confidence is FULL
    assert result.output.endswith("k1\nk2\nk3")


def test_strip_annotated_zero_threshold(registry: StrategyRegistry) -> None:
    strategy = build(
        registry, type="strip_annotated", patterns=["^NOISE"], long_output_threshold=0,
        keep_head=20, keep_tail=20,
    )  # fmt: skip
    result = strategy.apply("NOISE\nNOISE\nNOISE\nonly kept line", 0)
    assert result.confidence is FULL
    assert "only kept line" in result.output


# --- test_summary --------------------------------------------------------------------------

CARGO_OK = """running 3 tests
test filter::tests::sanitize_strips_ansi_codes ... ok
test filter::tests::sanitize_collapses_blank_lines ... ok
test filter::tests::matcher_extracts_last_command ... ok

test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"""

CARGO_FAIL = """running 3 tests
test foo::test_a ... ok
test foo::test_b ... FAILED
test foo::test_c ... ok

failures:

---- foo::test_b stdout ----
thread 'foo::test_b' panicked at src/lib.rs:10:5:
assertion `left == right` failed
  left: 1
 right: 2

failures:
    foo::test_b

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"""


def test_test_summary_passing_run(registry: StrategyRegistry) -> None:
    result = build(registry, type="test_summary").apply(CARGO_OK, 0)
    assert result.confidence is FULL
    assert "3 passed" in result.output and "0 failed" in result.output
    assert "sanitize_strips_ansi_codes" not in result.output
    assert "running 3 tests\n... (3 passing tests, 1 other line omitted) ..." in result.output
    assert savings(CARGO_OK, result.output) > 30


def test_test_summary_failure_block(registry: StrategyRegistry) -> None:
    result = build(registry, type="test_summary").apply(CARGO_FAIL, 1)
    assert "failures:" in result.output
    assert "thread 'foo::test_b' panicked at src/lib.rs:10:5:" in result.output
    assert "1 failed" in result.output


def test_test_summary_unrecognised_output_is_fallback(registry: StrategyRegistry) -> None:
    raw = "some random output with no test results"
    result = build(registry, type="test_summary").apply(raw, 0)
    assert (result.confidence, result.output) == (FALLBACK, raw)


def test_test_summary_caps_failures_and_lines(registry: StrategyRegistry) -> None:
    blocks = "".join(
        f"---- t{n} stdout ----\n" + "".join(f"frame {k}\n" for k in range(5)) for n in range(4)
    )
    raw = f"{blocks}\ntest result: FAILED. 0 passed; 4 failed; 0 ignored; 0 filtered out"
    strategy = build(registry, type="test_summary", max_failures=2, truncate_stack_trace=3)
    output = strategy.apply(raw, 1).output
    assert output.count("---- t") == 2
    assert "... (3 more lines)" in output
    assert "... and 2 more failure(s)" in output


def test_test_summary_knows_a_pytest_heading_too_long_for_the_width(
    registry: StrategyRegistry,
) -> None:
    long_name = "test_report_url_names_the_year[https://api.example.com:8443-123456-2024]"
    raw = (
        "=== FAILURES ===\n"
        "___ test_short ___\n>       assert 1 == 2\nE       assert 1 == 2\n"
        f"_ {long_name} _\n>       assert url.endswith(y)\nE       AssertionError\n"
        "=== 2 failed in 0.12s ==="
    )
    output = build(registry, type="test_summary", max_failures=1).apply(raw, 1).output
    # the long heading (one underscore a side) starts a block of its own, counted as a failure
    assert "... and 1 more failure(s)" in output


def test_test_summary_totals_several_cargo_suites(registry: StrategyRegistry) -> None:
    raw = (
        "test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out\n"
        "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 2 filtered out"
    )
    output = build(registry, type="test_summary").apply(raw, 101).output
    assert output.endswith(
        "test result (all suites): FAILED. 5 passed; 1 failed; 1 ignored; 2 filtered out"
    )


def test_test_summary_nextest_counts(registry: StrategyRegistry) -> None:
    raw = (
        "    PASS [   0.004s] app tests::a\n    PASS [   0.005s] app tests::b\n"
        "    FAIL [   0.006s] app tests::c\n"
        "     Summary [   0.010s] 3 tests run: 2 passed, 1 failed, 0 skipped"
    )
    output = build(registry, type="test_summary").apply(raw, 100).output
    assert "FAIL [   0.006s] app tests::c" in output
    assert "2 passing tests" in output
    assert output.endswith("3 tests run: 2 passed, 1 failed, 0 skipped")


# --- group_by_rule -------------------------------------------------------------------------

CLIPPY_OUT = """warning: this argument is passed by value
  --> src/foo.rs:12:5
   = note: `#[warn(clippy::needless_pass_by_value)]` on by default
warning: this argument is passed by value
  --> src/bar.rs:45:10
   = note: `#[warn(clippy::needless_pass_by_value)]` on by default
warning: unused import
  --> src/main.rs:5:1
   = note: `#[warn(clippy::unused_imports)]` on by default"""


def test_group_by_rule_groups_warnings(registry: StrategyRegistry) -> None:
    result = registry.build(CLIPPY).apply(CLIPPY_OUT, 0)
    assert result.confidence is FULL
    assert "clippy::needless_pass_by_value (2 warnings):" in result.output
    assert "src/foo.rs:12" in result.output
    assert "clippy::unused_imports (1 warning):" in result.output
    assert "3 warnings total (2 rules)\n" in result.output
    # warnings are protected: the grouped view is followed by the warnings themselves
    assert "kept from the unfiltered output ---\nwarning: " in result.output


def test_group_by_rule_failed_build_with_errors_passes(registry: StrategyRegistry) -> None:
    raw = "error[E0308]: mismatched types\n --> src/main.rs:4:18"
    result = registry.build(CLIPPY).apply(raw, 1)
    assert (result.confidence, result.output) == (FALLBACK, raw)


def test_group_by_rule_only_cargo_noise_gives_empty_partial(registry: StrategyRegistry) -> None:
    result = registry.build(CLIPPY).apply(
        "    Checking my-crate v0.1.0\n    Blocking waiting for file lock", 0
    )
    assert (result.confidence, result.output) == (PARTIAL, "")


# --- git_status / git_diff -----------------------------------------------------------------


def test_git_status_short_format(registry: StrategyRegistry) -> None:
    raw = " M src/main.rs\n M src/lib.rs\n?? new_file.txt\nA  added.rs"
    result = build(registry, type="git_status").apply(raw)
    assert result.confidence is FULL
    assert result.output.startswith("M  2 files | A  1 files | D  0 files | ??  1 files\n")
    assert result.output.endswith(raw)  # entries are protected: git's own codes come back


def test_git_status_long_format(registry: StrategyRegistry) -> None:
    raw = (
        "On branch main\nChanges not staged for commit:\n"
        "\tmodified:   src/a.rs\n\tmodified:   src/b.rs\n\tdeleted:    old.rs\n"
    )
    output = build(registry, type="git_status").apply(raw).output
    assert "M  2 files" in output and "D  1 files" in output
    assert output.startswith("On branch main")


def test_git_status_clean_tree_is_fallback(registry: StrategyRegistry) -> None:
    raw = "nothing to commit, working tree clean"
    assert build(registry, type="git_status").apply(raw).confidence is FALLBACK


def test_git_status_lists_files_when_asked(registry: StrategyRegistry) -> None:
    output = build(registry, type="git_status", list_files=5).apply(" M a.py\n?? b.py").output
    assert output.split("\n")[1:3] == ["M  a.py", "??  b.py"]
    assert output.endswith("\n M a.py\n?? b.py")  # and the protected entries as git wrote them


DIFF = """diff --git a/src/main.rs b/src/main.rs
--- a/src/main.rs
+++ b/src/main.rs
@@ -1 +1,2 @@
-old
+new
+more
diff --git a/src/lib.rs b/src/lib.rs
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1 +1,2 @@
+added"""


def test_git_diff_counts(registry: StrategyRegistry) -> None:
    result = build(registry, type="git_diff").apply(DIFF)
    assert result.confidence is FULL
    assert "2 files changed" in result.output
    assert "3 insertions(+)" in result.output and "1 deletions(-)" in result.output


def test_git_diff_empty_is_fallback(registry: StrategyRegistry) -> None:
    assert build(registry, type="git_diff").apply("").confidence is FALLBACK


def test_git_diff_says_when_truncated(registry: StrategyRegistry) -> None:
    raw = "diff --git a/f b/f\n" + "+x\n" * 10
    output = build(registry, type="git_diff", max_diff_lines=5).apply(raw).output
    assert "(truncated from 11 lines)" in output


# --- dedup ---------------------------------------------------------------------------------

LOG = """2024-01-15T12:00:01Z INFO health check ok
2024-01-15T12:00:02Z INFO health check ok
2024-01-15T12:00:03Z INFO health check ok
2024-01-15T12:00:04Z WARN timeout to 10.0.0.1
2024-01-15T12:00:05Z WARN timeout to 10.0.0.2
2024-01-15T12:00:06Z ERROR disk full"""


def test_dedup_collapses_normalised_lines(registry: StrategyRegistry) -> None:
    result = build(registry, type="dedup").apply(LOG)
    assert result.confidence is FULL
    assert "(x3)" in result.output and "(x2)" in result.output
    assert result.output.endswith("3 unique patterns (6 total lines)")
    assert savings(LOG, result.output) > 20


def test_dedup_distinct_lines_are_fallback(registry: StrategyRegistry) -> None:
    result = build(registry, type="dedup").apply("a\nb\nc")
    assert (result.confidence, result.output) == (FALLBACK, "a\nb\nc")


def test_dedup_single_line_is_fallback(registry: StrategyRegistry) -> None:
    assert build(registry, type="dedup").apply("only").confidence is FALLBACK


def test_dedup_cap_states_what_was_omitted(registry: StrategyRegistry) -> None:
    strategy = build(registry, type="dedup", normalize_patterns=[], max_unique_patterns=3)
    result = strategy.apply("a\nb\nc\nd\ne\nf")
    assert result.confidence is FULL
    assert result.output.endswith("(capped at 3; 3 lines of further patterns omitted)")


def test_dedup_cap_never_hides_an_error(registry: StrategyRegistry) -> None:
    strategy = build(registry, type="dedup", normalize_patterns=[], max_unique_patterns=2)
    output = strategy.apply("a\nb\nc\nERROR: d failed\ne").output
    assert "ERROR: d failed" in output


def test_dedup_normalisers(registry: StrategyRegistry) -> None:
    strategy = build(registry, type="dedup")
    line = "2024-01-15T12:00:00Z req=550e8400-e29b-41d4-a716-446655440000 addr=192.168.1.1 pid=1234"
    normalized = strategy.normalize(line)  # type: ignore[attr-defined]
    for token in ("<TS>", "<UUID>", "<IP>", "<N>"):
        assert token in normalized


@pytest.mark.parametrize("replacement", ["$1", "${name}", "a$b"])
def test_dedup_rejects_unescaped_dollar(registry: StrategyRegistry, replacement: str) -> None:
    with pytest.raises(StrategyConfigError, match="unescaped '\\$'"):
        build(
            registry, type="dedup",
            normalize_patterns=[{"pattern": r"\d+", "replacement": replacement}],
        )  # fmt: skip


def test_dedup_accepts_literal_replacement(registry: StrategyRegistry) -> None:
    spec = [{"pattern": r"\d+", "replacement": "<TS>"}, {"pattern": "x", "replacement": "$$"}]
    strategy = build(registry, type="dedup", normalize_patterns=spec)
    assert strategy.normalize("x 12") == "$ <TS>"  # type: ignore[attr-defined]


# --- shared helpers and validation ---------------------------------------------------------


@pytest.mark.parametrize(
    "line", ["   Compiling foo v1.0", "   Finished dev profile", "   Checking foo v1.0"]
)
def test_cargo_noise(line: str) -> None:
    assert is_cargo_noise(line)


@pytest.mark.parametrize("line", ["error[E0308]: mismatched types", "warning: unused import"])
def test_not_cargo_noise(line: str) -> None:
    assert not is_cargo_noise(line)


@pytest.mark.parametrize("strategy_type", ["strip_noise", "keep_matching", "strip_annotated"])
def test_empty_pattern_lists_are_rejected(registry: StrategyRegistry, strategy_type: str) -> None:
    with pytest.raises(StrategyConfigError, match="patterns"):
        build(registry, type=strategy_type, patterns=[])


def test_pattern_of_513_chars_is_rejected(registry: StrategyRegistry) -> None:
    with pytest.raises(StrategyConfigError, match="512"):
        build(registry, type="strip_noise", patterns=["a" * 513])


def test_unknown_parameter_is_rejected(registry: StrategyRegistry) -> None:
    with pytest.raises(StrategyConfigError, match="max_line"):
        build(registry, type="truncate", max_lines=10, max_line=3)
