"""The generic fallback, file views shown exactly, and diffs cut only between hunks."""

from __future__ import annotations

import pytest

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.engine import FilterEngine, is_file_view
from tooldeck.filters.fallback import FallbackParams
from tooldeck.filters.registry import default_strategy_registry
from tooldeck.filters.rules import Rule

FILE = "\n".join(
    ["def main():", "    x = 1", "", "", "", "    return x"]
    + [f"    line_{n} = {n}" for n in range(200)]
)


@pytest.mark.parametrize(
    "command",
    [
        "cat src/app.py",
        "head -n 300 src/app.py",
        "tail -n 300 src/app.py",
        "sed -n 1,300p src/app.py",
        "nl -ba src/app.py",
        "git show HEAD:src/app.py",
        "cd repo && git --no-pager show main:src/app.py",
        "less src/app.py",
    ],
)
def test_a_file_view_comes_back_exactly(rules: tuple[Rule, ...], command: str) -> None:
    result = FilterEngine(rules).apply(command, FILE + "\n", 0)
    assert result.output == FILE  # blank lines and leading whitespace are content
    assert result.stats_line is None and result.confidence is None


@pytest.mark.parametrize(
    ("argv", "view"),
    [
        (["sed", "-n", "5,9p", "f"], True),
        (["sed", "-i", "-n", "s/a/b/", "f"], False),
        (["sed", "s/a/b/", "f"], False),
        (["git", "show", "HEAD"], False),
        (["git", "show", "HEAD~1:README.md"], True),
        (["cat"], True),
        ([], False),
    ],
)
def test_is_file_view(argv: list[str], view: bool) -> None:
    assert is_file_view(argv) is view


def test_runs_of_one_shape_fold_with_an_exact_count(rules: tuple[Rule, ...]) -> None:
    lines = ["Preparing"] + [f"Collecting package{n}>=1.{n}" for n in range(214)] + ["Done."]
    result = FilterEngine(rules).apply("frobnicate install", "\n".join(lines), 0)
    # the first and last lines (as many as fit in 160 characters, four at most) stay
    assert result.output.split("\n") == [
        "Preparing",
        "Collecting package0>=1.0",
        "Collecting package1>=1.1",
        "Collecting package2>=1.2",
        '… 208 lines like "Collecting …" omitted',
        "Collecting package211>=1.211",
        "Collecting package212>=1.212",
        "Collecting package213>=1.213",
        "Done.",
    ]
    assert result.confidence is FilterConfidence.FALLBACK


def test_a_long_middle_is_elided_around_protected_lines(rules: tuple[Rule, ...]) -> None:
    lines = [f"{word} {n}" for n, word in enumerate(["alpha", "beta", "gamma", "delta"] * 50)]
    lines[100] = "src/x.py:3: warning: shadowed name"
    output = FilterEngine(rules).apply("frobnicate", "\n".join(lines), 0).output.split("\n")
    assert output[0] == "alpha 0" and output[-1] == "delta 199"
    assert "src/x.py:3: warning: shadowed name" in output
    markers = [line for line in output if line.startswith("… ") and " omitted, like " in line]
    assert sum(int(line.split()[1]) for line in markers) == 200 - (len(output) - len(markers))


def test_the_fallback_never_fires_on_short_outputs() -> None:
    strategy = default_strategy_registry().build({"type": "fallback"})
    short = "\n".join(f"Collecting package{n}" for n in range(20))
    assert strategy.apply(short).output == short
    longer = f"{short}\nCollecting package20"
    assert strategy.apply(longer).output != longer


def diff(files: int, hunk_lines: int) -> str:
    out: list[str] = []
    for f in range(files):
        out += [
            f"diff --git a/f{f}.py b/f{f}.py",
            "index 1..2 100644",
            f"--- a/f{f}.py",
            f"+++ b/f{f}.py",
            f"@@ -1,{hunk_lines} +1,{hunk_lines} @@",
        ]
        out += [f"-    old_{f}_{n}" for n in range(hunk_lines)]
        out += [f"+    new_{f}_{n}" for n in range(hunk_lines)]
    return "\n".join(out)  # fmt: skip


def test_a_small_diff_comes_back_whole(rules: tuple[Rule, ...]) -> None:
    raw = diff(3, 20)  # 135 lines
    assert FilterEngine(rules).apply("git diff", raw, 0).output == raw


def test_a_large_diff_is_cut_between_hunks_and_runs_with_counts(rules: tuple[Rule, ...]) -> None:
    raw = diff(40, 30)
    output = FilterEngine(rules).apply("git --no-pager diff", raw, 0).output.split("\n")
    raw_lines = set(raw.split("\n"))
    markers = [line for line in output if line not in raw_lines]
    assert markers and all(line.startswith("… ") for line in markers)
    assert any("files," in line and "hunks," in line for line in markers)
    assert output[0] == "diff --git a/f0.py b/f0.py" and output[-1] == "+    new_39_29"


def test_one_huge_hunk_keeps_the_ends_of_each_run(rules: tuple[Rule, ...]) -> None:
    raw = diff(1, 1500)
    output = FilterEngine(rules).apply("git diff", raw, 0).output.split("\n")
    for kept in ("-    old_0_0", "-    old_0_1499", "+    new_0_0", "+    new_0_1499"):
        assert kept in output
    assert any(line.startswith("… ") and "removed lines omitted" in line for line in output)
    assert any(line.startswith("… ") and "added lines omitted" in line for line in output)


def test_the_numbers_of_a_closing_summary_are_kept(rules: tuple[Rule, ...]) -> None:
    lines = (
        ["host       requests   p99", "-" * 30]
        + [f"host-{n}    {100 + n}   {n} ms" for n in range(200)]
        + ["WARNING: 3 hosts timed out"]  # a report, not data: its ends are four lines
        + ["-" * 30, "slowest host-7    526   388 ms", "4618 requests served",
           "Report written to latency.csv", "closing remark without digits", "x", "y", "z"]
    )
    kept = FilterEngine(rules).apply("frobnicate report", "\n".join(lines), 0).output
    # the last block (after the ruler) sums up: its lines holding a number stay
    assert "slowest host-7    526   388 ms" in kept.split("\n")
    assert "host-30    130   30 ms" not in kept


def test_a_long_last_block_is_not_a_summary(rules: tuple[Rule, ...]) -> None:
    rows = FallbackParams().data_lines + 200
    lines = ["start"] + [f"row {n} of the table" for n in range(rows)]
    kept = FilterEngine(rules).apply("frobnicate report", "\n".join(lines), 0).output
    assert f"row {rows - 50} of the table" not in kept


def test_a_failed_command_no_rule_knows_keeps_its_ends_wide_up_to_150_lines(
    rules: tuple[Rule, ...],
) -> None:
    # the words a tool states its failure in may be known to no protected kind
    steps = [f"step {n}: visited node {n} in {n * 3} ms" for n in range(120)]
    lines = ["Resolving the graph", *steps, "error: the graph has a cycle through node 7"]
    lines += ["node 7 reaches itself through 3 and 5", "aborting the walk"]
    engine = FilterEngine(rules)
    failed = engine.apply("frobnicate build", "\n".join(lines), 2)
    assert failed.output.split("\n") == [
        *lines[:8],  # (UNKNOWN_FAILURE_EDGES: 8 first lines, 20 last, 2,000 characters each)
        '… 96 lines like "step …" omitted',
        *lines[-20:],
    ]
    assert failed.confidence is FilterConfidence.FALLBACK
    # the same output of a run that succeeded is a report: four lines at each end
    succeeded = engine.apply("frobnicate build", "\n".join(lines), 0).output
    assert "step 110: visited node 110 in 330 ms" not in succeeded
    assert "node 7 reaches itself through 3 and 5" in succeeded
    # longer, a failure is reduced as a report too
    longer = lines + [f"step {n}: visited node {n}" for n in range(200, 260)]
    failed_long = engine.apply("frobnicate build", "\n".join(longer), 2).output
    assert "node 7 reaches itself through 3 and 5" not in failed_long


def test_a_failed_command_no_rule_knows_that_reads_as_data_is_shown_whole(
    rules: tuple[Rule, ...],
) -> None:
    lines = [f"{chr(97 + n % 26) * (n % 7 + 1)} said {'once ' * (n % 5)}here" for n in range(60)]
    raw = "\n".join(lines) + "x" * 2048
    result = FilterEngine(rules).apply("frobnicate build", raw, 2)
    assert (result.output, result.confidence) == (raw, None)


@pytest.mark.parametrize("group", ["^[a-z]+:", "^(a+"])
def test_a_group_pattern_must_be_re2_with_a_capture_group(group: str) -> None:
    with pytest.raises(ValueError, match="group pattern"):
        default_strategy_registry().build({"type": "fallback", "group": group})


def test_a_search_s_hits_are_data_whatever_their_text_says(rules: tuple[Rule, ...]) -> None:
    hits = [f"src/app/mod{n}.py:{n * 7 + 1}:    raise ValueError('bad {n}')  # error path"
            for n in range(60)]
    hits[10:10] = ["src/app/mod9.py-64-    def helper():", "--"]
    raw = "\n".join(hits)
    result = FilterEngine(rules).apply("search-tool -rn ValueError src", raw, 0)
    assert (result.output, result.confidence) == (raw, None)  # a listing, shown whole
    # the same lines as a report's middle (fewer than nine in ten of its lines) are cut
    report = "\n".join(["Running the checks"] + [f"check {n} done in {n} ms" for n in range(60)]
                       + hits[:20] + ["error: 20 checks failed"])
    cut = FilterEngine(rules).apply("search-tool --check src", report, 0).output
    assert "check 30 done in 30 ms" not in cut
