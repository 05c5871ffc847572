"""``tooldeck new-plugin``: each kind generated, installed, listed, and its own tests passing."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tooldeck.cli.new_plugin import write_plugin

from .conftest import EXAMPLES, ROOT, Venv, check, run

pytestmark = pytest.mark.timeout(300)

KINDS = ("executor", "gate", "strategy")


def test_generated_plugins_install_and_pass_their_own_tests(venv: Venv, tmp_path: Path) -> None:
    made = []
    for kind in KINDS:
        proc = check(venv.tooldeck("new-plugin", f"made_{kind}", "--kind", kind, "--dir",
                                   str(tmp_path), "--json", cwd=tmp_path))
        made.append(Path(json.loads(proc.stdout)["path"]))
    assert [p.name for p in made] == [f"tooldeck-made-{kind}" for kind in KINDS]
    gate = (made[1] / "pyproject.toml").read_text()
    assert '[project.entry-points."tooldeck.gates"]\nmade_gate = "tooldeck_made_gate.plugin"' \
        in gate
    venv.pip_install(*made)
    plugins = {p["name"]: p for p in json.loads(check(venv.tooldeck(
        "plugins", "--json", cwd=tmp_path)).stdout)}
    for kind in KINDS:
        info = plugins[f"made_{kind}"]
        assert (info["dist"], info["state"]) == (f"tooldeck-made-{kind}", "disabled"), info
    # the generated tests and the examples' own tests, against the installed copies
    suites = [str(p / "tests") for p in made]
    suites += [str(ROOT / "examples" / name / "tests") for name in EXAMPLES]
    ini = tmp_path / "pytest.ini"
    ini.write_text("[pytest]\n")
    proc = run([venv.python, "-m", "pytest", "-q", "-c", ini, "--rootdir", tmp_path,
                "-p", "tooldeck.testing", "-p", "no:cacheprovider", *suites], cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    passed = re.search(r"\b(\d+) passed\b", proc.stdout)
    assert passed and int(passed.group(1)) >= 15, proc.stdout


@pytest.mark.parametrize(("name", "kind", "problem"), [
    ("Bad-Name", "executor", "invalid plugin name"),
    ("ok", "daemon", "unknown kind"),
])
def test_bad_names_and_kinds_are_refused(tmp_path: Path, name: str, kind: str,
                                         problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        write_plugin(name, kind, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_never_overwritten(tmp_path: Path) -> None:
    from tooldeck.cli import main

    target = tmp_path / "tooldeck-mine"
    target.mkdir()
    (target / "keep.txt").write_text("mine")
    assert main(["new-plugin", "mine", "--kind", "gate", "--dir", str(tmp_path)]) == 2
    assert [p.name for p in target.iterdir()] == ["keep.txt"]


@pytest.mark.parametrize("kind", KINDS)
def test_generated_code_is_clean(tmp_path: Path, kind: str) -> None:
    target = write_plugin("clean_code", kind, tmp_path)
    proc = run([sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated",
                "--select", "E,F,W,B,UP", "--target-version", "py310", "--line-length", "100",
                target])
    assert proc.returncode == 0, proc.stdout + proc.stderr
