from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from tooldeck.paths import PathSandbox


@attrs.frozen
class Env:
    """A sandbox root, an outside directory and a sandbox confined to the root."""

    root: Path
    outside: Path
    sandbox: PathSandbox


@pytest.fixture
def env(tmp_path: Path) -> Env:
    root = tmp_path / "sb"
    outside = tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    return Env(root=root, outside=outside, sandbox=PathSandbox([root], cwd=root))
