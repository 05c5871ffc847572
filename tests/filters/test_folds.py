"""Near-identical runs and repeated blocks: what is folded, what never is, and the counts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.filters.folds import BLOCKS, RUN, fold_repeats, folded_lines, line_shape
from tooldeck.filters.must_keep import must_keep_line_numbers

SAME_SHAPE = [
    ("Processed 12 items", "Processed 3401 items"),  # numbers
    ("object 0x7f3a2c1b0e50 freed", "object 0x55d0aa12 freed"),  # hex ids
    ("commit 3f9a2b71c0 applied", "commit e41d0c98ab applied"),  # hashes
    ("step done in 0.32s", "step done in 12ms"),  # durations
    ("Downloading idna (66 kB)", "Downloading idna (1.2 MB)"),  # sizes
    ("compiled src/app/models.py", "compiled lib/x.py"),  # paths
    ("using toolchain v1.2.3", "using toolchain 10.0.1-rc2"),  # versions
    ("2024-05-01T10:22:03Z request served", "2025-12-31 23:59:59 request served"),  # stamps
    ("progress 45%", "progress 100%"),  # percentages
]


@pytest.mark.parametrize(("left", "right"), SAME_SHAPE)
def test_lines_differing_only_by_particulars_share_a_shape(left: str, right: str) -> None:
    assert line_shape(left) == line_shape(right)


@pytest.mark.parametrize(
    ("left", "right"),
    [("Processed 12 items", "Skipped 12 items"), ("done in 3s", "failed in 3s"),
     ("compiled src/a.py", "removed src/a.py")],
)  # fmt: skip
def test_lines_saying_other_words_have_other_shapes(left: str, right: str) -> None:
    assert line_shape(left) != line_shape(right)


def _steps(count: int) -> list[str]:
    return [f"step {n}: visited node {n}" for n in range(count)]


def test_a_run_keeps_its_first_line_and_counts_the_others() -> None:
    lines = ["Resolving", *_steps(RUN), "done"]
    assert folded_lines(lines, ()) == set(range(2, 2 + RUN - 1))
    shorter = ["Resolving", *_steps(RUN - 1), "done"]
    assert folded_lines(shorter, ()) == set()


def test_a_protected_line_inside_a_run_is_never_folded() -> None:
    lines = _steps(10)
    assert folded_lines(lines, {5}) == set(range(1, 10)) - {5}


@pytest.mark.parametrize("size", range(2, 7))
def test_a_block_repeated_keeps_its_first_occurrence(size: int) -> None:
    block = [f"part{chr(97 + part)} of item {{n}}" for part in range(size)]
    lines = ["head", *(line.format(n=n) for n in range(BLOCKS) for line in block), "tail"]
    assert folded_lines(lines, ()) == set(range(1 + size, 1 + size * BLOCKS))
    twice = ["head", *(line.format(n=n) for n in range(BLOCKS - 1) for line in block), "tail"]
    assert folded_lines(twice, ()) == set()


def test_a_block_per_file_is_shown_once_with_the_count_of_the_others() -> None:
    blocks = [
        line
        for n in range(30)
        for line in (f"Checking src/mod{n}.py", f"  parsed {n * 40} lines in {n + 2} ms",
                     f"  cached as {n * 7919:08x}")
    ]  # fmt: skip
    text = "\n".join(["Checking the project", *blocks, "all modules checked"])
    assert must_keep_line_numbers(text) == set()  # nothing protected: all folding is ours
    assert fold_repeats(text).split("\n") == [
        "Checking the project",
        *blocks[:3],
        '… 87 lines omitted, like "Checking …"',
        "all modules checked",
    ]


def test_nothing_repeated_is_returned_as_it_is() -> None:
    text = "alpha\nbeta 1\ngamma 2\n\ndelta"
    assert fold_repeats(text) is text


_OMITTED = re.compile(r'^… (\d+) lines? (?:like "[^"]*" omitted|omitted, like "[^"]*")$')

_FRAGMENTS = [
    "step 1: ok", "step 22: ok", "Downloading a (3 kB)", "Downloading bb (4 MB)",
    "error: boom at src/a.py:3", "FAILED tests/a.py::t1", "FAILED tests/a.py::t2",
    "warning: unused x", "", "  at f (src/x.js:1:2)", "  at g (src/y.js:4:2)", "plain words",
]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=12)), max_size=60))
def test_folding_keeps_every_protected_line_and_counts_every_other(lines: list[str]) -> None:
    text = "\n".join(lines)
    lines = text.split("\n")
    out = fold_repeats(text).split("\n")
    protected = [lines[index] for index in sorted(must_keep_line_numbers(text))]
    shown = iter(out)
    assert all(any(line == other for other in shown) for line in protected)  # in order
    counted = sum(int(match[1]) for line in out if (match := _OMITTED.match(line)))
    markers = sum(1 for line in out if _OMITTED.match(line) and line not in lines)
    assert len(out) - markers + counted == len(lines)
