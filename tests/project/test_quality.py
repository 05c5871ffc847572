"""ruff over the tree and mypy --strict over the package, as part of the suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]' installs it)")
    return found


def test_ruff_is_clean() -> None:
    proc = subprocess.run([tool("ruff"), "check", "--no-cache", str(ROOT)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.timeout(300)
def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    # mypy cannot follow setuptools' package-dir mapping of an editable install, so it
    # checks a link farm with the installed layout: tooldeck/{plugins,filters}.
    pkg = tmp_path / "tooldeck"
    pkg.mkdir()
    for entry in (ROOT / "core").iterdir():
        if entry.name != "__pycache__":
            (pkg / entry.name).symlink_to(entry)
    (pkg / "plugins").symlink_to(ROOT / "plugins")
    (pkg / "filters").symlink_to(ROOT / "filters")
    proc = subprocess.run(
        [tool("mypy"), "--config-file", str(ROOT / "pyproject.toml"), "--no-incremental",
         "-p", "tooldeck"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
