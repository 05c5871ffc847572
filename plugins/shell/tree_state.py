"""Capture and restore one directory entry exactly, relative to an open parent, never via a symlink.

A captured entry is a :data:`State`: a regular file (mode, times, inode and link count, its
bytes copied to a private store), a symlink (its target text), a directory (mode, times and
every child), a special file (FIFO, socket, device: kind, mode, device number) or
:class:`Missing`. Every operation takes an open parent directory and a name; directories are
entered with ``O_DIRECTORY | O_NOFOLLOW`` and files opened with ``O_NOFOLLOW``, so neither
capture nor restore ever leaves the tree through a symlink.

Restore rules:

==================  ==========================================================================
state               restore
==================  ==========================================================================
file                unchanged bytes in the same inode: mode and times fixed in place.
                    Otherwise the bytes are written to a fresh file beside the name and
                    renamed over it (never written through the existing inode, so a hardlink
                    twin or a symlink at the name is never written through). A file the
                    snapshot holds under several names is linked again under all of them
symlink             recreated as a symlink with the same target text
directory           entered without following; each captured child restored first, then
                    every other entry (created by the command) removed, unless a child
                    could not be restored (then they are kept and reported); mode and times
                    last
FIFO                recreated with ``mkfifo``; a socket or device that changed cannot be
                    recreated: reported
missing             whatever now exists at the name is removed (a directory recursively,
                    without following symlinks)
==================  ==========================================================================

A problem (a component that became a symlink, a hardlink twin that kept the command's bytes,
an ``OSError``) is recorded with its path and reason; the caller reports it.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Mapping
from typing import Literal

import attrs

from tooldeck.plugins.shell.nofollow import PathRefused, open_dir_below

__all__ = [
    "KEPT",
    "Capturer",
    "DirState",
    "FileState",
    "LinkState",
    "Missing",
    "Restorer",
    "SpecialState",
    "State",
    "TooBig",
    "chmod_entry",
    "remove_entry",
]

_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CHUNK = 1 << 20
Inode = tuple[int, int]

KEPT = "kept, not deleted: a restore failed and this entry may hold the only copy"
"""The reason given for a created entry left in place because a restore failed."""


@attrs.frozen
class FileState:
    """A regular file.

    :param mode: permission bits (``S_IMODE``).
    :param times: ``(atime_ns, mtime_ns)``.
    :param inode: ``(st_dev, st_ino)`` at capture, to find hardlink twins.
    :param nlink: the link count at capture.
    :param blob: the private copy of its bytes.
    """

    mode: int
    times: tuple[int, int]
    inode: Inode
    nlink: int
    blob: str


@attrs.frozen
class LinkState:
    """A symlink, kept as a symlink.

    :param target: the link text.
    """

    target: str


@attrs.frozen
class DirState:
    """A directory and everything in it.

    :param mode: permission bits.
    :param times: ``(atime_ns, mtime_ns)``.
    :param children: each entry's state, by name.
    """

    mode: int
    times: tuple[int, int]
    children: Mapping[str, State]


@attrs.frozen
class SpecialState:
    """A FIFO, socket or device node.

    :param kind: ``fifo``, ``socket``, ``char`` or ``block``.
    :param mode: permission bits.
    :param rdev: the device number (0 for FIFOs and sockets).
    """

    kind: Literal["fifo", "socket", "char", "block"]
    mode: int
    rdev: int


@attrs.frozen
class Missing:
    """Nothing existed at the name."""


State = FileState | LinkState | DirState | SpecialState | Missing


class TooBig(Exception):
    """The captured bytes passed the size cap; the message gives both numbers."""


def _times(info: os.stat_result) -> tuple[int, int]:
    return info.st_atime_ns, info.st_mtime_ns


def _special_kind(mode: int) -> Literal["fifo", "socket", "char", "block"]:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "char" if stat.S_ISCHR(mode) else "block"


def _lstat(dir_fd: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


class Capturer:
    """Captures entries into a private store, under a size cap.

    :param store: the private directory blobs are written to.
    :param max_bytes: the cap on copied bytes; 0 means unlimited.
    """

    def __init__(self, store: str, max_bytes: int) -> None:
        self._store = store
        self._max = max_bytes
        self._blobs: dict[Inode, str] = {}
        self.size = 0
        self._names: dict[Inode, set[str]] = {}

    @property
    def names_per_inode(self) -> dict[Inode, int]:
        """How many distinct paths of the snapshot name each captured file."""
        return {inode: len(names) for inode, names in self._names.items()}

    def capture(self, dir_fd: int, name: str, shown: str) -> State:
        """Capture the entry ``name`` of an open directory.

        :param dir_fd: the open parent.
        :param name: the entry's name.
        :param shown: its full path.
        :returns: its state (:class:`Missing` when absent).
        :raises TooBig: over the size cap.
        :raises OSError: the entry cannot be read.
        :raises PathRefused: a directory changed into a symlink while it was read.
        """
        info = _lstat(dir_fd, name)
        if info is None:
            return Missing()
        mode = info.st_mode
        if stat.S_ISLNK(mode):
            return LinkState(os.readlink(name, dir_fd=dir_fd))
        if stat.S_ISREG(mode):
            return self._file(dir_fd, name, shown)
        if stat.S_ISDIR(mode):
            fd = open_dir_below(dir_fd, name)
            try:
                return self.capture_open_dir(fd, shown)
            finally:
                os.close(fd)
        return SpecialState(_special_kind(mode), stat.S_IMODE(mode), info.st_rdev)

    def capture_open_dir(self, fd: int, shown: str) -> DirState:
        """Capture an open directory and everything in it (used for a sandbox root itself).

        :param fd: the open directory.
        :param shown: its full path.
        :returns: its state.
        """
        own = os.fstat(fd)
        children = {child: self.capture(fd, child, f"{shown}/{child}")
                    for child in sorted(os.listdir(fd))}
        return DirState(stat.S_IMODE(own.st_mode), _times(own), children)

    def _file(self, dir_fd: int, name: str, shown: str) -> FileState:
        fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise PathRefused(f"{name!r} changed while it was captured")
            inode = (info.st_dev, info.st_ino)
            self._names.setdefault(inode, set()).add(shown)
            blob = self._blobs.get(inode)
            if blob is None:
                self.size += info.st_size
                if self._max and self.size > self._max:
                    raise TooBig(f"snapshot size {self.size} exceeds limit {self._max}")
                blob = os.path.join(self._store, str(len(self._blobs)))
                with open(blob, "xb") as out:
                    while chunk := os.read(fd, _CHUNK):
                        out.write(chunk)
                self._blobs[inode] = blob
        finally:
            os.close(fd)
        return FileState(stat.S_IMODE(info.st_mode), _times(info), inode, info.st_nlink, blob)


def _same_bytes(fd: int, blob: str) -> bool:
    with open(blob, "rb") as kept:
        if os.fstat(fd).st_size != os.fstat(kept.fileno()).st_size:
            return False
        while True:
            ours = kept.read(_CHUNK)
            theirs = os.read(fd, len(ours)) if ours else os.read(fd, 1)
            if ours != theirs:
                return False
            if not ours:
                return True


def chmod_entry(dir_fd: int, name: str, mode: int) -> None:
    """Change the mode of an entry that is not a symlink, without following one.

    The entry is opened with ``O_PATH | O_NOFOLLOW`` (no read or write permission needed) and
    changed through ``/proc/self/fd``; a symlink found there is refused.

    :param dir_fd: the open parent.
    :param name: the entry.
    :param mode: the permission bits.
    :raises PathRefused: the entry is a symlink.
    """
    fd = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    try:
        if stat.S_ISLNK(os.fstat(fd).st_mode):
            raise PathRefused(f"{name!r} is a symlink")
        os.chmod(f"/proc/self/fd/{fd}", mode)
    finally:
        os.close(fd)


def _open_dir_writable(dir_fd: int, name: str) -> int:
    """Open a directory below ``dir_fd`` without following, making it ``rwx`` for its owner."""
    try:
        fd = open_dir_below(dir_fd, name)
    except PermissionError:
        chmod_entry(dir_fd, name, 0o700)
        fd = open_dir_below(dir_fd, name)
    os.fchmod(fd, stat.S_IMODE(os.fstat(fd).st_mode) | 0o700)
    return fd


def _temp_name() -> str:
    return f".tooldeck-rollback-{secrets.token_hex(8)}"


def remove_entry(dir_fd: int, name: str) -> bool:
    """Remove an entry without following symlinks (a directory with everything in it).

    :param dir_fd: the open parent.
    :param name: the entry.
    :returns: true when something was removed.
    """
    info = _lstat(dir_fd, name)
    if info is None:
        return False
    if not stat.S_ISDIR(info.st_mode):
        os.unlink(name, dir_fd=dir_fd)
        return True
    fd = _open_dir_writable(dir_fd, name)
    try:
        for child in os.listdir(fd):
            remove_entry(fd, child)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=dir_fd)
    return True


class Restorer:
    """Restores states and records what could not be restored.

    :param twins: for each captured inode, how many names the snapshot holds for it.
    """

    def __init__(self, twins: Mapping[Inode, int]) -> None:
        self._twins = twins
        self._placed: dict[Inode, tuple[int, str]] = {}
        self.deleted = 0
        self.problems: list[tuple[str, str]] = []

    def close(self) -> None:
        """Close the directories kept open to link hardlink twins again."""
        for fd, _ in self._placed.values():
            os.close(fd)
        self._placed.clear()

    def restore(self, dir_fd: int, name: str, state: State, shown: str) -> None:
        """Put ``state`` back at ``name``; problems go to :attr:`problems`.

        :param dir_fd: the open parent.
        :param name: the entry's name.
        :param state: the captured state.
        :param shown: the full path, for reports.
        """
        try:
            if isinstance(state, Missing):
                if remove_entry(dir_fd, name):
                    self.deleted += 1
            elif isinstance(state, FileState):
                self._file(dir_fd, name, state, shown)
            elif isinstance(state, LinkState):
                self._link(dir_fd, name, state)
            elif isinstance(state, DirState):
                self._dir(dir_fd, name, state, shown)
            else:
                self._special(dir_fd, name, state, shown)
        except PathRefused as exc:
            self.problems.append((shown, str(exc)))
        except OSError as exc:
            self.problems.append((shown, exc.strerror or str(exc)))

    def _replace(self, dir_fd: int, name: str, temp: str) -> None:
        """Rename ``temp`` over ``name``; a directory at ``name`` is removed first."""
        current = _lstat(dir_fd, name)
        if current is not None and stat.S_ISDIR(current.st_mode):
            remove_entry(dir_fd, name)
        os.rename(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)

    def _file(self, dir_fd: int, name: str, state: FileState, shown: str) -> None:
        placed = self._placed.get(state.inode)
        if placed is not None:
            self._relink(dir_fd, name, placed)
            return
        current = _lstat(dir_fd, name)
        same_inode = current is not None and (current.st_dev, current.st_ino) == state.inode
        in_place = same_inode or state.nlink == 1
        if (current is not None and stat.S_ISREG(current.st_mode) and in_place
                and self._fix_in_place(dir_fd, name, state)):
            self._keep(dir_fd, name, state.inode)
            return
        temp = _temp_name()
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600, dir_fd=dir_fd)
        try:
            with open(state.blob, "rb") as kept:
                while chunk := kept.read(_CHUNK):
                    os.write(fd, chunk)
            os.fchmod(fd, state.mode)
            os.utime(fd, ns=state.times)
        finally:
            os.close(fd)
        try:
            self._replace(dir_fd, name, temp)
        except BaseException:
            os.unlink(temp, dir_fd=dir_fd)
            raise
        self._keep(dir_fd, name, state.inode)
        outside = state.nlink - self._twins.get(state.inode, 1)
        if outside > 0:
            why = ("the command wrote through the shared file; its hardlink twins outside the "
                   "snapshot keep the changed bytes" if same_inode else
                   "restored as a separate file, no longer hard-linked to its twins outside the "
                   "snapshot")
            self.problems.append((shown, f"{why} ({outside} other link(s))"))

    def _fix_in_place(self, dir_fd: int, name: str, state: FileState) -> bool:
        """Fix mode and times when the file still holds the captured bytes."""
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
        except PermissionError:
            chmod_entry(dir_fd, name, state.mode | 0o400)
            fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not _same_bytes(fd, state.blob):
                return False
            if stat.S_IMODE(info.st_mode) != state.mode:
                os.fchmod(fd, state.mode)
            os.utime(fd, ns=state.times)
            return True
        finally:
            os.close(fd)

    def _keep(self, dir_fd: int, name: str, inode: Inode) -> None:
        if self._twins.get(inode, 1) > 1 and inode not in self._placed:
            self._placed[inode] = (os.dup(dir_fd), name)

    def _relink(self, dir_fd: int, name: str, placed: tuple[int, str]) -> None:
        source_fd, source = placed
        first = os.stat(source, dir_fd=source_fd, follow_symlinks=False)
        current = _lstat(dir_fd, name)
        if current is not None and (current.st_dev, current.st_ino) == (first.st_dev,
                                                                        first.st_ino):
            return
        temp = _temp_name()
        os.link(source, temp, src_dir_fd=source_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
        try:
            self._replace(dir_fd, name, temp)
        except BaseException:
            os.unlink(temp, dir_fd=dir_fd)
            raise

    def _link(self, dir_fd: int, name: str, state: LinkState) -> None:
        current = _lstat(dir_fd, name)
        if current is not None and stat.S_ISLNK(current.st_mode) and os.readlink(
                name, dir_fd=dir_fd) == state.target:
            return
        temp = _temp_name()
        os.symlink(state.target, temp, dir_fd=dir_fd)
        try:
            self._replace(dir_fd, name, temp)
        except BaseException:
            os.unlink(temp, dir_fd=dir_fd)
            raise

    def _dir(self, dir_fd: int, name: str, state: DirState, shown: str) -> None:
        current = _lstat(dir_fd, name)
        if current is not None and not stat.S_ISDIR(current.st_mode):
            os.unlink(name, dir_fd=dir_fd)
            current = None
        if current is None:
            os.mkdir(name, 0o700, dir_fd=dir_fd)
        fd = _open_dir_writable(dir_fd, name)
        try:
            self.fill_open_dir(fd, state, shown)
        finally:
            os.close(fd)

    def fill_open_dir(self, fd: int, state: DirState, shown: str) -> None:
        """Restore an open directory's contents, then its mode and times (a root itself).

        :param fd: the open directory.
        :param state: its captured state.
        :param shown: its full path, for reports.
        """
        os.fchmod(fd, state.mode | 0o700)
        before = len(self.problems)
        for child, child_state in state.children.items():
            self.restore(fd, child, child_state, f"{shown}/{child}")
        for child in sorted(set(os.listdir(fd)) - set(state.children)):
            if len(self.problems) > before:
                self.problems.append((f"{shown}/{child}", KEPT))
            elif remove_entry(fd, child):
                self.deleted += 1
        os.fchmod(fd, state.mode)
        os.utime(fd, ns=state.times)

    def _special(self, dir_fd: int, name: str, state: SpecialState, shown: str) -> None:
        current = _lstat(dir_fd, name)
        if (current is not None and _is_special(current.st_mode)
                and _special_kind(current.st_mode) == state.kind
                and current.st_rdev == state.rdev):
            if stat.S_IMODE(current.st_mode) != state.mode:
                chmod_entry(dir_fd, name, state.mode)
            return
        if state.kind != "fifo":
            self.problems.append((shown, f"a {state.kind} cannot be recreated"))
            return
        if current is not None:
            remove_entry(dir_fd, name)
        os.mkfifo(name, state.mode, dir_fd=dir_fd)
        chmod_entry(dir_fd, name, state.mode)


def _is_special(mode: int) -> bool:
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))
