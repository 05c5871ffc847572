"""Race-safe descriptor primitives: every open walks down from a sandbox root with ``O_NOFOLLOW``.

The path sandbox checks a canonical path; these functions then *use* that path without ever
letting the kernel follow a symlink: the root is opened, each directory below it is opened
relative to its parent (``dir_fd``) with ``O_DIRECTORY | O_NOFOLLOW``, and the final file with
``O_NOFOLLOW``. A directory swapped for a symlink between the check and the use therefore makes
the operation fail instead of landing outside the sandbox.

Rules (the rejection message names the rule):

===================  ==================  ==================================================
rule                 category            rejects
===================  ==================  ==================================================
``no-symlink-swap``  policy_blocked      a component of a checked path that is a symlink
                                         when used (it was swapped after the check)
``regular-file``     permanent_failure   reading anything but a regular file (a FIFO would
                                         block, a device never ends)
``read-size``        permanent_failure   reading more bytes than the cap
===================  ==================  ==================================================

Every open for reading also passes the file's ``fstat`` to a
:class:`~tooldeck.plugins.files.hardlinks.HardlinkGuard` (rules ``hardlink-secret`` and
``hardlink-unknown``: a file with several names).
"""

from __future__ import annotations

import enum
import errno
import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress

from tooldeck.errors import ErrorCategory, ToolError, classify_io_error
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.hardlinks import HardlinkGuard

__all__ = [
    "DIR_FLAGS",
    "FILE_READ_FLAGS",
    "EntryKind",
    "ReadCapExceeded",
    "entry_kind",
    "list_entries",
    "lstat_path",
    "make_directory",
    "open_child_dir",
    "open_directory",
    "open_directory_fd",
    "open_parent",
    "open_parent_fd",
    "open_regular",
    "os_errors_as_tool_errors",
    "read_file_at",
    "read_regular",
    "remove_entry",
    "write_atomic",
    "write_file_at",
]

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
"""Flags for opening a directory below a checked parent: never through a symlink."""

FILE_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""Flags for opening a file to read: never through a symlink, never blocking on a FIFO."""

_CHUNK = 1 << 20


class EntryKind(enum.Enum):
    """What a directory entry is, classified without following symlinks (lstat semantics)."""

    DIR = "dir"
    FILE = "file"
    SYMLINK = "symlink"
    OTHER = "other"


class ReadCapExceeded(ToolError):
    """Rule ``read-size``: a file is larger than the read cap.

    :param shown: the path named in the message.
    :param size: the file's size in bytes (at least).
    :param cap: the cap in bytes.
    """

    def __init__(self, shown: str, size: int, cap: int) -> None:
        super().__init__(
            ErrorCategory.PERMANENT_FAILURE,
            f"file rule 'read-size': {shown} is {size} bytes, over the {cap}-byte read cap",
        )
        self.size = size
        self.cap = cap


def _swap_error(shown: str) -> ToolError:
    """Rule ``no-symlink-swap``."""
    return ToolError(
        ErrorCategory.POLICY_BLOCKED,
        f"file rule 'no-symlink-swap': a component of {shown} is a symlink at use time "
        "(it changed after the sandbox check); nothing was done",
    )


def _is_symlink_at(dir_fd: int, name: str) -> bool:
    """Whether ``name`` in the open directory is a symlink (False when it cannot be seen)."""
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


@contextmanager
def os_errors_as_tool_errors(shown: str) -> Iterator[None]:
    """Turn an ``OSError`` raised inside the block into a classified :class:`ToolError`.

    :param shown: the path named in the message.
    :returns: a context manager.
    """
    try:
        yield
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ToolError(classify_io_error(exc), f"{reason}: {shown}") from exc


def entry_kind(entry: os.DirEntry[str]) -> EntryKind:
    """Classify a directory entry without following a symlink.

    :param entry: the entry from ``os.scandir``.
    :returns: its kind.
    """
    if entry.is_symlink():
        return EntryKind.SYMLINK
    if entry.is_dir(follow_symlinks=False):
        return EntryKind.DIR
    if entry.is_file(follow_symlinks=False):
        return EntryKind.FILE
    return EntryKind.OTHER


def list_entries(dir_fd: int) -> list[tuple[str, EntryKind]]:
    """List an open directory, sorted by name, each entry classified with lstat semantics.

    :param dir_fd: the open directory (left open).
    :returns: ``(name, kind)`` pairs.
    """
    with os.scandir(dir_fd) as entries:
        listed = [(entry.name, entry_kind(entry)) for entry in entries]
    listed.sort(key=lambda item: item[0])
    return listed


def open_child_dir(parent_fd: int, name: str, *, create: bool, shown: str) -> int:
    """Open (optionally creating) a subdirectory relative to an open parent, never via a symlink.

    :param parent_fd: the open parent directory.
    :param name: the subdirectory's name.
    :param create: create it when it does not exist.
    :param shown: the full path, for messages.
    :returns: a new descriptor the caller must close.
    :raises ToolError: rule ``no-symlink-swap`` when ``name`` is a symlink.
    :raises OSError: for any other failure.
    """
    try:
        return os.open(name, DIR_FLAGS, dir_fd=parent_fd)
    except FileNotFoundError:
        if not create:
            raise
    except OSError as exc:
        if exc.errno in (errno.ENOTDIR, errno.ELOOP) and _is_symlink_at(parent_fd, name):
            raise _swap_error(shown) from exc
        raise
    with suppress(FileExistsError):
        os.mkdir(name, 0o777, dir_fd=parent_fd)
    return open_child_dir(parent_fd, name, create=False, shown=shown)


def open_directory_fd(sandbox: PathSandbox, canonical: str, *, create: bool = False) -> int:
    """Open a checked canonical directory by walking down from its sandbox root.

    The root itself is opened with ``O_NOFOLLOW`` too: a root swapped for a symlink fails.

    :param sandbox: the sandbox whose root contains ``canonical``.
    :param canonical: a path returned by :meth:`PathSandbox.resolve_str`.
    :param create: create missing directories on the way (like ``mkdir -p``).
    :returns: a new descriptor the caller must close.
    """
    root = sandbox.root_str_of(canonical)
    relative = canonical[len(root) :].strip("/")
    fd = os.open(root, DIR_FLAGS)
    try:
        walked = root.rstrip("/")
        for name in relative.split("/") if relative else ():
            walked = f"{walked}/{name}"
            child = open_child_dir(fd, name, create=create, shown=walked)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def open_directory(sandbox: PathSandbox, canonical: str, *, create: bool = False) -> Iterator[int]:
    """Context-manager form of :func:`open_directory_fd` (the descriptor is closed on exit).

    :param sandbox: the sandbox whose root contains ``canonical``.
    :param canonical: a path returned by :meth:`PathSandbox.resolve_str`.
    :param create: create missing directories on the way.
    :returns: a context manager yielding the open directory descriptor.
    """
    fd = open_directory_fd(sandbox, canonical, create=create)
    try:
        yield fd
    finally:
        os.close(fd)


def open_parent_fd(
    sandbox: PathSandbox, canonical: str, *, create: bool = False
) -> tuple[int, str]:
    """Open the parent directory of a checked canonical path; return it with the final name.

    :param sandbox: the sandbox whose root contains ``canonical``.
    :param canonical: a path returned by :meth:`PathSandbox.resolve_str` (not a root).
    :param create: create missing parent directories.
    :returns: ``(parent_fd, name)``; the caller must close ``parent_fd``.
    :raises IsADirectoryError: when ``canonical`` is a sandbox root (it has no usable parent).
    """
    if sandbox.root_str_of(canonical) == canonical:
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), canonical)
    parent, _, name = canonical.rpartition("/")
    return open_directory_fd(sandbox, parent or "/", create=create), name


@contextmanager
def open_parent(
    sandbox: PathSandbox, canonical: str, *, create: bool = False
) -> Iterator[tuple[int, str]]:
    """Context-manager form of :func:`open_parent_fd` (the descriptor is closed on exit).

    :param sandbox: the sandbox whose root contains ``canonical``.
    :param canonical: a path returned by :meth:`PathSandbox.resolve_str` (not a root).
    :param create: create missing parent directories.
    :returns: a context manager yielding ``(parent_fd, name)``.
    """
    fd, name = open_parent_fd(sandbox, canonical, create=create)
    try:
        yield fd, name
    finally:
        os.close(fd)


def lstat_path(sandbox: PathSandbox, canonical: str) -> os.stat_result:
    """``lstat`` a checked canonical path through its parent descriptor.

    :param sandbox: the sandbox whose root contains ``canonical``.
    :param canonical: a checked canonical path (a root is stat-ed directly).
    :returns: the stat result of the entry itself.
    """
    if sandbox.root_str_of(canonical) == canonical:
        return os.lstat(canonical)
    with open_parent(sandbox, canonical) as (fd, name):
        return os.stat(name, dir_fd=fd, follow_symlinks=False)


def open_regular(dir_fd: int, name: str, shown: str, *,
                 guard: HardlinkGuard) -> tuple[int, os.stat_result]:
    """Open a regular file for reading relative to an open directory, never via a symlink.

    :param dir_fd: the open parent directory.
    :param name: the file's name.
    :param shown: the full (canonical) path, for messages and the hard-link rules.
    :param guard: the hard-link rules of this operation.
    :returns: the open descriptor (the caller closes it) and its ``fstat``.
    :raises ToolError: rules ``no-symlink-swap``, ``regular-file``, ``hardlink-secret`` and
        ``hardlink-unknown``.
    """
    try:
        fd = os.open(name, FILE_READ_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP and _is_symlink_at(dir_fd, name):
            raise _swap_error(shown) from exc
        raise
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), shown)
        if not stat.S_ISREG(info.st_mode):
            raise ToolError(
                ErrorCategory.PERMANENT_FAILURE,
                f"file rule 'regular-file': {shown} is not a regular file "
                "(a FIFO, socket or device); it is not read",
            )
        guard.check(shown, info)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_regular(dir_fd: int, name: str, shown: str, max_bytes: int, *,
                 guard: HardlinkGuard) -> bytes:
    """Read a whole regular file relative to an open directory, refusing more than ``max_bytes``.

    :param dir_fd: the open parent directory.
    :param name: the file's name.
    :param shown: the full (canonical) path, for messages and the hard-link rules.
    :param max_bytes: the read cap.
    :param guard: the hard-link rules of this operation.
    :returns: the content.
    :raises ReadCapExceeded: when the file is larger than the cap.
    """
    fd, info = open_regular(dir_fd, name, shown, guard=guard)
    try:
        if info.st_size > max_bytes:
            raise ReadCapExceeded(shown, info.st_size, max_bytes)
        chunks: list[bytes] = []
        total = 0
        request = info.st_size + 1
        while True:
            chunk = os.read(fd, request)
            total += len(chunk)
            if total > max_bytes:
                raise ReadCapExceeded(shown, total, max_bytes)
            chunks.append(chunk)
            if len(chunk) < request:  # a short read of a regular file is its end
                break
            request = _CHUNK
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_file_at(sandbox: PathSandbox, canonical: str, max_bytes: int) -> bytes:
    """Read a checked canonical file race-safely.

    :param sandbox: the sandbox whose root contains ``canonical``.
    :param canonical: a checked canonical path.
    :param max_bytes: the read cap.
    :returns: the content.
    """
    fd, name = open_parent_fd(sandbox, canonical)
    try:
        return read_regular(fd, name, canonical, max_bytes, guard=HardlinkGuard(sandbox))
    finally:
        os.close(fd)


def _write_all(fd: int, chunks: Iterable[bytes]) -> int:
    """Write every chunk to ``fd``; return the byte count."""
    total = 0
    for chunk in chunks:
        view = memoryview(chunk)
        while view:
            written = os.write(fd, view)
            view = view[written:]
            total += written
    return total


def write_atomic(
    dir_fd: int, name: str, chunks: Iterable[bytes], shown: str, *, mode: int | None = None
) -> int:
    """Replace ``name`` in an open directory atomically: temp file, fsync, rename via ``dir_fd``.

    An existing file keeps its permission bits unless ``mode`` is given. The rename replaces
    the directory entry itself, so even a hard link elsewhere keeps its old content.

    :param dir_fd: the open parent directory.
    :param name: the file's name.
    :param chunks: the new content.
    :param shown: the full path, for messages.
    :param mode: permission bits for the file (default: the existing file's, else umask).
    :returns: the number of bytes written.
    :raises ToolError: rule ``no-symlink-swap`` when ``name`` is a symlink at use time.
    """
    try:
        existing: os.stat_result | None = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        existing = None
    if existing is not None:
        if stat.S_ISLNK(existing.st_mode):
            raise _swap_error(shown)
        if stat.S_ISDIR(existing.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), shown)
        if mode is None:
            mode = stat.S_IMODE(existing.st_mode)
    temp = f".tooldeck-{secrets.token_hex(8)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(temp, flags, 0o666, dir_fd=dir_fd)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            total = _write_all(fd, chunks)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp, dir_fd=dir_fd)
        raise
    return total


def write_file_at(sandbox: PathSandbox, canonical: str, data: bytes) -> int:
    """Write a checked canonical file atomically, creating missing parent directories.

    :param sandbox: the sandbox whose root contains ``canonical``.
    :param canonical: a checked canonical path.
    :param data: the new content.
    :returns: the number of bytes written.
    """
    with open_parent(sandbox, canonical, create=True) as (fd, name):
        return write_atomic(fd, name, (data,), canonical)


def make_directory(sandbox: PathSandbox, canonical: str) -> None:
    """Create a checked canonical directory and its missing parents (idempotent).

    :param sandbox: the sandbox whose root contains ``canonical``.
    :param canonical: a checked canonical path.
    """
    with open_directory(sandbox, canonical, create=True):
        pass


def _remove_tree(parent_fd: int, name: str, shown: str) -> None:
    """Remove a directory and everything below it, through descriptors, never following links."""
    fd = open_child_dir(parent_fd, name, create=False, shown=shown)
    try:
        for child, kind in list_entries(fd):
            if kind is EntryKind.DIR:
                _remove_tree(fd, child, f"{shown}/{child}")
            else:
                os.unlink(child, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=parent_fd)


def remove_entry(dir_fd: int, name: str, shown: str, *, recursive: bool) -> None:
    """Remove one entry of an open directory: a file, a symlink (not its target) or a directory.

    :param dir_fd: the open parent directory.
    :param name: the entry's name.
    :param shown: the full path, for messages.
    :param recursive: remove a non-empty directory with its content.
    :raises OSError: ``ENOTEMPTY`` for a non-empty directory without ``recursive``.
    """
    info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    if not stat.S_ISDIR(info.st_mode):
        os.unlink(name, dir_fd=dir_fd)
    elif recursive:
        try:
            _remove_tree(dir_fd, name, shown)
        except RecursionError as exc:
            raise ToolError(
                ErrorCategory.PERMANENT_FAILURE, f"{shown} is nested too deeply to delete"
            ) from exc
    else:
        os.rmdir(name, dir_fd=dir_fd)
