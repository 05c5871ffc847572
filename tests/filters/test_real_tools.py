"""Built-in rules on outputs produced by really running the tools in a temporary directory.

Outputs vary (paths, timings), so instead of exact snapshots each test asserts which rules ran,
that the must-keep lines (failing tests, errors with locations, final summaries) survived, that
nothing the classifier marks must-keep was lost, and that the output got shorter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tooldeck.filters.engine import FilterEngine, FilterResult, is_short
from tooldeck.filters.must_keep import lost_must_keep_lines
from tooldeck.filters.sanitize import sanitize_output, strip_terminal

VENV_BIN = Path(sys.executable).parent
GIT = shutil.which("git")
CC = shutil.which("cc") or shutil.which("gcc")
MAKE = shutil.which("make")
RUFF = shutil.which("ruff", path=str(VENV_BIN)) or shutil.which("ruff")
MYPY = shutil.which("mypy", path=str(VENV_BIN)) or shutil.which("mypy")

FAILING_TESTS = """
import pytest


def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 3


def test_add_negative():
    assert add(-1, -1) == -2


def test_add_wrong():
    expected = 5
    assert add(2, 2) == expected


def test_raises():
    raise ValueError("bad input")


@pytest.mark.parametrize("n", range(60))
def test_many_cases_of_a_long_parametrized_test_pass(n):
    assert n >= 0
"""


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[str, int]:
    merged = {**os.environ, "NO_COLOR": "1", "LC_ALL": "C", **(env or {})}
    done = subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, env=merged, timeout=60, check=False
    )
    return done.stdout + done.stderr, done.returncode


def check(engine: FilterEngine, command: str, raw: str, code: int) -> FilterResult:
    result = engine.apply(command, raw, code)
    assert lost_must_keep_lines(sanitize_output(raw), result.output) == []
    assert result.raw == raw
    return result


@pytest.fixture
def failing_project(tmp_path: Path) -> Path:
    (tmp_path / "test_calc.py").write_text(FAILING_TESTS)
    return tmp_path


@pytest.mark.parametrize("flags", [[], ["-v"], ["-x"], ["-q"]])
def test_pytest(engine: FilterEngine, failing_project: Path, flags: list[str]) -> None:
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *flags]
    raw, code = run(
        args, failing_project, {"PYTEST_ADDOPTS": "", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    )
    assert code == 1
    result = check(engine, "python -m pytest " + " ".join(flags), raw, code)
    assert result.rules == ("pytest-noise", "pytest")
    lines = result.output.split("\n")
    assert "E       assert 4 == 5" in lines
    assert "test_calc.py:19: AssertionError" in lines
    assert any(line.startswith("FAILED test_calc.py::test_add_wrong") for line in lines)
    summary = [line for line in lines if " passed" in line and " in " in line]
    if "-x" in flags:
        assert "1 failed, 2 passed" in summary[-1]
    else:
        assert "2 failed, 62 passed" in summary[-1]
        assert "E       ValueError: bad input" in lines
    if is_short(strip_terminal(raw)):
        assert result.output == strip_terminal(raw)
    else:
        assert result.chars_out < result.chars_in
        assert not any(line.endswith(" PASSED") for line in lines)
        assert any(line.startswith("(") and "noise lines removed" in line for line in lines)


@pytest.mark.skipif(GIT is None, reason="git is not installed")
def test_git_commands(engine: FilterEngine, tmp_path: Path) -> None:
    assert GIT is not None
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    env = {
        "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
        "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com",
        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
    }  # fmt: skip
    run([GIT, "init", "-q", "--bare", "-b", "main", str(origin)], tmp_path, env)
    run([GIT, "clone", "-q", str(origin), str(work)], tmp_path, env)
    run([GIT, "checkout", "-q", "-b", "main"], work, env)
    for number in range(25):
        (work / f"f{number}.txt").write_text(f"line {number}\n")
        run([GIT, "add", "."], work, env)
        run([GIT, "commit", "-q", "-m", f"commit {number}"], work, env)
    (work / "f1.txt").write_text("changed\nmore\n")
    (work / "new.txt").write_text("new\n")

    status = check(engine, "git status", *run([GIT, "status"], work, env))
    assert status.rules == ("git-status",)
    lines = status.output.split("\n")
    assert lines[0] == "On branch main"
    # staged and unstaged stay apart, with git's own words
    assert lines.index("Changes not staged for commit:") < lines.index("\tmodified:   f1.txt")
    assert "\tnew.txt" in lines

    raw_diff, code = run([GIT, "diff"], work, env)
    diff = check(engine, "git diff", raw_diff, code)
    assert diff.output == raw_diff.rstrip("\n")  # a small diff comes back whole

    raw_log, code = run([GIT, "log"], work, env)
    log = check(engine, "git log", raw_log, code)
    assert log.rules == ("git-log",)
    hashes = [line for line in raw_log.split("\n") if line.startswith("commit ")]
    assert len(hashes) == 25 and all(line in log.output.split("\n") for line in hashes)
    assert "    commit 24" in log.output and "    commit 0" in log.output

    show = check(engine, "git show HEAD", *run([GIT, "show", "HEAD"], work, env))
    assert "+line 24" in show.output

    push = check(
        engine, "git push -u origin main", *run([GIT, "push", "-u", "origin", "main"], work, env)
    )
    assert push.rules == ("git-push",)
    assert "main -> main" in push.output
    assert "To " in push.output


@pytest.mark.skipif(CC is None or MAKE is None, reason="make or a C compiler is not installed")
def test_make_with_a_compile_error(engine: FilterEngine, tmp_path: Path) -> None:
    assert MAKE is not None and CC is not None
    (tmp_path / "bad.c").write_text(
        '#include <stdio.h>\nint main(void) {\n    int x = "a";\n    return y;\n}\n'
    )
    (tmp_path / "Makefile").write_text(f"all:\n\t{CC} -Wall -c bad.c -o bad.o\n")
    raw, code = run([MAKE], tmp_path)
    assert code != 0
    result = check(engine, "make", raw, code)
    assert result.rules == ("c-diagnostics", "make")
    lines = result.output.split("\n")
    assert any(line.startswith("bad.c:4:12: error:") for line in lines)
    assert any(line.startswith("make: *** [Makefile:2: all] Error 1") for line in lines)
    assert any(line.strip().startswith("|") for line in lines)  # the error's code frame


def test_pip(engine: FilterEngine, tmp_path: Path) -> None:
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    version, code = run([*pip, "--version"], tmp_path)
    assert check(engine, "pip --version", version, code).output == sanitize_output(version)
    raw, code = run([*pip, "install", "--no-index", "pytest", "hypothesis"], tmp_path)
    assert code == 0
    result = check(engine, "python -m pip install pytest hypothesis", raw, code)
    assert result.rules == ("pip-install",)
    assert result.output == strip_terminal(raw)  # short: shown whole


@pytest.mark.skipif(RUFF is None, reason="ruff is not installed")
def test_ruff(engine: FilterEngine, tmp_path: Path) -> None:
    assert RUFF is not None
    (tmp_path / "bad.py").write_text("import os\nimport sys\n\nprint(undefined_name)\n")
    raw, code = run([RUFF, "check", "--no-cache", "--isolated", "bad.py"], tmp_path)
    assert code == 1
    result = check(engine, "ruff check bad.py", raw, code)
    assert result.rules == ("ruff", "linter")
    lines = result.output.split("\n")
    assert "F401 [*] `os` imported but unused" in lines
    assert " --> bad.py:4:7" in lines
    assert any(line.startswith("Found 3 errors") for line in lines)
    assert result.output == strip_terminal(raw)  # short: shown whole, code frames included


@pytest.mark.skipif(MYPY is None, reason="mypy is not installed")
def test_mypy(engine: FilterEngine, tmp_path: Path) -> None:
    assert MYPY is not None
    (tmp_path / "bad.py").write_text("def f(x: int) -> str:\n    return x\n\nimport os\nos.foo\n")
    raw, code = run([MYPY, "--no-incremental", "--show-error-codes", "bad.py"], tmp_path)
    assert code == 1
    result = check(engine, "mypy bad.py", raw, code)
    assert result.rules == ("mypy", "linter")
    assert result.output.split("\n")[:3] == [
        'bad.py:2: error: Incompatible return value type (got "int", expected "str")'
        "  [return-value]",
        'bad.py:5: error: Module has no attribute "foo"  [attr-defined]',
        "Found 2 errors in 1 file (checked 1 source file)",
    ]
