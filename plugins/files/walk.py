"""A descriptor-based, pre-order directory walk that never follows symlinks."""

from __future__ import annotations

import os
from collections.abc import Iterator

import attrs

from tooldeck.plugins.files.ignore import IgnoreChain
from tooldeck.plugins.files.safe_io import DIR_FLAGS, EntryKind, list_entries

__all__ = ["WalkEntry", "walk_tree"]


@attrs.frozen
class WalkEntry:
    """One entry met by :func:`walk_tree`.

    :param path: the entry's path (the walk's start path plus the names below it).
    :param name: the entry's name.
    :param kind: what it is (lstat semantics: a symlink is never a file or directory here).
    :param dir_fd: the open containing directory; valid only until the walk moves on.
    """

    path: str
    name: str
    kind: EntryKind
    dir_fd: int


def walk_tree(
    dir_fd: int,
    path: str,
    *,
    skip_hidden: bool = False,
    skip_dirs: frozenset[str] = frozenset(),
    ignore: IgnoreChain | None = None,
) -> Iterator[WalkEntry]:
    """Walk everything below an open directory, sorted by name, directories before their content.

    Subdirectories are opened relative to their parent with ``O_NOFOLLOW``; a symlink is
    reported but never entered, and a directory that vanishes or turns into a symlink while
    walking is skipped. At most one descriptor per level is open at a time.

    :param dir_fd: the open start directory (left open; the caller owns it).
    :param path: the start directory's path, prefixed to every reported path.
    :param skip_hidden: skip entries whose name starts with ``.``.
    :param skip_dirs: directory names not to report nor enter.
    :param ignore: the ignore rules in force in the start directory; an ignored entry is
        neither reported nor entered, and each entered directory's ignore files are added.
    :returns: an iterator of entries.
    """
    base = path.rstrip("/")
    stack: list[tuple[str, int, Iterator[tuple[str, EntryKind]], IgnoreChain | None]] = [
        (base, dir_fd, iter(list_entries(dir_fd)), ignore)
    ]
    try:
        while stack:
            parent, fd, entries, rules = stack[-1]
            item = next(entries, None)
            if item is None:
                stack.pop()
                if fd != dir_fd:
                    os.close(fd)
                continue
            name, kind = item
            if skip_hidden and name.startswith("."):
                continue
            if kind is EntryKind.DIR and name in skip_dirs:
                continue
            child = f"{parent}/{name}"
            if rules is not None and rules.ignored(child, kind is EntryKind.DIR):
                continue
            yield WalkEntry(child, name, kind, fd)
            if kind is not EntryKind.DIR:
                continue
            try:
                child_fd = os.open(name, DIR_FLAGS, dir_fd=fd)
            except OSError:
                continue
            try:
                listing = list_entries(child_fd)
            except OSError:
                os.close(child_fd)
                continue
            inner = rules.enter(child_fd, child) if rules is not None else None
            stack.append((child, child_fd, iter(listing), inner))
    finally:
        for _, fd, _, _ in stack:
            if fd != dir_fd:
                os.close(fd)
