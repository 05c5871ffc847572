"""The architecture contracts of pyproject.toml, checked by import-linter's ``lint-imports``.

grimp (import-linter's graph builder) cannot follow the editable install's ``package-dir``
mapping, so the check runs on a link farm with the installed layout, as the mypy test does.
A second test plants one violation of each kind in a farm and shows each contract catches it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"


def lint_imports() -> str:
    found = (shutil.which("lint-imports", path=str(Path(sys.executable).parent))
             or shutil.which("lint-imports"))
    if found is None:
        # the test extra installs it: without it the contracts would go unchecked, silently
        pytest.fail("lint-imports is not installed (pip install -e '.[test]' installs it)")
    return found


def farm(base: Path, planted: dict[str, str] | None = None) -> Path:
    """``base/tooldeck`` laid out as installed; ``planted`` adds files (relative paths)."""
    pkg = base / "tooldeck"
    pkg.mkdir()
    for entry in (ROOT / "core").iterdir():
        if entry.name != "__pycache__":
            (pkg / entry.name).symlink_to(entry)
    for name in ("plugins", "filters"):
        if planted is None:
            (pkg / name).symlink_to(ROOT / name)
            continue
        folder = pkg / name
        folder.mkdir()
        for entry in (ROOT / name).iterdir():
            if entry.name != "__pycache__":
                (folder / entry.name).symlink_to(entry)
    for rel, text in (planted or {}).items():
        target = pkg / rel
        if target.is_symlink():
            target.unlink()
        target.write_text(text)
    return base


def run(base: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(base)}
    return subprocess.run([lint_imports(), "--no-cache", "--no-logo", str(PYPROJECT)],
                          capture_output=True, text=True, cwd=base, env=env, timeout=120)


def test_the_contracts_are_kept(tmp_path: Path) -> None:
    proc = run(farm(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def test_each_contract_catches_its_violation(tmp_path: Path) -> None:
    proc = run(farm(tmp_path, {
        "planted_core.py": "import tooldeck.plugins.shell.policy\n",
        "plugins/planted_cli.py": "from tooldeck.cli.extensions import load_commands\n",
        "plugins/planted_filter.py": "import tooldeck.filters.engine\n",
        "planted_a.py": "import tooldeck.planted_b\n",
        "planted_b.py": "import tooldeck.planted_a\n",
    }))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Contracts: 0 kept, 4 broken." in proc.stdout, proc.stdout
    assert "tooldeck.planted_core -> tooldeck.plugins.shell.policy" in proc.stdout
    assert "tooldeck.plugins.planted_cli -> tooldeck.cli.extensions" in proc.stdout
    assert "tooldeck.plugins.planted_filter -> tooldeck.filters.engine" in proc.stdout
    assert ".planted_a -> .planted_b" in proc.stdout or ".planted_b -> .planted_a" in proc.stdout
