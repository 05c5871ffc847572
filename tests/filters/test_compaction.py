"""Bare rulers shortened and pytest tracebacks compacted, without touching what carries facts."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.must_keep import must_keep_classifier
from tooldeck.filters.rulers import compact_ruler, compact_rulers
from tooldeck.filters.test_summary import compact_pytest_block


def test_rulers_are_shortened_and_a_counted_summary_is_kept_whole() -> None:
    assert compact_ruler("-" * 72) == "---"
    assert compact_ruler("[INFO] " + "-" * 72) == "[INFO] ---"
    assert compact_ruler("  " + "=" * 30) == "  ==="
    assert compact_ruler("=" * 40 + " test session starts " + "=" * 40) == (
        "=== test session starts ==="
    )
    # a protected title is kept whole between short marks (issue #13: a ruler's length
    # carries nothing, wherever it stands)
    assert compact_ruler("=" * 40 + " FAILURES " + "=" * 40) == "=== FAILURES ==="
    setup = "_" * 30 + " ERROR at setup of test_db[1-2] " + "_" * 30
    assert compact_ruler(setup) == "___ ERROR at setup of test_db[1-2] ___"
    assert compact_ruler("=" * 40 + " warnings summary " + "=" * 40) == "=== warnings summary ==="
    assert compact_ruler("_" * 30 + " test_div " + "_" * 31) == "___ test_div ___"
    summary = "=" * 30 + " 3 failed, 4 passed in 0.47s " + "=" * 30
    assert compact_ruler(summary) == summary  # a fact readers quote whole
    assert compact_ruler("=" * 40 + " slowest 5 durations " + "=" * 40) == (
        "=== slowest 5 durations ==="
    )
    for line in ("=====", "a ===========", "-- x --", "----------x", "--- a/file.py"):
        assert compact_ruler(line) == line


def test_a_spaced_ruler_between_frames_is_shortened() -> None:
    # pytest separates the frames of one failure's traceback with 60 spaced underscores
    assert compact_ruler("_ " * 59 + "_") == "_ _ _"
    assert compact_ruler("    " + "- " * 20) == "    - - -"
    assert compact_rulers("a\n" + "_ " * 60 + "\nb") == "a\n_ _ _\nb"
    for line in ("_ _ _ _ x", "_ _ _", "a _ _ _ _ _ _ _ _ _ _ _", "_ - _ - _ - _ - _ - _ -"):
        assert compact_ruler(line) == line


def test_a_diff_keeps_its_lines_of_dashes() -> None:
    diff = "diff --git a/x.md b/x.md\n--- a/x.md\n+++ b/x.md\n@@ -1,2 +1 @@\n-" + "-" * 20
    assert compact_rulers(diff) == diff


def test_padding_to_the_right_edge_is_one_space() -> None:
    # pytest -v and maven push a progress column to the terminal's right edge
    failed = "tests/test_report.py::test_percent_zero FAILED" + " " * 51 + "[ 36%]"
    assert compact_ruler(failed) == "tests/test_report.py::test_percent_zero FAILED [ 36%]"
    building = "[INFO] Building core 1.0" + " " * 42 + "[1/3]"
    assert compact_ruler(building) == "[INFO] Building core 1.0 [1/3]"
    # a terminal run leaves spaces after a line it rewrote
    assert compact_ruler("collected 31 items" + " " * 90) == "collected 31 items"
    # pytest's '!!! stopping after 1 failures !!!' is a ruler around a title
    stop = "!" * 46 + " stopping after 1 failures " + "!" * 46
    assert compact_ruler(stop) == "!!! stopping after 1 failures !!!"
    for line in (
        "ii  clang" + " " * 35 + "1:14.0-55.7~deb12u1   amd64   C compiler",  # a table's columns
        "[INFO] x ........................................ SUCCESS [  1.462 s]",  # dot leaders
        "tests/a.py::test_x FAILED" + " " * 9 + "[ 36%]",  # under ten spaces
        " " * 12,  # a blank line is content
        "    indented" + " " * 3,
    ):
        assert compact_ruler(line) == line


def test_a_diff_keeps_its_trailing_spaces() -> None:
    diff = "diff --git a/x.py b/x.py\n@@ -1 +1 @@\n-x = 1" + " " * 12 + "\n+x = 1"
    assert compact_rulers(diff) == diff


_COLUMN = re.compile(r"(?<=\S) {10,}(?=\[[^\]\n]*\][ \t]*$)")
_TRAILING = re.compile(r"(?<=\S)[ \t]{10,}$")


@given(st.text(alphabet="=-_ab[] \n", max_size=200))
def test_only_bare_ruler_lines_and_padding_change(text: str) -> None:
    compacted = compact_rulers(text).split("\n")
    original = text.split("\n")
    assert len(compacted) == len(original)
    for before, after in zip(original, compacted, strict=True):
        bare = set(before.strip()) <= {before.strip()[:1]} and len(before.strip()) >= 10
        titled = after.strip("=_- ") == before.strip("=_- ") and len(after) < len(before)
        padded = _TRAILING.sub("", _COLUMN.sub(" ", before))
        assert after in (before, padded) or bare or titled


def _long_output(body: list[str]) -> str:
    return "\n".join([f"noise line {i}" for i in range(30)] + body)


def test_the_engine_leaves_file_views_and_short_outputs_alone() -> None:
    engine = FilterEngine.from_settings()
    text = _long_output(["=" * 40, "x"])
    assert engine.apply("cat notes.txt", text, 0).output == text
    short = "=" * 40 + "\nresult\n" + "=" * 40
    assert engine.apply("some-tool --run", short, 0).output == short


PYTEST_BLOCK = [
    "___________________ test_cheapest ___________________",
    "[gw0] linux -- Python 3.11.7 /usr/bin/python",
    "",
    "inv = Inventory(items={'A1': Item(sku='A1')})",
    "",
    "    def test_cheapest(inv):",
    "        cheapest = inv.cheapest()",
    ">       assert cheapest.sku == 'B2'",
    "               ^^^^^^^^^^^^",
    "E       AttributeError: 'str' object has no attribute 'sku'",
    "",
    "tests/test_core.py:37: AttributeError",
    "----------------------------- Captured stdout call -----------------------------",
    "loading inventory",
]


def test_a_pytest_block_keeps_its_evidence_and_drops_context() -> None:
    kept, dropped = compact_pytest_block(PYTEST_BLOCK)
    assert kept == [
        PYTEST_BLOCK[0],
        "        cheapest = inv.cheapest()",
        ">       assert cheapest.sku == 'B2'",
        "               ^^^^^^^^^^^^",
        "E       AttributeError: 'str' object has no attribute 'sku'",
        "tests/test_core.py:37: AttributeError",
        PYTEST_BLOCK[-2],
        "loading inventory",
    ]
    assert dropped == 3  # [gw0], the fixture repr, the def line; blank lines are not counted


def test_a_block_keeps_every_must_keep_line_of_its_traceback() -> None:
    block = [*PYTEST_BLOCK[:6], "    # this used to fail with a KeyError", *PYTEST_BLOCK[6:]]
    kept, _ = compact_pytest_block(block)
    classifier = must_keep_classifier()
    assert all(line in kept for line in block if line.strip() and classifier.is_must_keep(line))


def test_a_block_without_a_location_line_is_left_whole() -> None:
    block = [PYTEST_BLOCK[0], "    def test_x():", ">       assert f()", "E       assert False"]
    assert compact_pytest_block(block) == (block, 0)
