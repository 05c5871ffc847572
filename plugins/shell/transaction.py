"""Transactional execution: snapshot a command's write targets, restore them on failure.

=====================  ==================================================================
step                   behaviour
=====================  ==================================================================
targets                the analyzer's write targets (redirections, operands of ``rm mv cp
                       tee touch mkdir sed -i …``), each resolved in the sandbox twice: the
                       entry itself (the last symlink not followed) and what a write through
                       it reaches (followed); outside the sandbox: skipped (the gate already
                       denied those). A write the analyzer cannot resolve makes the
                       gate ask first (:mod:`.rollback_coverage`)
scope                  only targets matched by a ``transaction_scope`` glob (a relative glob
                       matches at any depth); empty scope: every target
capture                a target below a missing directory is recorded as the shallowest
                       missing directory, *new* (``mkdir -p a/b/c`` creates ``a``); a
                       sandbox root itself (``cp x .``) whole, restored in place; each
                       target is reached from its sandbox root with ``O_NOFOLLOW``
                       and ``dir_fd``-relative opens (:mod:`.nofollow`) and captured exactly
                       (:mod:`.tree_state`): a missing target is recorded as *new*; a file's
                       bytes, mode, times and hardlink count, a symlink's target text, a
                       directory's whole tree, a FIFO or device node
size cap               more than ``max_snapshot_bytes`` (when > 0): ``snapshot size N
                       exceeds limit M``, nothing kept
rollback               captured targets first, shallowest first, each reached again from
                       its root without following any symlink; then *new* targets deleted,
                       deepest first, but only when every restore worked and the scope
                       skipped no target (otherwise they are kept: a renamed file's new
                       name may hold the only copy). A target
                       whose path now passes through a symlink, or that cannot be put back
                       exactly, is reported in :attr:`Rollback.unrestored` with the reason
=====================  ==================================================================
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Sequence

import attrs

from tooldeck.paths import Glob
from tooldeck.plugins.shell.nofollow import DIR_FLAGS, PathRefused, open_parent, split_in_root
from tooldeck.plugins.shell.tree_state import (
    KEPT,
    Capturer,
    DirState,
    Missing,
    Restorer,
    State,
    TooBig,
)

__all__ = ["Rollback", "Snapshot", "SnapshotError", "take_snapshot"]


class SnapshotError(Exception):
    """The snapshot could not be taken; the message says why."""


@attrs.frozen
class _Entry:
    target: str
    state: State

    @property
    def new(self) -> bool:
        return isinstance(self.state, Missing)


@attrs.frozen
class Rollback:
    """What a rollback did.

    :param restored: captured targets put back exactly as they were.
    :param deleted: entries the command created, removed.
    :param unrestored: ``"path: reason"`` for everything that could not be put back (or, for
        a created entry, was kept); empty when the rollback was complete.
    """

    restored: int
    deleted: int
    unrestored: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether everything was put back."""
        return not self.unrestored


KEPT_UNCAPTURED = ("kept, not deleted: some writes were not captured (outside "
                   "transaction_scope or not resolvable) and this entry may hold their only copy")
"""The reason given for a created entry left in place because some writes were not captured."""


def _depth(path: str) -> int:
    return path.count("/")


class Snapshot:
    """Exact captures of a command's write targets, kept until :meth:`discard`.

    :param store: the private temporary directory holding the file copies.
    :param roots: the canonical sandbox roots; nothing outside them is restored.
    :param entries: what was captured, in target order.
    :param size: bytes copied.
    :param twins: for each captured file inode, how many snapshot paths name it.
    :param skipped: targets left out by ``transaction_scope``.
    :param uncovered: why some writes of the command could not be captured at all (each is
        reported by every rollback as not restored).
    """

    def __init__(self, store: str, roots: Sequence[str], entries: Sequence[_Entry], size: int,
                 twins: dict[tuple[int, int], int], skipped: Sequence[str] = (),
                 uncovered: Sequence[str] = ()) -> None:
        self._store = store
        self.skipped = tuple(skipped)
        self.uncovered = tuple(uncovered)
        self.roots = tuple(roots)
        self.entries = tuple(entries)
        self.size = size
        self._twins = twins

    @property
    def targets(self) -> tuple[str, ...]:
        """The captured target paths."""
        return tuple(e.target for e in self.entries)

    def rollback(self) -> Rollback:
        """Put every target back as it was at capture time (see the module table).

        :returns: counts of restored and deleted entries, and what could not be restored.
        """
        restorer = Restorer(self._twins)
        restored = 0
        try:
            for entry in sorted((e for e in self.entries if not e.new),
                                key=lambda e: _depth(e.target)):
                before = len(restorer.problems)
                self._apply(restorer, entry, create=True)
                restored += len(restorer.problems) == before
            keep = (KEPT if restorer.problems else
                    KEPT_UNCAPTURED if self.skipped or self.uncovered else None)
            for entry in sorted((e for e in self.entries if e.new),
                                key=lambda e: -_depth(e.target)):
                if keep is not None:
                    if _exists(self.roots, entry.target):
                        restorer.problems.append((entry.target, keep))
                    continue
                self._apply(restorer, entry, create=False)
        finally:
            restorer.close()
        unrestored = (*(f"{path}: {reason}" for path, reason in restorer.problems),
                      *(f"not captured: {reason}" for reason in self.uncovered))
        return Rollback(restored, restorer.deleted, unrestored)

    def _apply(self, restorer: Restorer, entry: _Entry, *, create: bool) -> None:
        if isinstance(entry.state, DirState) and entry.target in self.roots:
            _restore_root(restorer, entry.target, entry.state)
            return
        try:
            parent, name = open_parent(self.roots, entry.target, create=create)
        except FileNotFoundError:
            return  # a new target whose parent is gone: nothing left to delete
        except PathRefused as exc:
            restorer.problems.append((entry.target, f"not restored: {exc}"))
            return
        except OSError as exc:
            restorer.problems.append((entry.target, exc.strerror or str(exc)))
            return
        try:
            restorer.restore(parent, name, entry.state, entry.target)
        finally:
            os.close(parent)

    def discard(self) -> None:
        """Remove the copies."""
        shutil.rmtree(self._store, ignore_errors=True)


def _restore_root(restorer: Restorer, root: str, state: DirState) -> None:
    """Restore a sandbox root's contents in place (the root itself is never replaced)."""
    try:
        fd = os.open(root, DIR_FLAGS)
    except OSError as exc:
        restorer.problems.append((root, f"not restored: {exc.strerror or exc}"))
        return
    try:
        restorer.fill_open_dir(fd, state, root)
    except OSError as exc:
        restorer.problems.append((root, exc.strerror or str(exc)))
    finally:
        os.close(fd)


def _exists(roots: Sequence[str], path: str) -> bool:
    try:
        parent, name = open_parent(roots, path)
    except (OSError, PathRefused):
        return True  # cannot look: say it may exist
    try:
        os.stat(name, dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        return False
    finally:
        os.close(parent)
    return True


def _in_scope(path: str, scope: Sequence[Glob]) -> bool:
    return not scope or any(glob.matches(path) for glob in scope)


def _shallowest_missing(roots: Sequence[str], target: str) -> str:
    """The first ancestor of ``target`` (or itself) that does not exist yet."""
    root, names = split_in_root(roots, target)
    path = root.rstrip("/")
    for name in names:
        path = f"{path}/{name}"
        if not _exists(roots, path):
            return path
    return target


def _capture(capturer: Capturer, roots: Sequence[str], target: str) -> _Entry:
    """Capture a target; one below a missing directory is recorded as that directory, *new*."""
    if target in roots:
        fd = os.open(target, DIR_FLAGS)
        try:
            return _Entry(target, capturer.capture_open_dir(fd, target))
        finally:
            os.close(fd)
    try:
        parent, name = open_parent(roots, target)
    except FileNotFoundError:
        return _Entry(_shallowest_missing(roots, target), Missing())
    try:
        return _Entry(target, capturer.capture(parent, name, target))
    finally:
        os.close(parent)


def take_snapshot(targets: Iterable[str], *, roots: Iterable[str | os.PathLike[str]],
                  scope: Sequence[Glob], max_bytes: int,
                  uncovered: Sequence[str] = ()) -> Snapshot:
    """Capture canonical write targets before a command runs.

    :param targets: canonical absolute paths (deduplicated here).
    :param roots: the sandbox roots (canonical); every target must lie below one.
    :param scope: ``transaction_scope`` globs; empty means every target.
    :param max_bytes: the size cap; 0 means unlimited.
    :param uncovered: reasons some writes could not be captured (see :class:`Snapshot`).
    :returns: the snapshot (possibly empty).
    :raises SnapshotError: over the cap, a target outside the roots or reached through a
        symlink, or a target that cannot be read.
    """
    root_texts = [os.fspath(root) for root in roots]
    store = tempfile.mkdtemp(prefix="tooldeck-snapshot-")
    capturer = Capturer(store, max_bytes)
    entries: dict[str, _Entry] = {}
    skipped: list[str] = []
    try:
        for target in dict.fromkeys(targets):
            if _in_scope(target, scope):
                entry = _capture(capturer, root_texts, target)
                entries.setdefault(entry.target, entry)
            else:
                skipped.append(target)
    except TooBig as exc:
        shutil.rmtree(store, ignore_errors=True)
        raise SnapshotError(str(exc)) from exc
    except PathRefused as exc:
        shutil.rmtree(store, ignore_errors=True)
        raise SnapshotError(f"cannot capture {target}: {exc}") from exc
    except OSError as exc:
        shutil.rmtree(store, ignore_errors=True)
        raise SnapshotError(f"cannot copy a write target: {exc}") from exc
    return Snapshot(store, root_texts, list(entries.values()), capturer.size,
                    capturer.names_per_inode, skipped, uncovered)
