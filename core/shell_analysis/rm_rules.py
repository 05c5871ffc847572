"""The two structural ``rm`` rules: protected roots and ``.git/worktrees``.

| rule              | fires when                                                             |
| ----------------- | ---------------------------------------------------------------------- |
| rm-protected-root | ``rm`` is recursive (1) and an operand is a protected path or above one |
| git-worktrees     | ``rm`` is recursive and forced, an operand has ``.git/worktrees``       |

1. ``-r``, ``-R`` or ``--recursive``, in any bundle and order, before or after operands (GNU
   permutes options). Force is not required: without ``-f`` rm still deletes all it may, and
   an agent has no terminal to answer prompts.

Protected paths: ``/``, the home directory, and every ``protected_roots`` entry (sandbox roots).
How an operand is judged (lexically; symlinks are not resolved):

| operand                      | judged as                                                    |
| ---------------------------- | ------------------------------------------------------------ |
| ``/``, ``//``, ``/.``, ``/..`` | ``/`` after normalisation: blocked                         |
| ``~``, ``~/``, ``$HOME``     | the home directory: blocked; ``~/..`` is above it: blocked   |
| ``"$x/"``, ``$x``            | run-time parts count as empty (worst case): ``"$x/"`` is ``/`` |
| ``/*``, ``~/*``, ``/ho*``    | glob over ``/`` or home, or above a root: blocked (2)        |
| ``{/,x}``                    | brace lists expanded (up to 64 words), each judged           |
| ``..``, ``.``, ``*``         | joined to ``cwd`` when known; else ``.`` and ``..`` blocked  |
| above a root                 | a component ancestor: ``/home`` is above ``/home/u/p``       |

2. A glob *inside* a sandbox root (``/work/proj/*``) is not blocked: it stays in the sandbox.

Zeph's literal ``rm -rf /`` blocklist entry is kept too (prefix semantics, so ``rm -rf /tmp/x``
stays blocked as in Zeph).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

import attrs

from tooldeck.shell_analysis.model import Word

__all__ = ["RmFlags", "expand_braces", "protected_root_violation", "rm_flags",
           "worktrees_violation"]

_GLOB = re.compile(r"[*?\[]")
_BRACE_LIST = re.compile(r"\{([^{}]*,[^{}]*)\}")
_BRACE_RANGE = re.compile(r"\{[^{}]*\.\.[^{}]*\}")
_MAX_EXPANSIONS = 64


@attrs.frozen
class RmFlags:
    """What an ``rm`` invocation asks for.

    :param recursive: ``-r``/``-R``/``--recursive`` given.
    :param force: ``-f``/``--force`` given.
    :param operands: the words that are not options.
    :param plain: every option is a static one of rm's plain ones (:data:`_RM_LETTERS`,
        :data:`_RM_LONG`): nothing but which files go, and how loudly.
    """

    recursive: bool
    force: bool
    operands: tuple[Word, ...]
    plain: bool = True


_RM_LETTERS = frozenset("rRfvdiI")
"""rm's short options that change nothing but how (recursive, force, verbose, dirs, ask)."""
_RM_LONG = frozenset({"--recursive", "--force", "--verbose", "--dir", "--one-file-system",
                      "--preserve-root", "--interactive=never"})
"""Their long spellings, and the long options that only narrow what goes."""


def rm_flags(args: Sequence[Word]) -> RmFlags:
    """Parse ``rm``'s options the GNU way (options may follow operands; ``--`` ends them).

    :param args: the words after ``rm``.
    :returns: the flags and operands.
    """
    recursive = force = options_done = False
    plain = True
    operands: list[Word] = []
    for word in args:
        value = word.value
        if options_done or not value.startswith("-") or value == "-":
            operands.append(word)
            continue
        if value == "--":
            options_done = True
            continue
        if value.startswith("--"):
            recursive = recursive or value == "--recursive"
            force = force or value == "--force"
            plain = plain and value in _RM_LONG and not word.dynamic
        else:
            recursive = recursive or "r" in value or "R" in value
            force = force or "f" in value
            plain = plain and _RM_LETTERS.issuperset(value[1:]) and not word.dynamic
    return RmFlags(recursive, force, tuple(operands), plain)


def worktrees_violation(flags: RmFlags) -> str | None:
    """Apply Zeph's ``.git/worktrees`` rule.

    :param flags: the parsed ``rm`` invocation.
    :returns: the offending operand, or ``None``.
    """
    if not (flags.recursive and flags.force):
        return None
    for word in flags.operands:
        if ".git/worktrees" in word.value.lower():
            return word.value
    return None


def _normal(path: str) -> str:
    path = posixpath.normpath(path)
    return "/" + path.lstrip("/") if path.startswith("/") else path


def _at_or_above(path: str, protected: str) -> bool:
    return path == protected or path == "/" or protected.startswith(path.rstrip("/") + "/")


def _strictly_above(path: str, protected: str) -> bool:
    return path != protected and _at_or_above(path, protected)


@attrs.frozen
class _Context:
    """Where relative and home paths point, and what is protected."""

    roots: tuple[str, ...]
    home: str | None
    cwd: str | None


def _absolute(value: str, context: _Context) -> str | None:
    if value == "~" or value.startswith("~/"):
        if context.home is None:
            return None
        value = context.home + value[1:]
    elif not value.startswith("/"):
        if context.cwd is None:
            return None
        value = posixpath.join(context.cwd, value)
    return _normal(value)


def _symbolic_violation(
    value: str, *, glob_parent: bool = False, climbs: bool = False
) -> str | None:
    """Judge ``~``- or cwd-relative operands when the home or working directory is unknown."""
    if value == "~" or value.startswith("~/"):
        rest = posixpath.normpath("." + value[1:])
        if rest == "." or rest.startswith(".."):
            return "the home directory or above it"
        return None
    rest = posixpath.normpath(value)
    if rest == ".." or rest.startswith("../"):
        return "above the working directory (may be above a sandbox root)"
    if rest == "." and (climbs or not glob_parent):
        return "the working directory (may be a sandbox root)"
    return None


def _glob_violation(value: str, context: _Context) -> str | None:
    parts = value.split("/")
    first = next(i for i, part in enumerate(parts) if _GLOB.search(part))
    parent_text = "/".join(parts[:first]) or ("/" if value.startswith("/") else ".")
    climbs = ".." in parts[first + 1 :]
    parent = _absolute(parent_text, context)
    if parent is None:
        symbolic = _symbolic_violation(parent_text, glob_parent=True, climbs=climbs)
        return f"a glob over {symbolic}" if symbolic else None
    home = _normal(context.home) if context.home else None
    if parent == "/" or parent == home:
        return f"a glob over {parent}"
    for root in context.roots:
        if _strictly_above(parent, root) or (climbs and _at_or_above(parent, root)):
            return f"a glob above protected root {root}"
    return None


def protected_root_violation(
    flags: RmFlags, roots: Sequence[str], home: str | None, cwd: str | None
) -> str | None:
    """Apply the ``rm-protected-root`` rule.

    :param flags: the parsed ``rm`` invocation.
    :param roots: protected roots (sandbox roots), absolute.
    :param home: the home directory, or ``None`` when unknown (``~`` is still protected).
    :param cwd: the working directory, or ``None`` when unknown.
    :returns: a description of the violation, or ``None``.
    """
    if not flags.recursive:
        return None
    protected = tuple(_normal(r) for r in roots)
    if home:
        protected += (_normal(home),)
    context = _Context(protected, home, cwd)
    for word in flags.operands:
        for value in expand_braces(word.value) if word.globbed else (word.value,):
            found = _operand_violation(value, context, globbed=word.globbed)
            if found:
                return f"rm -r on {word.source!r}: {found}"
    return None


def expand_braces(value: str) -> list[str]:
    """Expand ``{a,b}`` lists (capped) and turn ``{1..9}`` ranges into ``*``.

    :param value: a word's value holding unquoted braces.
    :returns: the words bash would make of it (at most 64).
    """
    results = [_BRACE_RANGE.sub("*", value)]
    while len(results) < _MAX_EXPANSIONS:
        expanded: list[str] = []
        for item in results:
            match = _BRACE_LIST.search(item)
            if match is None:
                expanded.append(item)
                continue
            head, tail = item[: match.start()], item[match.end() :]
            expanded.extend(head + choice + tail for choice in match.group(1).split(","))
        if expanded == results:
            break
        results = expanded
    return results[:_MAX_EXPANSIONS]


def _operand_violation(value: str, context: _Context, *, globbed: bool) -> str | None:
    if not value:
        return None
    if globbed and _GLOB.search(value):
        return _glob_violation(value, context)
    return _plain_violation(value, context)


def _plain_violation(value: str, context: _Context) -> str | None:
    path = _absolute(value, context)
    if path is None:
        return _symbolic_violation(value)
    if path == "/":
        return "the filesystem root"
    for root in context.roots:
        if _at_or_above(path, root):
            return f"protected root {root}" if path == root else f"above protected root {root}"
    return None
