"""Check-then-use races: a directory swapped for a symlink must never let I/O land outside."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.plugins.files.read_write import read_file, write_file
from tooldeck.plugins.files.safe_io import read_file_at, write_file_at
from tooldeck.plugins.files.search import grep
from tooldeck.plugins.files.tree_ops import delete_path

Env = Any


def _swap_dir_for_link(directory: Path, target: Path) -> None:
    os.rename(directory, directory.with_name(directory.name + ".moved"))
    os.symlink(target, directory)


def test_write_after_parent_swapped_for_symlink_is_refused(env: Env) -> None:
    (env.root / "d").mkdir()
    canonical = env.sandbox.resolve_str("d/f.txt", op="write")
    _swap_dir_for_link(env.root / "d", env.outside)
    with pytest.raises(ToolError) as caught:
        write_file_at(env.sandbox, canonical, b"pwned")
    assert caught.value.category is ErrorCategory.POLICY_BLOCKED
    assert "'no-symlink-swap'" in caught.value.message
    assert list(env.outside.iterdir()) == []


def test_write_after_deep_ancestor_swapped_is_refused(env: Env) -> None:
    (env.root / "a" / "b").mkdir(parents=True)
    canonical = env.sandbox.resolve_str("a/b/c/f.txt", op="write")
    _swap_dir_for_link(env.root / "a", env.outside)
    with pytest.raises(ToolError):
        write_file_at(env.sandbox, canonical, b"pwned")
    assert list(env.outside.iterdir()) == []


def test_read_after_parent_swapped_for_symlink_is_refused(env: Env) -> None:
    (env.root / "d").mkdir()
    (env.root / "d" / "f.txt").write_text("inside")
    (env.outside / "f.txt").write_text("SECRET")
    canonical = env.sandbox.resolve_str("d/f.txt")
    _swap_dir_for_link(env.root / "d", env.outside)
    with pytest.raises(ToolError) as caught:
        read_file_at(env.sandbox, canonical, 1024)
    assert caught.value.category is ErrorCategory.POLICY_BLOCKED


def test_read_after_file_swapped_for_symlink_is_refused(env: Env) -> None:
    (env.root / "f.txt").write_text("inside")
    (env.outside / "secret.txt").write_text("SECRET")
    canonical = env.sandbox.resolve_str("f.txt")
    os.unlink(env.root / "f.txt")
    os.symlink(env.outside / "secret.txt", env.root / "f.txt")
    with pytest.raises(ToolError) as caught:
        read_file_at(env.sandbox, canonical, 1024)
    assert "'no-symlink-swap'" in caught.value.message


def test_write_after_file_swapped_for_symlink_is_refused(env: Env) -> None:
    (env.root / "f.txt").write_text("inside")
    victim = env.outside / "victim.txt"
    victim.write_text("keep")
    canonical = env.sandbox.resolve_str("f.txt", op="write")
    os.unlink(env.root / "f.txt")
    os.symlink(victim, env.root / "f.txt")
    with pytest.raises(ToolError):
        write_file_at(env.sandbox, canonical, b"pwned")
    assert victim.read_text() == "keep"


class Flipper(threading.Thread):
    """Flip ``root/d`` between a real directory and a symlink to ``outside`` in a loop."""

    def __init__(self, root: Path, outside: Path) -> None:
        super().__init__(daemon=True)
        self.root, self.outside = root, outside
        self.stop = threading.Event()
        self.flips = 0

    def run(self) -> None:
        d = self.root / "d"
        while not self.stop.is_set():
            self.flips += 1
            try:
                if os.path.islink(d):
                    os.unlink(d)
                    os.mkdir(d)
                    (d / "f.txt").write_text("inside")
                else:
                    os.rename(d, self.root / f"stash{self.flips}")
                    os.symlink(self.outside, d)
            except OSError:
                pass


def _race(env: Env, action: Any, seconds: float = 2.0) -> Counter[str]:
    (env.root / "d").mkdir()
    (env.root / "d" / "f.txt").write_text("inside")
    flipper = Flipper(env.root, env.outside)
    flipper.start()
    outcomes: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            try:
                action()
                outcomes["ok"] += 1
            except ToolError as exc:
                assert exc.category in (
                    ErrorCategory.POLICY_BLOCKED,
                    ErrorCategory.PERMANENT_FAILURE,
                ), exc.message
                outcomes[exc.category.value] += 1
    finally:
        flipper.stop.set()
        flipper.join()
    assert flipper.flips > 100
    return outcomes


def test_concurrent_flip_never_lets_a_write_land_outside(env: Env) -> None:
    outcomes = _race(env, lambda: write_file(env.sandbox, "d/f.txt", "written"))
    assert list(env.outside.iterdir()) == []
    assert outcomes["ok"] > 0 and outcomes["policy_blocked"] > 0, outcomes


def test_concurrent_flip_never_lets_a_read_see_outside(env: Env) -> None:
    (env.outside / "f.txt").write_text("SECRET")

    def read() -> None:
        assert "SECRET" not in read_file(env.sandbox, "d/f.txt").summary

    outcomes = _race(env, read)
    assert outcomes["ok"] > 0 and outcomes["policy_blocked"] > 0, outcomes


def test_concurrent_flip_never_lets_grep_or_delete_reach_outside(env: Env) -> None:
    (env.outside / "f.txt").write_text("SECRET\n")
    (env.outside / "keep.txt").write_text("keep")

    def grep_then_delete() -> None:
        assert "SECRET" not in grep(env.sandbox, "SECRE[T]|inside").summary
        delete_path(env.sandbox, "d", recursive=True)

    _race(env, grep_then_delete, seconds=1.5)
    assert sorted(p.name for p in env.outside.iterdir()) == ["f.txt", "keep.txt"]
