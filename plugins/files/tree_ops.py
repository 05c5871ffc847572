"""The ``list_directory``, ``create_directory``, ``delete_path`` and ``move_path`` tools.

Delete and move act on the entry itself: a symlink is removed or moved, never its target
(the sandbox resolves only the parent directory, and refuses roots and their ancestors).

Rules (the rejection message names the rule):

=====================  ==================  ==============================================
rule                   category            rejects
=====================  ==================  ==============================================
``no-read-laundering`` policy_blocked      a move that would take content protected by
                                           ``deny_read`` to a path where it is readable
``not-into-itself``    invalid_parameters  moving an entry into itself or below it
=====================  ==================  ==============================================
"""

from __future__ import annotations

import errno
import os
import stat

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox, is_within
from tooldeck.plugins.files.ignore import TOOL_DIRS, ignore_chain_for
from tooldeck.plugins.files.results import FileOpResult, named_paths
from tooldeck.plugins.files.safe_io import (
    EntryKind,
    list_entries,
    lstat_path,
    make_directory,
    open_directory,
    open_parent,
    os_errors_as_tool_errors,
    remove_entry,
)
from tooldeck.plugins.files.walk import walk_tree

__all__ = [
    "create_directory",
    "delete_path",
    "laundering_error",
    "list_directory",
    "move_path",
]

_LABELS = {EntryKind.DIR: "[dir]  ", EntryKind.SYMLINK: "[symlink] "}
_GROUP_ORDER = {EntryKind.DIR: 0, EntryKind.FILE: 1, EntryKind.OTHER: 1, EntryKind.SYMLINK: 2}


def _shown_entries(sandbox: PathSandbox, fd: int, canonical: str,
                   entries: list[tuple[str, EntryKind]],
                   consulted: list[str]) -> list[tuple[str, EntryKind]]:
    """The entries that are neither tool directories nor ignored by the ignore files.

    The ignore files read (and the directories above looked in) are added to ``consulted``.
    """
    rules = ignore_chain_for(sandbox, fd, canonical, consulted=consulted)
    base = canonical.rstrip("/")
    return [
        (name, kind) for name, kind in entries
        if not (kind is EntryKind.DIR and name in TOOL_DIRS)
        and not rules.ignored(f"{base}/{name}", kind is EntryKind.DIR)
    ]


def list_directory(sandbox: PathSandbox, path: str, include_ignored: bool = False) -> FileOpResult:
    """List a directory: ``[dir]  name`` lines, then ``[file] name``, then ``[symlink] name``.

    Entries are classified with lstat (symlinks are never followed); each group is sorted.
    Tool directories and ignored entries are left out unless ``include_ignored``, and a last
    line says how many were.

    :param sandbox: the path sandbox (read rules apply to the directory).
    :param path: the directory.
    :param include_ignored: list ignored entries and tool directories too.
    :returns: the listing, or ``Empty directory: {path}``.
    :raises ToolError: ``{path} is not a directory``, a sandbox violation or an I/O failure.
    """
    canonical = sandbox.resolve_str(path, op="read")
    consulted: list[str] = []
    with os_errors_as_tool_errors(canonical):
        try:
            with open_directory(sandbox, canonical) as fd:
                entries = list_entries(fd)
                shown = entries if include_ignored else _shown_entries(
                    sandbox, fd, canonical, entries, consulted)
        except NotADirectoryError as exc:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE, f"{path} is not a directory") from exc
    read_paths = (*named_paths(sandbox.absolute(path), canonical), *consulted)
    if not entries:
        return FileOpResult(summary=f"Empty directory: {path}", locations=(canonical,),
                            read_paths=read_paths)
    ordered = sorted(shown, key=lambda item: (_GROUP_ORDER[item[1]], item[0]))
    lines = [f"{_LABELS.get(kind, '[file] ')}{name}" for name, kind in ordered]
    hidden = len(entries) - len(shown)
    if hidden:
        lines.append(f"[{hidden} ignored entries not listed; include_ignored=true lists them]")
    return FileOpResult(summary="\n".join(lines), locations=(canonical,), read_paths=read_paths)


def create_directory(sandbox: PathSandbox, path: str) -> FileOpResult:
    """Create a directory and its missing parents (idempotent); ``Created directory: {path}``.

    :param sandbox: the path sandbox.
    :param path: the directory.
    :returns: the summary and the canonical path.
    :raises ToolError: when something that is not a directory is in the way, a sandbox
        violation or an I/O failure.
    """
    canonical = sandbox.resolve_str(path, op="write")
    with os_errors_as_tool_errors(canonical):
        try:
            make_directory(sandbox, canonical)
        except NotADirectoryError as exc:
            raise ToolError(
                ErrorCategory.PERMANENT_FAILURE,
                f"{path} (or one of its parents) exists and is not a directory",
            ) from exc
    return FileOpResult(summary=f"Created directory: {path}", locations=(canonical,))


def delete_path(sandbox: PathSandbox, path: str, recursive: bool = False) -> FileOpResult:
    """Delete a file, a symlink (not its target) or a directory; ``Deleted: {path}``.

    A non-empty directory needs ``recursive``; a sandbox root or an ancestor of one is refused.

    :param sandbox: the path sandbox.
    :param path: what to delete.
    :param recursive: delete a directory with everything in it.
    :returns: the summary and the canonical path.
    :raises ToolError: on a sandbox violation, a non-empty directory without ``recursive``, or
        an I/O failure.
    """
    canonical = sandbox.resolve_str(path, op="delete")
    with os_errors_as_tool_errors(canonical):
        try:
            with open_parent(sandbox, canonical) as (fd, name):
                remove_entry(fd, name, canonical, recursive=recursive)
        except OSError as exc:
            if exc.errno != errno.ENOTEMPTY:
                raise
            raise ToolError(
                ErrorCategory.PERMANENT_FAILURE,
                f"Directory not empty: {canonical}; pass recursive=true to delete its content",
            ) from exc
    return FileOpResult(summary=f"Deleted: {path}", locations=(canonical,))


def laundering_error(source: str, protected: str, destination: str) -> ToolError:
    """Rule ``no-read-laundering``: build the rejection for a move or copy.

    :param source: the canonical source of the operation.
    :param protected: the read-denied path that would be exposed.
    :param destination: where its content would become readable.
    :returns: the error to raise.
    """
    return ToolError(
        ErrorCategory.POLICY_BLOCKED,
        f"file rule 'no-read-laundering': {protected} is protected by deny_read and would "
        f"become readable as {destination} (from {source})",
    )


def _rule_no_read_laundering(sandbox: PathSandbox, source: str, destination: str) -> None:
    """Refuse a move that makes read-denied content readable under its new path."""
    if not sandbox.has_read_rules:
        return
    info = lstat_path(sandbox, source)
    if stat.S_ISLNK(info.st_mode):
        return
    candidates = [source]
    if stat.S_ISDIR(info.st_mode):
        with open_directory(sandbox, source) as fd:
            candidates += [
                entry.path for entry in walk_tree(fd, source) if entry.kind is not EntryKind.SYMLINK
            ]
    for path in candidates:
        moved = destination + path[len(source) :]
        if not sandbox.read_allowed(path) and sandbox.read_allowed(moved):
            raise laundering_error(source, path, moved)


def move_path(sandbox: PathSandbox, source: str, destination: str) -> FileOpResult:
    """Move or rename an entry (a symlink moves as itself); ``Moved: {source} -> {destination}``.

    Missing parents of the destination are created; an existing destination file is replaced.

    :param sandbox: the path sandbox (both ends checked; roots cannot be moved or replaced).
    :param source: what to move.
    :param destination: the new path.
    :returns: the summary and both canonical paths.
    :raises ToolError: on a sandbox violation, rule ``no-read-laundering`` or an I/O failure.
    """
    src = sandbox.resolve_str(source, op="delete")
    dst = sandbox.resolve_str(destination, op="delete")
    if dst != src and is_within(dst, src):
        raise ToolError(
            ErrorCategory.INVALID_PARAMETERS,
            f"move rule 'not-into-itself': {dst} is inside the entry being moved ({src})",
        )
    with os_errors_as_tool_errors(src):
        _rule_no_read_laundering(sandbox, src, dst)
        with (
            open_parent(sandbox, src) as (src_fd, src_name),
            open_parent(sandbox, dst, create=True) as (dst_fd, dst_name),
        ):
            os.rename(src_name, dst_name, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
    return FileOpResult(summary=f"Moved: {source} -> {destination}", locations=(src, dst))
