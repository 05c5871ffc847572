"""``diagnostics`` through a real deck, running real checkers on small projects in tmp."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall

VENV_BIN = str(Path(sys.executable).parent)


def make_deck(root: Path, extra: str = "", plugins: str = "") -> Deck:
    doc = parse_document(
        f'{plugins}[tools.diagnostics]\nallowed_paths = ["{root}"]\n{extra}\n'
        f'[tools.file]\nallowed_paths = ["{root}"]\n'
        f'[tools.audit]\npath = "{root.parent / "audit.jsonl"}"\n'
        + "".join(f'[[tools.permissions.{tool}]]\npattern = "*"\naction = "allow"\n'
                  for tool in ("diagnostics", "set_working_directory")), None, "test")
    return Deck.from_config(doc)


def run(deck: Deck, **params: object) -> tuple[bool, str]:
    result = deck.call_sync(ToolCall("diagnostics", params))
    return result.ok, result.text


@pytest.fixture(autouse=True)
def venv_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """ruff and mypy are test dependencies, installed next to this interpreter."""
    monkeypatch.setenv("PATH", f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["F"]\n')
    (root / "pkg" / "bad.py").write_text(
        "import os\n\n\ndef f(x: int) -> str:\n    return x\n")
    (root / "pkg" / "good.py").write_text("def g(x: int) -> int:\n    return x\n")
    return root


def test_ruff_findings_as_lines(project: Path) -> None:
    deck = make_deck(project)
    assert run(deck, path=".", level="ruff") == (
        True, "pkg/bad.py:1:8: error: `os` imported but unused [F401]")
    deck.close()


def test_mypy_findings_as_lines(project: Path) -> None:
    deck = make_deck(project)
    assert run(deck, path="pkg/bad.py", level="mypy") == (
        True, 'bad.py:5:12: error: Incompatible return value type (got "int", expected '
        '"str") [return-value]')
    assert not (project / "pkg" / ".mypy_cache").exists()
    assert not (project / ".mypy_cache").exists()
    deck.close()


@pytest.mark.parametrize("level", ["ruff", "mypy"])
def test_a_clean_file_has_no_diagnostics(project: Path, level: str) -> None:
    deck = make_deck(project)
    assert run(deck, path="pkg/good.py", level=level) == (True, "No diagnostics")
    deck.close()


def test_at_most_fifty_lines_and_a_note(project: Path) -> None:
    (project / "many.py").write_text("".join(f"import m{i}\n" for i in range(60)))
    deck = make_deck(project)
    ok, text = run(deck, path="many.py", level="ruff")
    lines = text.split("\n")
    assert ok and len(lines) == 51
    assert lines[0] == "many.py:1:8: error: `m0` imported but unused [F401]"
    assert lines[-1] == "50 of 60 diagnostics; narrow the path"
    deck.close()


def test_a_missing_checker_is_named(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(project / "nothing-here"))
    monkeypatch.delenv("CARGO", raising=False)
    deck = make_deck(project)
    ok, text = run(deck, path=".", level="eslint")
    assert not ok
    assert "eslint not found in PATH nor in the project's node_modules/.bin" in text
    ok, text = run(deck, path=".", level="check")
    assert not ok and "cargo not found in PATH" in text
    deck.close()


@pytest.mark.parametrize("path", ["..", "/etc", "~", "pkg/../../"])
def test_a_path_outside_the_sandbox_is_refused(project: Path, path: str) -> None:
    deck = make_deck(project)
    ok, text = run(deck, path=path, level="ruff")
    assert not ok and "policy_blocked" in text
    deck.close()


def test_a_missing_path_is_not_found(project: Path) -> None:
    deck = make_deck(project)
    ok, text = run(deck, path="nope.py", level="ruff")
    assert not ok and "path not found: nope.py" in text
    deck.close()


def test_the_default_path_is_the_callers_working_directory(project: Path) -> None:
    (project / "top.py").write_text("import sys\n")
    deck = make_deck(project)
    assert run(deck, level="ruff")[1].count("\n") == 1  # top.py and pkg/bad.py
    assert deck.call_sync(ToolCall("set_working_directory", {"path": "pkg"})).ok
    assert run(deck, level="ruff") == (
        True, "bad.py:1:8: error: `os` imported but unused [F401]")
    deck.close()


def _fake_checker(project: Path, name: str, body: str) -> None:
    """A project-local program standing in for a checker (found before PATH)."""
    program = project / ".venv" / "bin" / name
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text(f"#!/bin/sh\n{body}\n")
    program.chmod(0o755)


def test_the_checker_gets_the_shells_scrubbed_environment(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_API_KEY", "hunter2")
    monkeypatch.setenv("HARMLESS", "visible")
    _fake_checker(project, "ruff", 'printf \'[{"code":"X1","message":"[%s][%s]",'
                  '"filename":"a.py","location":{"row":1,"column":1}}]\' '
                  '"$MY_API_KEY" "$HARMLESS"')
    deck = make_deck(project)
    assert run(deck, path=".", level="ruff") == (True, "a.py:1:1: error: [][visible] [X1]")
    deck.close()


def test_without_the_shell_plugin_only_a_minimal_environment_passes(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_API_KEY", "hunter2")
    monkeypatch.setenv("HARMLESS", "visible")
    _fake_checker(project, "ruff", 'printf \'[{"code":"X1","message":"[%s][%s][%s]",'
                  '"filename":"a.py","location":{"row":1,"column":1}}]\' '
                  '"$MY_API_KEY" "$HARMLESS" "$HOME"')
    deck = make_deck(project, plugins='[plugins]\ndisable = ["shell"]\n')
    assert run(deck, path=".", level="ruff") == (
        True, f"a.py:1:1: error: [][][{os.environ['HOME']}] [X1]")
    deck.close()


def test_a_checker_that_runs_too_long_is_stopped(project: Path) -> None:
    _fake_checker(project, "ruff", "exec sleep 60")
    deck = make_deck(project, "timeout = 0.2")
    ok, text = run(deck, path=".", level="ruff")
    assert not ok and "category: timeout" in text and "did not finish within 0.2 s" in text
    deck.close()


def test_a_failing_checker_reports_its_exit_and_error(project: Path) -> None:
    _fake_checker(project, "mypy", "echo 'mypy: error: bad config' >&2; exit 2")
    deck = make_deck(project)
    ok, text = run(deck, path=".", level="mypy")
    assert not ok and "mypy failed (exit 2): mypy: error: bad config" in text
    deck.close()


@pytest.mark.skipif(shutil.which("tsc") is None, reason="tsc (TypeScript) is not installed")
def test_tsc_findings_as_lines(project: Path) -> None:
    (project / "a.ts").write_text('let x: number = "a";\nconsole.log(x);\n')
    deck = make_deck(project)
    assert run(deck, path="a.ts", level="tsc") == (
        True, "a.ts:1:5: error: Type 'string' is not assignable to type 'number'. [TS2322]")
    ok, text = run(deck, path=".", level="tsc")
    assert not ok and "tsc needs a tsconfig.json" in text
    deck.close()


@pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo (Rust) is not installed")
def test_cargo_check_findings_as_lines(project: Path) -> None:
    crate = project / "crate"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text(
        '[package]\nname = "broken"\nversion = "0.1.0"\nedition = "2021"\n')
    (crate / "src" / "main.rs").write_text('fn main() {\n    let x: i32 = "a";\n}\n')
    deck = make_deck(project)
    ok, text = run(deck, path="crate")
    assert ok, text
    assert "src/main.rs:2:18: error: mismatched types" in text.split("\n")
    deck.close()
