"""The ``find_path`` and ``grep`` tools: descriptor walks filtered by the sandbox after matching."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

from tooldeck.errors import ToolError
from tooldeck.paths import Glob, PathSandbox, canonicalize, is_within
from tooldeck.plugins.files.hardlinks import HardlinkGuard, HardlinkRefused
from tooldeck.plugins.files.ignore import TOOL_DIRS, ignore_chain_for
from tooldeck.plugins.files.limits import DEFAULT_MAX_READ_BYTES, require_positive
from tooldeck.plugins.files.line_matcher import LineMatcher
from tooldeck.plugins.files.results import FileOpResult, named_paths
from tooldeck.plugins.files.safe_io import (
    EntryKind,
    ReadCapExceeded,
    lstat_path,
    open_directory,
    open_parent,
    os_errors_as_tool_errors,
    read_regular,
)
from tooldeck.plugins.files.text import is_binary, split_lines
from tooldeck.plugins.files.walk import WalkEntry, walk_tree

__all__ = [
    "DEFAULT_FIND_RESULTS",
    "DEFAULT_GREP_RESULTS",
    "find_path",
    "grep",
]

DEFAULT_FIND_RESULTS = 200
"""How many paths ``find_path`` lists by default."""

DEFAULT_GREP_RESULTS = 100
"""How many matching lines ``grep`` shows by default."""



# --------------------------------------------------------------------------- find_path


def _walk_starts(sandbox: PathSandbox, base: str) -> list[str]:
    """Where to walk for a glob: its base when inside a root, else the outermost roots below it."""
    if sandbox.contains(base):
        return [base]
    below = [str(root) for root in sandbox.roots if is_within(root, base)]
    return [root for root in below if not any(o != root and is_within(root, o) for o in below)]


def _visible(sandbox: PathSandbox, path: str, kind: EntryKind) -> bool:
    """Whether a found entry may be listed: a symlink must resolve inside; reads must be allowed."""
    if kind is EntryKind.SYMLINK:
        try:
            path = str(canonicalize(path))
        except ToolError:
            return False
        if not sandbox.contains(path):
            return False
    return sandbox.read_allowed(path)


class _Reads:
    """The directories and files a walk's output depends on (its ``read_paths``)."""

    def __init__(self, *paths: str) -> None:
        self.paths: list[str] = list(paths)
        self.known = True  # False once the output depends on something not listed

    def result(self) -> tuple[str, ...] | None:
        """The read paths, or ``None`` when they are not all known."""
        return tuple(dict.fromkeys(self.paths)) if self.known else None


def _project_walk(sandbox: PathSandbox, fd: int, start: str, *, include_ignored: bool,
                  reads: _Reads, skip_hidden: bool = False) -> Iterator[WalkEntry]:
    """Walk a directory as its developers see it (unless ``include_ignored``).

    Tool directories and what the ignore files exclude are neither listed nor entered. The
    ignore files consulted, and the directories above the start that were looked in, go to
    ``reads``: editing a ``.gitignore`` changes what the walk shows.
    """
    if include_ignored:
        return walk_tree(fd, start, skip_hidden=skip_hidden)
    chain = ignore_chain_for(sandbox, fd, start, consulted=reads.paths)
    return walk_tree(fd, start, skip_hidden=skip_hidden, skip_dirs=TOOL_DIRS, ignore=chain)


def _glob_matches(sandbox: PathSandbox, glob: Glob, include_ignored: bool,
                  reads: _Reads) -> Iterator[str]:
    """Every visible path below the glob's walk starts that the glob matches, in walk order.

    Every walk start and directory walked goes to ``reads``; a symlink met makes them
    unknown (whether it is listed depends on where it points, which is no directory's state).
    """
    for start in _walk_starts(sandbox, glob.base):
        reads.paths.append(start)
        try:
            with open_directory(sandbox, start) as fd:
                for entry in _project_walk(sandbox, fd, start, include_ignored=include_ignored,
                                           reads=reads):
                    if entry.kind is EntryKind.DIR:
                        reads.paths.append(entry.path)
                    elif entry.kind is EntryKind.SYMLINK:
                        reads.known = False
                    if glob.matches(entry.path) and _visible(sandbox, entry.path, entry.kind):
                        yield entry.path
        except (OSError, ToolError):
            continue


def find_path(
    sandbox: PathSandbox, path: str, pattern: str, max_results: int = DEFAULT_FIND_RESULTS,
    include_ignored: bool = False,
) -> FileOpResult:
    """List paths matching a glob (``*`` within a name, ``**`` across directories).

    A relative pattern is relative to ``path``; an absolute one is used as written. Only the
    sandbox is walked, and a match is listed only when its canonical path is inside a root and
    readable under the read sandbox. Tool directories and ignored entries are not walked
    unless ``include_ignored`` (see :mod:`~tooldeck.plugins.files.ignore`).

    :param sandbox: the path sandbox.
    :param path: the directory a relative pattern starts from.
    :param pattern: the glob.
    :param max_results: how many paths to list at most (>= 1).
    :param include_ignored: walk ignored entries and tool directories too.
    :returns: one path per line, or ``No files matching: {pattern}``; when the limit cut the
        list, a last line ``{shown} of {total} paths; narrow the pattern``.
    :raises ToolError: ``invalid_parameters`` for a bad glob or limit.
    """
    require_positive("max_results", max_results)
    glob = sandbox.glob(pattern, base=path)
    reads = _Reads(glob.lexical_base, glob.base)
    matches = _glob_matches(sandbox, glob, include_ignored, reads)
    found = list(itertools.islice(matches, max_results))
    if not found:
        return FileOpResult(summary=f"No files matching: {pattern}", read_paths=reads.result())
    summary = "\n".join(found)
    more = sum(1 for _ in matches)  # walks to the end, so the read paths are complete
    if more:
        summary += f"\n{max_results:,} of {max_results + more:,} paths; narrow the pattern"
    return FileOpResult(summary=summary, locations=tuple(found), read_paths=reads.result())


# --------------------------------------------------------------------------- grep


class _GrepRun:
    """The state of one grep: hits collected so far and files skipped for size."""

    def __init__(self, matcher: LineMatcher, limit: int, max_file_bytes: int,
                 guard: HardlinkGuard, reads: _Reads) -> None:
        self.reads = reads
        self.matcher = matcher
        self.guard = guard
        self.limit = limit
        self.max_file_bytes = max_file_bytes
        self.hits: list[str] = []
        self.files: list[str] = []
        self.oversized = 0

    @property
    def full(self) -> bool:
        """Whether one hit beyond the limit has been found (the output is capped)."""
        return len(self.hits) > self.limit

    def search_file(self, dir_fd: int, name: str, path: str, *, named: bool = False) -> None:
        """Search one regular file; binary, non-UTF-8, vanished or special files are skipped.

        A file the hard-link rules refuse is skipped too, unless it is the ``named`` start
        path: then the refusal is the answer.
        """
        self.reads.paths.append(path)
        try:
            data = read_regular(dir_fd, name, path, self.max_file_bytes, guard=self.guard)
        except ReadCapExceeded:
            self.oversized += 1
            return
        except HardlinkRefused:
            if named:
                raise
            return
        except (OSError, ToolError):
            return
        if is_binary(data) or not self.matcher.may_match(data):
            return
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        found = False
        for number, line in enumerate(split_lines(text), 1):
            if self.matcher.matches(line):
                self.hits.append(f"{path}:{number}: {line}")
                found = True
                if self.full:
                    break
        if found:
            self.files.append(path)

    def render(self, pattern: str) -> FileOpResult:
        """The grep output: hits, then notes on capping and skipped files."""
        lines = self.hits[: self.limit] or [f"No matches for: {pattern}"]
        if self.full:
            lines.append(
                f"[results capped at {self.limit} matches; narrow the pattern or the path]"
            )
        if self.oversized:
            lines.append(
                f"[skipped {self.oversized} file(s) larger than {self.max_file_bytes} bytes]"
            )
        return FileOpResult(summary="\n".join(lines), locations=tuple(self.files),
                            read_paths=self.reads.result())


def _grep_tree(sandbox: PathSandbox, run: _GrepRun, canonical: str,
               include_ignored: bool) -> None:
    """Search every readable regular file below a canonical directory."""
    with open_directory(sandbox, canonical) as fd:
        for entry in _project_walk(sandbox, fd, canonical, include_ignored=include_ignored,
                                   reads=run.reads, skip_hidden=True):
            if entry.kind is EntryKind.DIR:
                run.reads.paths.append(entry.path)
            if entry.kind is not EntryKind.FILE or not sandbox.read_allowed(entry.path):
                continue
            run.search_file(entry.dir_fd, entry.name, entry.path)
            if run.full:
                return


def grep(
    sandbox: PathSandbox,
    pattern: str,
    path: str = ".",
    case_sensitive: bool = True,
    max_results: int = DEFAULT_GREP_RESULTS,
    include_ignored: bool = False,
    *,
    max_file_bytes: int = DEFAULT_MAX_READ_BYTES,
) -> FileOpResult:
    """Search file contents with an RE2 regex; each hit is ``{path}:{line}: {text}``.

    The walk skips dot-entries, tool directories and ignored entries (the last two unless
    ``include_ignored``; a file named as ``path`` is searched either way); it never follows
    symlinks; binary, non-UTF-8 and read-denied files are skipped silently, and so are
    hard links the hard-link rules refuse (a named file is refused with the rule's message).

    :param sandbox: the path sandbox (read rules apply to the start path and to every file).
    :param pattern: the regex (RE2 syntax).
    :param path: a directory to search recursively, or one file.
    :param case_sensitive: match case exactly.
    :param max_results: how many matching lines to show at most (>= 1).
    :param include_ignored: search ignored files and tool directories too.
    :param max_file_bytes: skip (and count) files larger than this.
    :returns: the hits, or ``No matches for: {pattern}``, plus notes when capped or skipping.
    :raises ToolError: ``invalid_parameters`` for a bad pattern or limit; ``policy_blocked``
        for a start path outside the sandbox.
    """
    require_positive("max_results", max_results)
    matcher = LineMatcher.compile(pattern, case_sensitive=case_sensitive)
    canonical = sandbox.resolve_str(path, op="read")
    reads = _Reads(*named_paths(sandbox.absolute(path), canonical))
    run = _GrepRun(matcher, max_results, max_file_bytes, HardlinkGuard(sandbox), reads)
    with os_errors_as_tool_errors(canonical):
        if os.path.isdir(canonical):
            _grep_tree(sandbox, run, canonical, include_ignored)
        else:
            lstat_path(sandbox, canonical)
            with open_parent(sandbox, canonical) as (fd, name):
                run.search_file(fd, name, canonical, named=True)
    return run.render(pattern)
