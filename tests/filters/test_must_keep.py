"""The shared must-keep classifier."""

from __future__ import annotations

import pytest

from tooldeck.filters.must_keep import (
    lost_must_keep_lines,
    must_keep_classifier,
    must_keep_line_numbers,
)
from tooldeck.filters.patterns import LineMatcher, confine_to_line


@pytest.mark.parametrize(
    "line",
    [
        "error[E0308]: mismatched types",
        "src/app.py:5: error: Incompatible return value type",
        "bad.c:4:12: error: 'y' undeclared",
        "ERROR: could not find a version",
        "ValueError: invalid literal for int()",
        "    raise KeyError(key)",
        "Traceback (most recent call last):",
        '  File "/srv/app.py", line 12, in main',
        "E       assert 0.5 == 0.25",
        "FAILED tests/test_calc.py::test_div - assert 0.5 == 0.25",
        "--- FAIL: TestAdd (0.00s)",
        "thread 'main' panicked at src/main.rs:3:5",
        "panic: runtime error: index out of range",
        "fatal: not a git repository",
        "  left: 1",
        "    Expected: 3",
        "Segmentation fault (core dumped)",
        "npm ERR! code ERESOLVE",
        "  ✕ adds numbers (3 ms)",
        "  \u00d7 fails > badly",
        "  ● math \u203a adds numbers",
    ],
)
def test_must_keep_lines(line: str) -> None:
    assert must_keep_classifier().is_must_keep(line)


@pytest.mark.parametrize(
    "line",
    [
        "Found 0 errors in 3 files",  # a summary
        "warning: unused import: `std::fmt`",  # for a linter, warnings are the result
        "    calc_test.go:23: got 3; want 4",  # a failure detail in go's format
        "added 85 packages in 3s",
        "Successfully installed requests-2.32.3",
        "make: Nothing to be done for 'all'.",
        "npm warn EBADENGINE Unsupported engine {",
        "ok  \texample.com/calc\t0.002s",
        "?   \texample.com/cmd\t[no test files]",
        "tests/test_core.py::test_db SKIPPED (requires postgres)",
        " M src/app.py",
        "\tmodified:   src/app.py",
        "a1b2c3d Fix the parser",
        "82 directories, 1961 files",
        "# tests 3",  # TAP's summary
        "success Saved lockfile.",
        "mul(-3,4) = 32727, expected -12",
    ],
)
def test_protected_kinds_of_fact(line: str) -> None:
    assert must_keep_classifier().is_must_keep(line)


@pytest.mark.parametrize(
    "line",
    [
        "   Compiling serde v1.0.190",
        "tests/test_a.py::test_ok PASSED",
        "error_handler.py",
        "Downloading requests-2.32.3.whl",
        "",
    ],
)
def test_ordinary_lines(line: str) -> None:
    assert not must_keep_classifier().is_must_keep(line)


def test_location_after_an_error_is_kept_with_it() -> None:
    text = (
        "noise\nerror[E0425]: cannot find value\n --> src/main.rs:3:5\nnoise\n"
        " --> /root/.cargo/registry/src/index/serde-1.0.190/src/de.rs:1:1"
    )
    # the arrow after the error is kept with it; one into a dependency alone is not a fact
    assert must_keep_line_numbers(text) == {1, 2}


def test_js_stack_frame_after_an_error_is_kept() -> None:
    text = "TypeError: x is undefined\n    at run (src/app.js:3:9)\n    at main (src/app.js:9:1)"
    assert must_keep_line_numbers(text) == {0, 1, 2}


def test_lost_lines_are_reported() -> None:
    assert lost_must_keep_lines("noise\nerror: a\nerror: b", "error: a") == ["error: b"]
    assert lost_must_keep_lines("error: a", "prefix error: a suffix") == []


@pytest.mark.parametrize(
    ("pattern", "confined"),
    [
        (r"^\s*$", r"^[\t\f\r ]*$"),
        (r"[^a]b", r"[^\na]b"),
        (r"\D+", r"[^\d\n]+"),
        (r"[\s,]", r"[\t\f\r ,]"),
        (r"\Aab\z", r"^ab$"),
        (r"[]a]", r"[\]a]"),
        (r"\x41", r"\x41"),
        (r"(?s).", None),
        (r"\x0a", None),
        (r"a\nb", None),
        (r"[[:space:]]", None),
        (r"\pL", None),
    ],
)
def test_confine_to_line(pattern: str, confined: str | None) -> None:
    assert confine_to_line(pattern) == confined


def test_line_matcher_fast_and_slow_paths_agree() -> None:
    data = b"a\n\n  \nnoise 1\nb\nnoise\n"
    fast = LineMatcher([r"^\s*$", "^noise"])
    slow = LineMatcher([r"^\s*$", "^noise", r"(?s)never"])
    assert fast.line_runs(data) == slow.line_runs(data) == [(2, 14), (16, 22)]
