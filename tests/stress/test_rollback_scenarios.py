"""Adversarial rollback scenarios (issue 11): after a rollback the tree is byte-exact or the
result names what was not restored, and nothing outside the sandbox root ever changes.

Two kinds: real ``bash`` runs through a transactional deck that fail with exit code 2, and
direct snapshot/restore calls with a fault injected between capture and rollback (a
directory swapped for a symlink, a file replaced by a link to a secret …).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.plugins.shell.gate import ShellGate
from tooldeck.plugins.shell.transaction import SnapshotError, take_snapshot

TX = "[tools.shell]\ntransactional = true\nauto_rollback = true\n"

# ------------------------------------------------------------------------------ the world


def _dump(top: Path) -> dict[str, Any]:
    """Every entry below ``top``: kind, mode, bytes, mtime, link text; hardlink groups."""
    found: dict[str, Any] = {".": stat.S_IMODE(top.lstat().st_mode)}
    inodes: dict[tuple[int, int], list[str]] = {}
    for folder, dirs, files in os.walk(top):
        for name in (*dirs, *files):
            path = Path(folder) / name
            info = path.lstat()
            rel = str(path.relative_to(top))
            mode = stat.S_IMODE(info.st_mode)
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir", mode)
            elif stat.S_ISREG(info.st_mode):
                found[rel] = ("file", mode, path.read_bytes(), info.st_mtime_ns)
                inodes.setdefault((info.st_dev, info.st_ino), []).append(rel)
            else:
                found[rel] = ("special", stat.S_IFMT(info.st_mode), mode)
    found["<hardlinks>"] = sorted(sorted(v) for v in inodes.values() if len(v) > 1)
    return found


def _populate(root: Path, outside: Path) -> None:
    def put(rel: str, data: bytes, mode: int = 0o644) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        path.chmod(mode)
        os.utime(path, ns=(1_000_000_000, 1_500_000_000))

    put("a.txt", b"alpha\n")
    put("b.txt", b"bravo\n", 0o600)
    put("exec.sh", b"#!/bin/sh\necho hi\n", 0o755)
    put("dir/x.txt", b"x" * 300)
    put("dir/sub/y.bin", bytes(range(256)) * 3 + b"\x00\r\n")
    put("sp ace.txt", b"space\n")
    put("uni-\u00f1\u65e5.txt", "\u00fcnicode\n".encode())
    put("nl\nname", b"newline name\n")
    put("hl1", b"hard\n")
    os.link(root / "hl1", root / "hl2")
    (root / "ro").mkdir()
    put("ro/inner.txt", b"read-only dir\n")
    (root / "ro").chmod(0o555)
    (root / "empty").mkdir(mode=0o750)
    (root / "empty").chmod(0o750)
    os.symlink("a.txt", root / "link")
    os.symlink("dir", root / "dirlink")
    os.mkfifo(root / "pipe", 0o640)
    os.chmod(root / "pipe", 0o640)
    (outside / "secret.txt").write_bytes(b"top secret\n")
    (outside / "twin").write_bytes(b"twin\n")


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path]]:
    """``(root, outside)``: a populated sandbox root (the cwd) and a sibling outside it."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    _populate(root, outside)
    monkeypatch.chdir(root)
    yield root, outside
    for folder, dirs, _ in os.walk(tmp_path):  # let pytest remove read-only directories
        for name in dirs:
            path = Path(folder) / name
            if not path.is_symlink():
                path.chmod(0o700)


@pytest.fixture
async def deck(world: tuple[Path, Path], tmp_path: Path) -> Any:
    """A transactional deck whose sandbox root is ``world``'s root."""
    config = tmp_path / "conf" / "tooldeck.toml"
    config.parent.mkdir()
    config.write_text(f'{TX}[tools.audit]\npath = "{tmp_path / "audit.jsonl"}"\n')
    made = Deck.from_config(config, extra_plugins={})
    yield made
    await made.aclose()


def _shell_rule(deck: Deck, command: str) -> str | None:
    runtime = deck.runtime
    gate = next(p for p in runtime.pm.get_plugins() if isinstance(p, ShellGate))
    call = ToolCall("bash", {"command": command, "background": False})
    decision = gate.tooldeck_check_call(call, runtime.tools["bash"], runtime)
    return None if decision is None else decision.rule


# --------------------------------------------------------------- real runs, exact restore

EXACT = {
    "overwrite": "echo modified > a.txt",
    "append": "echo more >> a.txt",
    "truncate-redirect": ": > a.txt",
    "truncate-command": "truncate -s 0 b.txt",
    "rename": "mv a.txt renamed.txt",
    "rename-over-existing": "mv a.txt b.txt",
    "rename-into-dir": "mv exec.sh dir/sub/",
    "rename-dir": "mv dir moved",
    "delete-then-recreate": "rm a.txt; echo reborn > a.txt",
    "chmod-file": "chmod 000 b.txt",
    "chmod-setuid": "chmod 4711 exec.sh",
    "chmod-read-only-dir": "chmod 700 ro; echo new > ro/inner.txt; chmod 500 ro",
    "delete-tree": "rm -r dir",
    "delete-subtree-then-file": "rm -r dir/sub; echo flat > dir/sub",
    "file-becomes-dir": "rm a.txt; mkdir a.txt",
    "nested-dirs-created": "mkdir -p new/deep/er",
    "touch-new": "touch fresh.txt",
    "space-name": "echo x > 'sp ace.txt'",
    "unicode-name": "echo x > uni-\u00f1\u65e5.txt",
    "newline-name": "rm -- 'nl\nname'",
    "delete-symlink": "rm link",
    "symlink-replaced-by-file": "rm link; echo file > link",
    "write-through-symlink": "echo through > link",
    "delete-dir-symlink": "rm dirlink",
    "new-symlink": "ln -s a.txt newlink",
    "new-hardlink": "ln a.txt hard3",
    "both-hardlink-twins": "sed -i s/hard/soft/ hl1; rm hl2; echo other > hl2",
    "copy-into-dir": "cp a.txt dir/",
    "copy-tree": "cp -r dir dir2",
    "redirect-copy": "cat a.txt > b.txt",
    "sed-in-place": "sed -i s/alpha/omega/ a.txt",
    "tee-two": "echo z | tee a.txt b.txt",
    "install": "install -m 600 a.txt installed.txt",
    "rmdir-mode": "rmdir empty",
    "delete-fifo": "rm pipe",
    "fifo-replaced": "rm pipe; echo notfifo > pipe",
    "copy-into-root": "cp dir/x.txt .",
    "move-into-root": "mv dir/sub/y.bin .",
    "chmod-root": "chmod 700 .; rm b.txt",
    "many-targets": "echo 1 > a.txt; echo 2 > b.txt; rm -r dir; mkdir dir; touch dir/z",
}


@pytest.mark.parametrize("command", EXACT.values(), ids=EXACT.keys())
async def test_run_is_restored_byte_exact(deck: Deck, world: tuple[Path, Path],
                                          command: str) -> None:
    root, outside = world
    before, outside_before = _dump(root), _dump(outside)
    assert _shell_rule(deck, command) != "rollback-coverage"
    result = await deck.call(ToolCall("bash", {"command": f"{command}\nexit 2"}), confirm=True)
    assert result.error is None, result.error
    assert result.output.raw_response["rollback"]["unrestored"] == []
    assert _dump(root) == before
    assert _dump(outside) == outside_before
    assert "[rollback] exit code 2" in result.output.summary


# ----------------------------------------------------- real runs, reported as incomplete

INCOMPLETE = {
    "hardlink-twin-written-through": ("echo changed > hl1", "hl1: the command wrote through"),
    "hardlink-twin-unlinked": ("sed -i s/hard/soft/ hl1", "hl1: restored as a separate file"),
    "dir-swapped-for-symlink-outside": (
        "echo new > dir/x.txt; python3 -c \"import os; os.rename('dir', 'gone'); "
        "os.symlink('../outside', 'dir')\"", "dir/x.txt: not restored: path component"),
    "unseen-interpreter-write": ("python3 -c \"open('made.txt', 'w').write('x')\"",
                                 "not captured: 'python3' may write"),
    "xargs-delete": ("echo a.txt | xargs rm", "not captured: 'xargs rm'"),
}


@pytest.mark.parametrize(("command", "reported"), INCOMPLETE.values(), ids=INCOMPLETE.keys())
async def test_run_that_cannot_be_restored_says_so(deck: Deck, world: tuple[Path, Path],
                                                   command: str, reported: str) -> None:
    _, outside = world
    outside_before = _dump(outside)
    result = await deck.call(ToolCall("bash", {"command": f"{command}\nexit 2"}), confirm=True)
    assert result.error is None, result.error
    rollback = result.output.raw_response["rollback"]
    assert any(reported in item for item in rollback["unrestored"]), rollback
    assert "[rollback incomplete]" in result.output.summary
    assert f"NOT restored {len(rollback['unrestored'])}" in result.output.summary
    assert _dump(outside) == outside_before


# ------------------------------------------------------ snapshot API with injected faults


def _swap_dir_for_outside_link(root: Path, outside: Path) -> None:
    (root / "dir").rename(root / "dir.old")
    os.symlink(outside, root / "dir")


def _file_to_secret_link(root: Path, outside: Path) -> None:
    (root / "a.txt").unlink()
    os.symlink(outside / "secret.txt", root / "a.txt")


def _subdir_to_outside_link(root: Path, outside: Path) -> None:
    (root / "dir" / "sub" / "y.bin").write_bytes(b"changed")
    (root / "dir" / "sub").rename(root / "sub.old")
    os.symlink(outside, root / "dir" / "sub")


def _link_retargeted(root: Path, outside: Path) -> None:
    (root / "link").unlink()
    os.symlink(outside / "secret.txt", root / "link")


def _fifo_removed(root: Path, outside: Path) -> None:
    (root / "pipe").unlink()


def _tree_replaced_by_outside_link(root: Path, outside: Path) -> None:
    (root / "dir").rename(root / "dir.moved")
    os.symlink(outside, root / "dir")


def _file_replaced_by_dir(root: Path, outside: Path) -> None:
    (root / "a.txt").unlink()
    (root / "a.txt").mkdir()
    (root / "a.txt" / "inside").write_text("created")


def _root_file_chmod_and_rewrite(root: Path, outside: Path) -> None:
    (root / "exec.sh").chmod(0o600)
    (root / "exec.sh").write_bytes(b"other")


RESTORED_DESPITE_FAULT: dict[str, tuple[list[str], Callable[[Path, Path], None]]] = {
    "file-replaced-by-link-to-secret": (["a.txt"], _file_to_secret_link),
    "symlink-retargeted-outside": (["link"], _link_retargeted),
    "fifo-removed": (["pipe"], _fifo_removed),
    "tree-replaced-by-outside-link": (["dir"], _tree_replaced_by_outside_link),
    "file-replaced-by-dir": (["a.txt"], _file_replaced_by_dir),
    "chmod-and-rewrite": (["exec.sh"], _root_file_chmod_and_rewrite),
}


@pytest.mark.parametrize(("targets", "fault"), RESTORED_DESPITE_FAULT.values(),
                         ids=RESTORED_DESPITE_FAULT.keys())
def test_fault_is_undone_without_leaving_the_root(world: tuple[Path, Path], targets: list[str],
                                                  fault: Callable[[Path, Path], None]) -> None:
    root, outside = world
    snapshot = take_snapshot([str(root / t) for t in targets], roots=[root], scope=(),
                             max_bytes=0)
    extra = {"dir.moved", "dir.old"}
    before, outside_before = _dump(root), _dump(outside)
    fault(root, outside)
    report = snapshot.rollback()
    snapshot.discard()
    assert report.unrestored == ()
    after = {k: v for k, v in _dump(root).items() if k.split("/")[0] not in extra}
    assert after == before
    assert _dump(outside) == outside_before


REFUSED: dict[str, tuple[list[str], Callable[[Path, Path], None], str]] = {
    "parent-swapped-for-outside-link": (["dir/x.txt"], _swap_dir_for_outside_link,
                                        "dir/x.txt: not restored: path component 'dir'"),
    "deep-parent-swapped": (["dir/sub/y.bin"], _subdir_to_outside_link,
                            "y.bin: not restored: path component 'sub' is a symlink"),
}


@pytest.mark.parametrize(("targets", "fault", "reported"), REFUSED.values(), ids=REFUSED.keys())
def test_restore_through_a_swapped_parent_is_refused(
        world: tuple[Path, Path], targets: list[str], fault: Callable[[Path, Path], None],
        reported: str) -> None:
    root, outside = world
    snapshot = take_snapshot([str(root / t) for t in targets], roots=[root], scope=(),
                             max_bytes=0)
    outside_before = _dump(outside)
    fault(root, outside)
    report = snapshot.rollback()
    snapshot.discard()
    assert report.restored == 0
    assert any(reported in item for item in report.unrestored), report
    assert _dump(outside) == outside_before


def test_created_name_is_kept_when_the_original_cannot_be_restored(
        world: tuple[Path, Path]) -> None:
    root, outside = world
    snapshot = take_snapshot([str(root / "dir/x.txt"), str(root / "copy.txt")], roots=[root],
                             scope=(), max_bytes=0)
    (root / "dir/x.txt").rename(root / "copy.txt")  # the rename
    _swap_dir_for_outside_link(root, outside)  # and the original's parent becomes a link
    report = snapshot.rollback()
    snapshot.discard()
    assert (root / "copy.txt").read_bytes() == b"x" * 300  # the only copy survives
    assert report.deleted == 0
    assert any(item.startswith(f"{root / 'copy.txt'}: kept") for item in report.unrestored)
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt", "twin"]


def test_new_target_below_a_link_to_outside_is_not_deleted(world: tuple[Path, Path]) -> None:
    root, outside = world
    snapshot = take_snapshot([str(root / "empty" / "secret.txt")], roots=[root], scope=(),
                             max_bytes=0)
    (root / "empty").rmdir()
    os.symlink(outside, root / "empty")
    report = snapshot.rollback()
    snapshot.discard()
    assert (outside / "secret.txt").read_bytes() == b"top secret\n"
    assert report.deleted == 0
    assert any("not restored: path component 'empty' is a symlink" in item
               for item in report.unrestored), report


def test_created_link_above_a_new_target_is_removed_not_followed(
        world: tuple[Path, Path]) -> None:
    root, outside = world
    snapshot = take_snapshot([str(root / "made" / "secret.txt")], roots=[root], scope=(),
                             max_bytes=0)
    os.symlink(outside, root / "made")  # "made" did not exist: the run created it
    report = snapshot.rollback()
    snapshot.discard()
    assert not os.path.lexists(root / "made")
    assert (outside / "secret.txt").read_bytes() == b"top secret\n"
    assert (report.deleted, report.unrestored) == (1, ())


def test_hardlink_twin_outside_the_root_is_never_written(world: tuple[Path, Path]) -> None:
    root, outside = world
    (root / "shared").unlink(missing_ok=True)
    os.link(outside / "twin", root / "shared")
    snapshot = take_snapshot([str(root / "shared")], roots=[root], scope=(), max_bytes=0)
    with open(root / "shared", "r+b") as handle:  # the command writes in place
        handle.write(b"TWIN\n")
    outside_before = _dump(outside)
    report = snapshot.rollback()
    snapshot.discard()
    assert (root / "shared").read_bytes() == b"twin\n"
    assert _dump(outside) == outside_before  # the rollback did not write through the twin
    assert any("hardlink twins outside the snapshot" in item for item in report.unrestored)


@pytest.mark.parametrize("target", ["dirlink/x.txt", "../outside/secret.txt", "../outside"])
def test_snapshot_refuses_paths_it_cannot_reach_safely(world: tuple[Path, Path],
                                                       target: str) -> None:
    root, _ = world
    path = os.path.normpath(root / target)
    with pytest.raises(SnapshotError):
        take_snapshot([path], roots=[root], scope=(), max_bytes=0)
