"""The hard-link guard's limits: which trees are package stores, and a walk that stops early."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tooldeck.errors import ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files import hardlinks
from tooldeck.plugins.files.hardlinks import in_package_store
from tooldeck.plugins.files.read_write import read_file


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = tmp_path / "project"
    root.mkdir()
    (root / "README.md").write_text("hello\n")
    return root


@pytest.fixture
def sandbox(root: Path) -> PathSandbox:
    return PathSandbox([root], cwd=root, deny_read=["**/.env"])


def _refusal(call: object) -> str:
    assert callable(call)
    with pytest.raises(ToolError) as caught:
        call()
    return caught.value.message


def test_a_walk_that_stops_early_refuses(sandbox: PathSandbox, root: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    for index in range(20):
        (root / f"f{index}.txt").write_text("x")
    os.link(root / "README.md", root / "zz.md")
    monkeypatch.setattr(hardlinks, "MAX_INDEXED_ENTRIES", 5)
    message = _refusal(lambda: read_file(sandbox, "zz.md"))
    assert "hardlink-unknown" in message and "stopped early" in message


@pytest.mark.parametrize(("path", "store"), [
    ("/p/.venv/lib/python3.12/site-packages/x/a.py", True),
    ("/usr/lib/python3/dist-packages/a.py", True),
    ("/p/node_modules/.pnpm/x/index.js", True),
    ("/p/.git/objects/ab/cdef", True),
    ("/p/.git/lfs/objects/ab/cd/x", True),
    ("/p/src/site-packages-notes.md", False),
    ("/p/.git/config", False),
    ("/p/objects/x", False),
])
def test_package_stores(path: str, store: bool) -> None:
    assert in_package_store(path) is store


