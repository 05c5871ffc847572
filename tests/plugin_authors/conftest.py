"""One fresh venv for the plugin-author tests: tooldeck and the three example plugins installed.

Built once per session, as tests/plugin_api/test_example_plugin.py builds its own: tooldeck
and the examples are copied to a temporary directory and installed from there, non-editable,
offline (``--no-deps --no-build-isolation --no-index``); the venv borrows the test
interpreter's dependencies through a ``.pth`` file, so an editable tooldeck of the parent
environment cannot leak in.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ("tooldeck-sqlite-query", "tooldeck-no-drop-table", "tooldeck-dedupe-adjacent")
_ROOT_SKIP = {"build", "dist", "tests", "examples", "bench", "docs", "venv"}


def _ignore(directory: str, names: list[str]) -> set[str]:
    skipped = {n for n in names if n == "__pycache__" or n.endswith(".egg-info")}
    if Path(directory) == ROOT:
        skipped |= {n for n in names if n.startswith(".") or n in _ROOT_SKIP}
    return skipped | ({"build", "dist"} & set(names))


def clean_env(**extra: str) -> dict[str, str]:
    """The environment (XDG dirs already isolated) without import-path overrides."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return {**env, **extra}


def run(args: list[str | Path], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run a command with the clean environment, capturing text output."""
    kwargs.setdefault("env", clean_env())
    return subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          stdin=kwargs.pop("stdin", subprocess.DEVNULL), **kwargs)


def check(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """``proc``, asserting it exited 0 (the message shows its output)."""
    assert proc.returncode == 0, f"{proc.args}\n{proc.stdout}\n{proc.stderr}"
    return proc


@attrs.frozen
class Venv:
    """A temporary virtual environment with tooldeck and the example plugins installed."""

    python: Path
    scripts: Path
    base: Path

    def tooldeck(self, *args: str, cwd: Path, input: str | None = None,
                 **env: str) -> subprocess.CompletedProcess[str]:
        """Run the installed ``tooldeck`` console script in ``cwd``."""
        return run([self.scripts / "tooldeck", *args], cwd=cwd, env=clean_env(**env),
                   input=input, stdin=None if input is not None else subprocess.DEVNULL)

    def pip_install(self, *projects: Path) -> None:
        """Install local projects offline, without their dependencies (they are lent)."""
        check(run([self.python, "-m", "pip", "--disable-pip-version-check", "--no-input",
                   "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                   "--no-cache-dir", *projects]))


def _parent_site_dirs() -> list[str]:
    return [p for p in sys.path
            if Path(p).name in ("site-packages", "dist-packages") and Path(p).is_dir()]


@pytest.fixture(scope="session")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venv]:
    # a venv made by the README's command has both; without them the acceptance test would
    # pass by not running, so their absence is a failure
    if not _parent_site_dirs():
        pytest.fail("the test interpreter has no site-packages directory to lend")
    if importlib.util.find_spec("pip") is None or importlib.util.find_spec("setuptools") is None:
        pytest.fail("pip and setuptools are needed to install the examples offline "
                    "(pip install -e '.[test]' installs setuptools)")
    base = tmp_path_factory.mktemp("authors-venv")
    src = base / "tooldeck-src"
    shutil.copytree(ROOT, src, ignore=_ignore)
    examples = []
    for name in EXAMPLES:
        shutil.copytree(ROOT / "examples" / name, base / name, ignore=_ignore)
        examples.append(base / name)
    env_dir = base / "venv"
    check(run([sys.executable, "-m", "venv", "--without-pip", env_dir]))
    python = env_dir / "bin" / "python"
    paths = json.loads(check(run([python, "-c", (
        "import json, sysconfig; print(json.dumps("
        "[sysconfig.get_path('purelib'), sysconfig.get_path('scripts')]))"
    )])).stdout)
    site, scripts = Path(paths[0]), Path(paths[1])
    (site / "_tooldeck_test_parent.pth").write_text("\n".join(_parent_site_dirs()) + "\n")
    venv = Venv(python=python, scripts=scripts, base=base)
    venv.pip_install(src, *examples)
    yield venv
