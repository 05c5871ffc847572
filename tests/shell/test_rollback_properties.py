"""Property: whatever a command does below the captured names, the rollback puts those names
back byte-exact (kinds, bytes, modes, link texts) and changes nothing else, inside the root
or outside it."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tooldeck.plugins.shell.transaction import take_snapshot

NAMES = ("a", "b", "c")
PATHS = [*NAMES, *(f"{x}/{y}" for x in NAMES for y in NAMES)]
MODES = (0o600, 0o644, 0o755, 0o500, 0o000, 0o4755)

trees: Any = st.recursive(
    st.one_of(st.tuples(st.just("file"), st.binary(max_size=20), st.sampled_from(MODES)),
              st.tuples(st.just("link"), st.sampled_from(["a", "../outside", "/tmp", "x/y"]))),
    lambda inner: st.tuples(st.just("dir"), st.dictionaries(st.sampled_from(NAMES), inner,
                                                            max_size=3)),
    max_leaves=6,
)
ops = st.lists(st.tuples(
    st.sampled_from(["write", "replace", "delete", "chmod", "mkdir", "swap", "rename"]),
    st.sampled_from(PATHS), st.sampled_from(PATHS), st.binary(max_size=8),
    st.sampled_from(MODES)), max_size=6)


def _build(path: Path, node: Any) -> None:
    if node[0] == "file":
        path.write_bytes(node[1])
        path.chmod(node[2])
    elif node[0] == "link":
        os.symlink(node[1], path)
    else:
        path.mkdir()
        for name, child in node[1].items():
            _build(path / name, child)


def _dump(top: Path) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for folder, dirs, files in os.walk(top):
        for name in (*dirs, *files):
            path = Path(folder) / name
            info = path.lstat()
            mode = stat.S_IMODE(info.st_mode)
            rel = str(path.relative_to(top))
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir", mode)
            else:
                found[rel] = ("file", mode, path.read_bytes(), info.st_mtime_ns)
    return found


def _captured(dump: dict[str, Any]) -> dict[str, Any]:
    return {rel: node for rel, node in dump.items() if rel.split("/")[0] in NAMES}


def _elsewhere(dump: dict[str, Any]) -> dict[str, Any]:
    return {rel: node for rel, node in dump.items() if rel.split("/")[0] not in NAMES}


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _apply(root: Path, outside: Path, op: tuple[str, str, str, bytes, int]) -> None:
    """One change a command could make (it may follow symlinks: commands do)."""
    kind, rel, other, data, mode = op
    path = root / rel
    with contextlib.suppress(OSError):
        if kind == "write":
            with open(path, "ab") as handle:
                handle.write(data)
        elif kind == "replace":
            (root / "tmp.new").write_bytes(data)
            os.replace(root / "tmp.new", path)
        elif kind == "delete":
            _remove(path)
        elif kind == "chmod" and not path.is_symlink():
            path.chmod(mode)
        elif kind == "mkdir":
            path.mkdir()
        elif kind == "swap":
            _remove(path)
            os.symlink(outside, path)
        elif kind == "rename":
            os.rename(path, root / other)


@settings(max_examples=100, deadline=None)
@given(tree=st.dictionaries(st.sampled_from(NAMES), trees, max_size=3), changes=ops)
@example(tree={"b": ("dir", {"a": ("link", "a"), "b": ("link", "a"),
                             "c": ("link", "../outside")})},
         changes=[("write", "b/c", "a", b"", 0o600)])  # found by hypothesis
def test_rollback_restores_everything_below_captured_names(tree: dict[str, Any],
                                                           changes: list[Any]) -> None:
    with tempfile.TemporaryDirectory() as base:
        root, outside = Path(base) / "root", Path(base) / "outside"
        root.mkdir()
        outside.mkdir()
        (outside / "secret").write_bytes(b"secret")
        for name, node in tree.items():
            _build(root / name, node)
        before = _dump(root)
        snapshot = take_snapshot([str(root / n) for n in NAMES], roots=[root], scope=(),
                                 max_bytes=0)
        for change in changes:
            _apply(root, outside, change)
        with contextlib.suppress(FileNotFoundError):
            (root / "tmp.new").unlink()
        outside_before = _dump(outside)
        elsewhere_before = _elsewhere(_dump(root))
        report = snapshot.rollback()
        snapshot.discard()
        assert report.unrestored == ()
        after = _dump(root)
        assert _captured(after) == _captured(before)
        # a write through a link below a captured name can land elsewhere in the root (b/c ->
        # ../outside creates root/outside): not captured, so not undone, and left as it was
        assert _elsewhere(after) == elsewhere_before
        assert _dump(outside) == outside_before
        for folder, dirs, _ in os.walk(base):
            for name in dirs:
                path = Path(folder) / name
                if not path.is_symlink():
                    path.chmod(0o700)
