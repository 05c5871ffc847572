"""A search's hits read as a match list; other outputs do not."""

from __future__ import annotations

import pytest

from tooldeck.filters.match_list import is_match_list

GREP_N = [f"src/a{n}.py:{n + 3}:    x = error_count({n})" for n in range(8)]
GREP_CONTEXT = ["src/auth.py-211-        return h", "src/auth.py-212-",
                "src/auth.py:213:        # XXX not implemented yet", "src/auth.py-214-    x = 1",
                "--", "src/auth.py-245-        digest = KD(a, b)",
                "src/auth.py:247:        # XXX handle auth-int."]  # fmt: skip
LINTER = [f"src/m.py:{n}:80: E501 line too long (95 > 79 characters)" for n in range(1, 9)]


@pytest.mark.parametrize("lines", [GREP_N, GREP_CONTEXT, LINTER, [*GREP_N, "", *GREP_N]])
def test_hits_context_lines_and_separators_are_a_match_list(lines: list[str]) -> None:
    assert is_match_list(lines)


@pytest.mark.parametrize(
    "lines",
    [
        GREP_N[:4],  # too few to be a list
        [*GREP_N, "Traceback (most recent call last):", "  boom", "ValueError: x"],
        [f"Compiling crate{n} v0.{n}.0" for n in range(10)],
        ["total 12", *[f"-rw-r--r-- 1 root root {n} Jan  1 a{n}" for n in range(9)]],
    ],
)
def test_other_outputs_are_not(lines: list[str]) -> None:
    assert not is_match_list(lines)


def test_a_long_list_is_read_from_its_ends() -> None:
    middle = ["not a hit at all"] * 500
    assert is_match_list([*GREP_N * 13, *middle, *GREP_N * 13])
    assert not is_match_list([*GREP_N, *middle, *GREP_N])
