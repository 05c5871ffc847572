from __future__ import annotations

import os
from pathlib import Path

import attrs
import pytest


@attrs.frozen
class Farm:
    """A sandbox root full of symlinks next to an outside directory."""

    base: Path
    root: Path
    outside: Path


def build_farm(base: Path) -> Farm:
    root = base / "sb"
    outside = base / "outside"
    (root / "real" / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "real" / "file.txt").write_text("inside\n")
    (outside / "secret.txt").write_text("secret\n")
    links = {
        "link_in": "real/file.txt",
        "link_in_abs": str(root / "real"),
        "link_out": "../outside/secret.txt",
        "link_out_abs": str(outside),
        "chain1": "chain2",
        "chain2": "link_out",
        "chain_in1": "chain_in2",
        "chain_in2": "real",
        "dangle_out": "../outside/nope.txt",
        "dangle_out_abs": "/etc/tooldeck-nope",
        "dangle_in": "real/nothing.txt",
        "loop_a": "loop_b",
        "loop_b": "loop_a",
        "etc": "/etc",
        "up": "..",
        "dotdot_out": "real/../../outside",
    }
    for name, target in links.items():
        os.symlink(target, root / name)
    os.symlink("../../../outside", root / "real" / "sub" / "escape")
    return Farm(base=base, root=root, outside=outside)


@pytest.fixture
def farm(tmp_path: Path) -> Farm:
    return build_farm(tmp_path)


@pytest.fixture(scope="module")
def module_farm(tmp_path_factory: pytest.TempPathFactory) -> Farm:
    return build_farm(tmp_path_factory.mktemp("farm"))
