from __future__ import annotations

import os
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.search import find_path, grep

Env = Any


def _error(call: Any) -> ToolError:
    with pytest.raises(ToolError) as caught:
        call()
    return caught.value


def test_grep_hit_format_and_locations(env: Env) -> None:
    (env.root / "a.txt").write_text("zero\nneedle one\nnone\nneedle two\n")
    (env.root / "b.txt").write_text("nothing\n")
    result = grep(env.sandbox, "needle")
    a = env.root / "a.txt"
    assert result.summary == f"{a}:2: needle one\n{a}:4: needle two"
    assert result.locations == (str(a),)


def test_grep_no_matches(env: Env) -> None:
    (env.root / "a.txt").write_text("x\n")
    assert grep(env.sandbox, "needle").summary == "No matches for: needle"


def test_grep_case_insensitive(env: Env) -> None:
    (env.root / "a.txt").write_text("Needle\n")
    assert grep(env.sandbox, "needle").summary == "No matches for: needle"
    assert grep(env.sandbox, "needle", case_sensitive=False).summary.endswith(":1: Needle")


def test_grep_skips_hidden_vcs_vendor_binary_and_non_utf8(env: Env) -> None:
    for rel in (".hidden/a.txt", ".git/a.txt", "node_modules/a.txt", "target/a.txt", ".hg/a"):
        (env.root / rel).parent.mkdir(parents=True, exist_ok=True)
        (env.root / rel).write_text("needle\n")
    (env.root / ".dotfile").write_text("needle\n")
    (env.root / "bin.dat").write_bytes(b"needle\x00\n")
    (env.root / "latin.txt").write_bytes(b"needle \xe9\n")
    (env.root / "src").mkdir()
    (env.root / "src" / "ok.txt").write_text("needle\n")
    assert grep(env.sandbox, "needle").summary == f"{env.root}/src/ok.txt:1: needle"


def test_grep_never_follows_symlinks(env: Env) -> None:
    (env.outside / "secret.txt").write_text("needle outside\n")
    os.symlink(env.outside, env.root / "out_dir")
    os.symlink(env.outside / "secret.txt", env.root / "out_file.txt")
    assert grep(env.sandbox, "needle").summary == "No matches for: needle"


def test_grep_skips_read_denied_files_silently(env: Env) -> None:
    (env.root / "config").mkdir()
    (env.root / "config" / "prod.key").write_text("needle\n")
    (env.root / "config" / "prod.txt").write_text("needle\n")
    sandbox = PathSandbox([env.root], deny_read=["*.key"], cwd=env.root)
    assert grep(sandbox, "needle").summary == f"{env.root}/config/prod.txt:1: needle"


def test_grep_caps_hits_and_says_so(env: Env) -> None:
    (env.root / "many.txt").write_text("hit\n" * 150)
    lines = grep(env.sandbox, "hit").summary.split("\n")
    assert len(lines) == 101
    assert lines[99].endswith(":100: hit")
    assert lines[100] == "[results capped at 100 matches; narrow the pattern or the path]"
    exact = grep(env.sandbox, "hit", max_results=150).summary.split("\n")
    assert len(exact) == 150 and "capped" not in exact[-1]


def test_grep_reports_oversized_files(env: Env) -> None:
    (env.root / "big.txt").write_text("needle\n" * 100)
    result = grep(env.sandbox, "needle", max_file_bytes=50)
    assert result.summary == "No matches for: needle\n[skipped 1 file(s) larger than 50 bytes]"


@pytest.mark.parametrize("pattern", ["(a)\\1", "(?=x)", "a{2,1}", "[z-a]", "(unclosed"])
def test_grep_invalid_or_unsupported_pattern(env: Env, pattern: str) -> None:
    error = _error(lambda: grep(env.sandbox, pattern))
    assert error.category is ErrorCategory.INVALID_PARAMETERS
    assert repr(pattern) in error.message


def test_grep_pathological_pattern_is_linear(env: Env) -> None:
    (env.root / "a.txt").write_text("a" * 50_000 + "\n")
    assert grep(env.sandbox, "(a+)+$b").summary == "No matches for: (a+)+$b"


@pytest.mark.parametrize(
    ("pattern", "expected_lines"),
    [
        ("^b", [2]),
        ("b$", [2, 3]),
        ("\\Ab", [2]),
        ("b\\z", [2, 3]),
        ("(?i)^B", [2]),
        ("^$", [4]),
        ("x\\sb", []),
    ],
)
def test_grep_anchors_are_per_line_even_with_crlf(
    env: Env, pattern: str, expected_lines: list[int]
) -> None:
    (env.root / "f.txt").write_bytes(b"ax\r\nb\r\nab\r\n\r\nc")
    result = grep(env.sandbox, pattern)
    found = [int(line.split(":")[1]) for line in result.summary.split("\n") if "f.txt:" in line]
    assert found == expected_lines


def test_grep_single_file_path(env: Env) -> None:
    (env.root / "a.txt").write_text("needle\n")
    (env.root / "b.txt").write_text("needle\n")
    assert grep(env.sandbox, "needle", "a.txt").summary == f"{env.root}/a.txt:1: needle"


def test_grep_missing_path(env: Env) -> None:
    error = _error(lambda: grep(env.sandbox, "x", "nope"))
    assert error.category is ErrorCategory.PERMANENT_FAILURE


def test_find_path_relative_pattern_and_recursion(env: Env) -> None:
    for rel in ("src/a.py", "src/pkg/b.py", "src/pkg/c.txt", "docs/d.py"):
        (env.root / rel).parent.mkdir(parents=True, exist_ok=True)
        (env.root / rel).write_text("")
    result = find_path(env.sandbox, "src", "**/*.py")
    assert result.summary == f"{env.root}/src/a.py\n{env.root}/src/pkg/b.py"
    flat = find_path(env.sandbox, ".", "src/*.py")
    assert flat.summary == f"{env.root}/src/a.py"


def test_find_path_truncates_with_note(env: Env) -> None:
    for i in range(5):
        (env.root / f"f{i}.txt").write_text("")
    result = find_path(env.sandbox, ".", "*.txt", max_results=3)
    assert result.summary.split("\n") == [
        f"{env.root}/f0.txt",
        f"{env.root}/f1.txt",
        f"{env.root}/f2.txt",
        "3 of 5 paths; narrow the pattern",
    ]


def test_find_path_filters_symlinks_and_read_denied(env: Env) -> None:
    (env.outside / "x.txt").write_text("")
    (env.root / "in.txt").write_text("")
    (env.root / "secret.txt").write_text("")
    os.symlink(env.outside / "x.txt", env.root / "out_link.txt")
    os.symlink("in.txt", env.root / "in_link.txt")
    os.symlink(env.outside, env.root / "out_dir")
    sandbox = PathSandbox([env.root], deny_read=["**/secret.txt"], cwd=env.root)
    found = find_path(sandbox, ".", "**/*.txt").summary.split("\n")
    assert found == [f"{env.root}/in.txt", f"{env.root}/in_link.txt"]


def test_find_path_from_above_walks_only_the_roots(env: Env) -> None:
    (env.root / "in.txt").write_text("")
    (env.outside / "out.txt").write_text("")
    base = env.root.parent
    assert find_path(env.sandbox, ".", f"{base}/**/*.txt").summary == f"{env.root}/in.txt"


def test_find_path_invalid_glob_and_limit(env: Env) -> None:
    error = _error(lambda: find_path(env.sandbox, ".", "src/[oops"))
    assert error.category is ErrorCategory.INVALID_PARAMETERS
    assert "src/[oops" in error.message
    assert _error(lambda: find_path(env.sandbox, ".", "*", max_results=0)).category is (
        ErrorCategory.INVALID_PARAMETERS
    )


def test_find_path_from_above_nested_roots_lists_each_path_once(env: Env) -> None:
    (env.root / "inner").mkdir()
    (env.root / "inner" / "x.txt").write_text("")
    sandbox = PathSandbox([env.root, env.root / "inner"])
    result = find_path(sandbox, ".", f"{env.root.parent}/**/*.txt")
    assert result.summary == f"{env.root}/inner/x.txt"
