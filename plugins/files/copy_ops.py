"""The ``copy_path`` tool: files copied atomically, directories copied without following symlinks.

Rules (the rejection message names the rule):

======================  ==================  ==============================================
rule                    category            rejects
======================  ==================  ==============================================
``not-into-itself``     invalid_parameters  copying a directory into itself or below it
``no-read-laundering``  policy_blocked      copying a read-denied file to a readable path
                                            (inside a directory copy it is skipped instead)
======================  ==================  ==============================================

Inside a directory copy, symlinks and special files (FIFOs, sockets, devices) are skipped and
counted in the summary; they are never followed. So are files the hard-link rules refuse
(:mod:`.hardlinks`); copying such a file alone is refused with the rule's message.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from collections.abc import Iterator

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox, is_within
from tooldeck.plugins.files.hardlinks import HardlinkGuard, HardlinkRefused
from tooldeck.plugins.files.results import FileOpResult
from tooldeck.plugins.files.safe_io import (
    EntryKind,
    list_entries,
    lstat_path,
    open_child_dir,
    open_directory,
    open_parent,
    open_regular,
    os_errors_as_tool_errors,
    write_atomic,
)
from tooldeck.plugins.files.tree_ops import laundering_error

__all__ = ["copy_path"]

_CHUNK = 1 << 20
_SKIP_NOTES = {
    "symlink": "symlink(s) skipped (never followed when copying a directory)",
    "special": "special file(s) skipped (FIFO, socket or device)",
    "denied": "file(s) skipped (protected by deny_read)",
    "hardlink": "file(s) skipped (hard links whose other names may not be read)",
}


def _chunks(fd: int) -> Iterator[bytes]:
    """Read an open file to its end in chunks."""
    while chunk := os.read(fd, _CHUNK):
        yield chunk


def _copy_file(
    src_dir: int, src_name: str, src: str, dst_dir: int, dst_name: str, dst: str, *,
    guard: HardlinkGuard,
) -> None:
    """Copy one regular file's content and permission bits, atomically at the destination."""
    fd, info = open_regular(src_dir, src_name, src, guard=guard)
    try:
        write_atomic(dst_dir, dst_name, _chunks(fd), dst, mode=stat.S_IMODE(info.st_mode) & 0o777)
    finally:
        os.close(fd)


def _copy_children(
    sandbox: PathSandbox, src_fd: int, src: str, dst_fd: int, dst: str, skipped: Counter[str],
    guard: HardlinkGuard,
) -> None:
    """Copy the content of one open directory into another, recursively."""
    for name, kind in list_entries(src_fd):
        child_src, child_dst = f"{src}/{name}", f"{dst}/{name}"
        if kind is EntryKind.SYMLINK:
            skipped["symlink"] += 1
        elif kind is EntryKind.OTHER:
            skipped["special"] += 1
        elif kind is EntryKind.FILE:
            if not sandbox.read_allowed(child_src) and sandbox.read_allowed(child_dst):
                skipped["denied"] += 1
                continue
            try:
                _copy_file(src_fd, name, child_src, dst_fd, name, child_dst, guard=guard)
            except HardlinkRefused:
                skipped["hardlink"] += 1
        else:
            sub_src = open_child_dir(src_fd, name, create=False, shown=child_src)
            try:
                sub_dst = open_child_dir(dst_fd, name, create=True, shown=child_dst)
                try:
                    _copy_children(sandbox, sub_src, child_src, sub_dst, child_dst, skipped,
                                   guard)
                finally:
                    os.close(sub_dst)
            finally:
                os.close(sub_src)


def _copy_tree(sandbox: PathSandbox, src: str, dst: str) -> Counter[str]:
    """Rule ``not-into-itself``, then copy a directory tree; return the skip counts."""
    if is_within(dst, src):
        raise ToolError(
            ErrorCategory.INVALID_PARAMETERS,
            f"copy rule 'not-into-itself': {dst} is inside the directory being copied ({src})",
        )
    skipped: Counter[str] = Counter()
    with (
        open_directory(sandbox, src) as src_fd,
        open_directory(sandbox, dst, create=True) as dst_fd,
    ):
        try:
            _copy_children(sandbox, src_fd, src, dst_fd, dst, skipped, HardlinkGuard(sandbox))
        except RecursionError as exc:
            raise ToolError(
                ErrorCategory.PERMANENT_FAILURE, f"{src} is nested too deeply to copy"
            ) from exc
    return skipped


def copy_path(sandbox: PathSandbox, source: str, destination: str) -> FileOpResult:
    """Copy a file or a directory tree; ``Copied: {source} -> {destination}``.

    A file's destination parents are created and an existing destination file is replaced.
    A directory is merged into the destination; skipped entries are counted on extra lines.

    :param sandbox: the path sandbox (both ends checked).
    :param source: what to copy (a final symlink is followed when it resolves inside).
    :param destination: where to copy it.
    :returns: the summary and both canonical paths.
    :raises ToolError: on a rule above, a sandbox violation or an I/O failure.
    """
    src = sandbox.resolve_str(source, op="write")
    dst = sandbox.resolve_str(destination, op="write")
    with os_errors_as_tool_errors(src):
        if stat.S_ISDIR(lstat_path(sandbox, src).st_mode):
            skipped = _copy_tree(sandbox, src, dst)
        else:
            if not sandbox.read_allowed(src) and sandbox.read_allowed(dst):
                raise laundering_error(src, src, dst)
            skipped = Counter()
            with (
                open_parent(sandbox, src) as (src_fd, src_name),
                open_parent(sandbox, dst, create=True) as (dst_fd, dst_name),
            ):
                _copy_file(src_fd, src_name, src, dst_fd, dst_name, dst,
                           guard=HardlinkGuard(sandbox))
    lines = [f"Copied: {source} -> {destination}"]
    lines += [f"{count} {_SKIP_NOTES[key]}" for key, count in sorted(skipped.items())]
    return FileOpResult(summary="\n".join(lines), locations=(src, dst))
