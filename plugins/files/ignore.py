"""Which entries a walk leaves out by default: tool directories and what ignore files say.

Like ``rg`` and ``fd``, the file tools skip a short list of tool directories by name
(:data:`TOOL_DIRS`) and what ``.gitignore``, ``.ignore`` and ``.git/info/exclude`` exclude.
Matching is done by ``pathspec`` (git's wildmatch); this module only decides which ignore
files apply where, in git's order of precedence:

* a deeper directory's file overrides a shallower one; within a directory ``.ignore`` overrides
  ``.gitignore``; ``.git/info/exclude`` comes last of all; within one file the last matching
  line wins, and a ``!`` line re-includes;
* an excluded directory is never entered, so nothing below it can be re-included (git's rule);
* a pattern ending in ``/`` matches directories only; a symlink counts as a file.

Ignore files are read only inside the sandbox and only when readable under its read rules;
above the walk's start they are looked up to the nearest directory holding ``.git`` (or the
outermost directory still inside the sandbox when there is none). The global
``core.excludesFile`` is not read: what a user ignores on their own machine does not hide
files from the agent.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

import attrs

from tooldeck.errors import ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.safe_io import FILE_READ_FLAGS, open_directory_fd

__all__ = ["IGNORE_FILES", "TOOL_DIRS", "IgnoreChain", "ignore_chain_for"]

TOOL_DIRS = frozenset({
    ".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", ".tox", ".nox", "target",
})
"""Directory names skipped by default whatever the ignore files say (``dist`` and ``build``
are not: they are source directories in some projects, and ignore files name them when not)."""

IGNORE_FILES = (".gitignore", ".ignore")
"""Per-directory ignore files, lowest precedence first."""

_MAX_IGNORE_BYTES = 1 << 20


_Compiled = tuple[tuple[re.Pattern[str], bool], ...]

_PARENT_MARK = "ps_d"
"""The group pathspec's gitignore regexes set when they matched a parent directory of the
path rather than the path itself; the walk decides each level itself (git's rule that an
excluded directory is not entered), so such a match is not the path's own."""


def _compile(lines: Sequence[str]) -> _Compiled:
    """Each line's regex and whether it ignores (``False``: a ``!`` line), last line first."""
    from pathspec import GitIgnoreSpec, RegexPattern  # loaded by the first walk, not at start

    spec = GitIgnoreSpec.from_lines(lines)
    compiled = [
        (pattern.regex, bool(pattern.include))
        for pattern in spec.patterns
        if isinstance(pattern, RegexPattern) and pattern.include is not None
        and pattern.regex is not None
    ]
    return tuple(reversed(compiled))


@attrs.frozen
class _Rules:
    """The patterns of one directory's ignore files, split by what they may match."""

    base: str
    files: _Compiled
    dirs: _Compiled

    @classmethod
    def parse(cls, base: str, lines: Sequence[str]) -> _Rules | None:
        """Compile ignore lines that apply below ``base``; ``None`` when there are none."""
        file_lines: list[str] = []
        dir_lines: list[str] = []
        for raw in lines:
            line = raw.rstrip("\r")
            stripped = line.rstrip(" ")
            if stripped.endswith("\\") and len(stripped) < len(line):
                stripped += " "  # an escaped trailing space is kept
            if not stripped or stripped.startswith("#"):
                continue
            # git drops a trailing "/" and remembers "directories only" (wildmatch never sees it)
            if stripped.endswith("/") and not stripped.endswith("\\/"):
                body = stripped.rstrip("/")
                if body in ("", "!"):
                    continue
                dir_lines.append(body)
            else:
                file_lines.append(stripped)
                dir_lines.append(stripped)
        if not dir_lines:
            return None
        return cls(base, _compile(file_lines), _compile(dir_lines))

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """``True`` ignored, ``False`` re-included, ``None`` when no line matches ``path``."""
        relative = path[len(self.base) + 1:] if self.base != "/" else path[1:]
        for regex, include in self.dirs if is_dir else self.files:
            found = regex.match(relative)
            if found is not None and found.groupdict().get(_PARENT_MARK) is None:
                return include
        return None


@attrs.frozen
class IgnoreChain:
    """The ignore rules in force in one directory: its own and its ancestors', deepest first.

    :param rules: the rules, most specific first.
    :param fallback: rules consulted after all others (``.git/info/exclude``).
    :param sandbox: decides which ignore files may be read.
    :param consulted: when given, every ignore file read is appended to it (the result of a
        walk depends on them: the result cache watches them).
    """

    rules: tuple[_Rules, ...]
    fallback: tuple[_Rules, ...]
    sandbox: PathSandbox
    consulted: list[str] | None = None

    def ignored(self, path: str, is_dir: bool) -> bool:
        """Whether the entry at ``path`` (below the chain's directory) is ignored.

        :param path: the entry's full path.
        :param is_dir: whether it is a directory (a symlink is not).
        :returns: the decision of the most specific matching line; ``False`` when none.
        """
        for rules in self.rules + self.fallback:
            decision = rules.decide(path, is_dir)
            if decision is not None:
                return decision
        return False

    def enter(self, dir_fd: int, path: str) -> IgnoreChain:
        """The chain for a subdirectory: this one plus the subdirectory's ignore files.

        :param dir_fd: the subdirectory, open.
        :param path: its path.
        :returns: the extended chain, or this one when the directory has no ignore file.
        """
        own = _read_rules(self.sandbox, dir_fd, path, self.consulted)
        if own is None:
            return self
        return attrs.evolve(self, rules=(own, *self.rules))


def _read_lines(sandbox: PathSandbox, dir_fd: int, dir_path: str, name: str,
                consulted: list[str] | None = None) -> list[str]:
    """The lines of one ignore file; nothing when absent, unreadable, too large or denied.

    An ignore file that exists is added to ``consulted`` whether or not it could be used.
    """
    shown = f"{dir_path.rstrip('/')}/{name}"
    if not sandbox.read_allowed(shown):
        return []
    try:
        fd = os.open(name, FILE_READ_FLAGS, dir_fd=dir_fd)
    except OSError:
        return []
    if consulted is not None:
        consulted.append(shown)
    try:
        data = os.read(fd, _MAX_IGNORE_BYTES + 1)
    except OSError:
        return []
    finally:
        os.close(fd)
    if len(data) > _MAX_IGNORE_BYTES:
        return []
    return data.decode("utf-8", errors="replace").split("\n")


def _read_rules(sandbox: PathSandbox, dir_fd: int, dir_path: str,
                consulted: list[str] | None = None) -> _Rules | None:
    """The rules of a directory's ``.gitignore`` then ``.ignore``."""
    lines: list[str] = []
    for name in IGNORE_FILES:
        lines += _read_lines(sandbox, dir_fd, dir_path, name, consulted)
    return _Rules.parse(dir_path.rstrip("/") or "/", lines)


def _ancestors(sandbox: PathSandbox, start: str) -> list[str]:
    """The directories above ``start`` whose ignore files apply, nearest first."""
    found: list[str] = []
    current = start
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return found
        parent = os.path.dirname(current)
        if parent == current or not sandbox.contains(parent):
            return found
        found.append(parent)
        current = parent


def _open_dir(sandbox: PathSandbox, path: str) -> int | None:
    """Open a directory inside the sandbox without following symlinks; ``None`` on failure."""
    try:
        return open_directory_fd(sandbox, path)
    except (OSError, ToolError):
        return None


def ignore_chain_for(sandbox: PathSandbox, dir_fd: int, start: str, *,
                     consulted: list[str] | None = None) -> IgnoreChain:
    """The ignore rules in force in a walk's start directory.

    :param sandbox: the path sandbox (ignore files are read only inside it).
    :param dir_fd: the start directory, open.
    :param start: its canonical path.
    :param consulted: when given, receives every ignore file read, now and as the walk
        enters directories, and every directory above the start looked in (a new ignore
        file there changes that directory).
    :returns: the chain holding the start directory's and its ancestors' ignore files.
    """
    rules: list[_Rules] = []
    own = _read_rules(sandbox, dir_fd, start, consulted)
    if own is not None:
        rules.append(own)
    ancestors = _ancestors(sandbox, start)
    if consulted is not None:
        consulted.extend(ancestors)
    for directory in ancestors:
        fd = _open_dir(sandbox, directory)
        if fd is None:
            continue
        try:
            parsed = _read_rules(sandbox, fd, directory, consulted)
        finally:
            os.close(fd)
        if parsed is not None:
            rules.append(parsed)
    top = ancestors[-1] if ancestors else start
    fallback: tuple[_Rules, ...] = ()
    info = os.path.join(top, ".git", "info")
    info_fd = _open_dir(sandbox, info) if sandbox.contains(info) else None
    if info_fd is not None:
        if consulted is not None:
            consulted.append(info)
        try:
            exclude = _Rules.parse(top, _read_lines(sandbox, info_fd, info, "exclude",
                                                    consulted))
        finally:
            os.close(info_fd)
        if exclude is not None:
            fallback = (exclude,)
    return IgnoreChain(tuple(rules), fallback, sandbox, consulted)
