"""Transactional execution: snapshot a command's write targets, restore them on failure.

=====================  ==================================================================
step                   behaviour
=====================  ==================================================================
targets                the analyzer's write targets (redirections, operands of ``rm mv cp
                       tee touch mkdir sed -i …``), resolved in the sandbox without
                       following the last symlink; outside the sandbox: skipped (the gate
                       already denied those)
scope                  only targets matched by a ``transaction_scope`` glob (a relative glob
                       matches at any depth); empty scope: every target
capture                a missing target is recorded as *new* (rollback deletes it); a file
                       or directory is copied (permissions kept) into a private temporary
                       directory; symlinks and special files are skipped
size cap               more than ``max_snapshot_bytes`` (when > 0): ``snapshot size N
                       exceeds limit M``, nothing kept
rollback               per target, atomically: the copy is written beside the target and
                       renamed over it (a directory is swapped in by two renames); *new*
                       targets are deleted; any failure is reported (a partial restore is
                       an error, never silent)
=====================  ==================================================================
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

from tooldeck.paths import Glob

__all__ = ["Rollback", "Snapshot", "SnapshotError", "take_snapshot"]


class SnapshotError(Exception):
    """The snapshot could not be taken; the message says why."""


@attrs.frozen
class _Entry:
    target: str
    kind: Literal["file", "dir", "new"]
    copy: str | None = None


@attrs.frozen
class Rollback:
    """What a rollback did.

    :param restored: targets put back as they were.
    :param deleted: targets the command created, removed.
    :param errors: targets that could not be restored, with the reason.
    """

    restored: int
    deleted: int
    errors: tuple[str, ...] = ()


def _tree_size(path: str) -> int:
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            info = os.lstat(os.path.join(folder, name))
            if stat.S_ISREG(info.st_mode):
                total += info.st_size
    return total


def _capture_one(target: str, store: str, index: int) -> tuple[_Entry | None, int]:
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return _Entry(target, "new"), 0
    copy = os.path.join(store, str(index))
    if stat.S_ISREG(info.st_mode):
        return _Entry(target, "file", copy), info.st_size
    if stat.S_ISDIR(info.st_mode):
        return _Entry(target, "dir", copy), _tree_size(target)
    return None, 0


def _copy(entry: _Entry) -> None:
    assert entry.copy is not None
    if entry.kind == "file":
        shutil.copy2(entry.target, entry.copy)
    else:
        shutil.copytree(entry.target, entry.copy, symlinks=True)


class Snapshot:
    """Copies of a command's write targets, kept until :meth:`discard`.

    :param store: the private temporary directory holding the copies.
    :param entries: what was captured, in target order.
    :param size: bytes copied.
    """

    def __init__(self, store: str, entries: Sequence[_Entry], size: int) -> None:
        self._store = store
        self.entries = tuple(entries)
        self.size = size

    @property
    def targets(self) -> tuple[str, ...]:
        """The captured target paths."""
        return tuple(e.target for e in self.entries)

    def rollback(self) -> Rollback:
        """Put every target back as it was at capture time.

        :returns: counts of restored and deleted targets, and any errors.
        """
        restored = deleted = 0
        errors: list[str] = []
        for entry in reversed(self.entries):
            try:
                if entry.kind == "new":
                    deleted += _delete(entry.target)
                else:
                    _restore(entry)
                    restored += 1
            except OSError as exc:
                errors.append(f"{entry.target}: {exc.strerror or exc}")
        return Rollback(restored, deleted, tuple(errors))

    def discard(self) -> None:
        """Remove the copies."""
        shutil.rmtree(self._store, ignore_errors=True)


def _delete(target: str) -> int:
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return 0
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(target)
    else:
        os.unlink(target)
    return 1


def _restore(entry: _Entry) -> None:
    assert entry.copy is not None
    parent = os.path.dirname(entry.target)
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".tooldeck-rollback-", dir=parent)
    try:
        fresh = os.path.join(staging, "new")
        if entry.kind == "file":
            shutil.copy2(entry.copy, fresh)
            if os.path.isdir(entry.target) and not os.path.islink(entry.target):
                shutil.rmtree(entry.target)
            os.replace(fresh, entry.target)
            return
        shutil.copytree(entry.copy, fresh, symlinks=True)
        if os.path.lexists(entry.target):
            os.replace(entry.target, os.path.join(staging, "old"))
        os.replace(fresh, entry.target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _in_scope(path: str, scope: Sequence[Glob]) -> bool:
    return not scope or any(glob.matches(path) for glob in scope)


def take_snapshot(targets: Iterable[str], *, scope: Sequence[Glob], max_bytes: int) -> Snapshot:
    """Capture canonical write targets before a command runs.

    :param targets: canonical absolute paths (deduplicated here).
    :param scope: ``transaction_scope`` globs; empty means every target.
    :param max_bytes: the size cap; 0 means unlimited.
    :returns: the snapshot (possibly empty).
    :raises SnapshotError: over the cap, or a target that cannot be read or copied.
    """
    store = tempfile.mkdtemp(prefix="tooldeck-snapshot-")
    entries: list[_Entry] = []
    size = 0
    try:
        for index, target in enumerate(dict.fromkeys(targets)):
            if not _in_scope(target, scope):
                continue
            entry, bytes_ = _capture_one(target, store, index)
            if entry is None:
                continue
            size += bytes_
            if max_bytes and size > max_bytes:
                raise SnapshotError(f"snapshot size {size} exceeds limit {max_bytes}")
            if entry.copy is not None:
                _copy(entry)
            entries.append(entry)
    except (OSError, shutil.Error) as exc:
        shutil.rmtree(store, ignore_errors=True)
        raise SnapshotError(f"cannot copy a write target: {exc}") from exc
    except SnapshotError:
        shutil.rmtree(store, ignore_errors=True)
        raise
    return Snapshot(store, entries, size)

