"""Reach a path inside a sandbox root without ever following a symlink.

The root is opened with ``O_NOFOLLOW``; every directory below it is opened relative to its
parent (``dir_fd``) with ``O_DIRECTORY | O_NOFOLLOW``. A component that is a symlink, not a
directory, or a path outside every root raises :class:`PathRefused` with the reason, so a
caller can report it instead of writing through it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Sequence

__all__ = ["DIR_FLAGS", "PathRefused", "open_dir_below", "open_parent", "split_in_root"]

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
"""Flags for opening a directory: never through a symlink."""


class PathRefused(Exception):
    """A path cannot be reached safely; the message says why."""


def split_in_root(roots: Sequence[str], path: str) -> tuple[str, list[str]]:
    """Split a canonical absolute path into its innermost root and the names below it.

    :param roots: canonical sandbox roots.
    :param path: a canonical absolute path.
    :returns: ``(root, names)``; ``names`` is empty for the root itself.
    :raises PathRefused: no root contains the path.
    """
    best = ""
    for root in roots:
        trimmed = root.rstrip("/") or "/"
        prefix = trimmed if trimmed == "/" else trimmed + "/"
        if (path == trimmed or path.startswith(prefix)) and len(trimmed) > len(best):
            best = trimmed
    if not best:
        raise PathRefused("outside every sandbox root")
    rest = path[len(best):].strip("/")
    names = rest.split("/") if rest else []
    if any(name in ("", ".", "..") for name in names):
        raise PathRefused("not a canonical path")
    return best, names


def open_dir_below(parent_fd: int, name: str, *, create: bool = False) -> int:
    """Open a subdirectory relative to an open directory, never through a symlink.

    :param parent_fd: the open parent.
    :param name: the subdirectory's name.
    :param create: create it (mode ``0o777`` less the umask) when it does not exist.
    :returns: a new descriptor the caller must close.
    :raises PathRefused: the entry is a symlink or not a directory.
    :raises OSError: any other failure.
    """
    try:
        return os.open(name, DIR_FLAGS, dir_fd=parent_fd)
    except FileNotFoundError:
        if not create:
            raise
    except OSError as exc:
        if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
            raise
        info = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
        what = "a symlink" if stat.S_ISLNK(info.st_mode) else "not a directory"
        raise PathRefused(f"path component {name!r} is {what}") from exc
    with contextlib.suppress(FileExistsError):
        os.mkdir(name, 0o777, dir_fd=parent_fd)
    return open_dir_below(parent_fd, name, create=False)


def open_parent(roots: Sequence[str], path: str, *, create: bool = False) -> tuple[int, str]:
    """Open the parent directory of a path below a root; return it with the final name.

    :param roots: canonical sandbox roots.
    :param path: a canonical absolute path strictly below a root.
    :param create: create missing parent directories on the way.
    :returns: ``(parent_fd, name)``; the caller must close ``parent_fd``.
    :raises PathRefused: outside the roots, a root itself, or a component that is a symlink
        or not a directory.
    :raises OSError: any other failure (a missing parent without ``create``).
    """
    root, names = split_in_root(roots, path)
    if not names:
        raise PathRefused("is a sandbox root")
    fd = os.open(root, DIR_FLAGS)
    try:
        for name in names[:-1]:
            child = open_dir_below(fd, name, create=create)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd, names[-1]
