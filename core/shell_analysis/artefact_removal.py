r"""Removals of regenerable artefacts inside the project: not asked by the ``rm `` pattern.

``find . -name '*.pyc' -delete`` never asked; ``rm -rf __pycache__`` and ``find … -exec rm
-rf {} +`` on the same names did, through the default confirm pattern ``rm ``. A removal
whose every target is such an artefact is left out of the view the confirm patterns read
(:func:`without_artefact_removals`); every other rule still judges it.

| form                                     | an artefact removal when                         |
| ---------------------------------------- | ------------------------------------------------ |
| ``rm [-rfRvdiI] PATH…``, ``unlink PATH`` | every operand is an artefact path (1)            |
| ``find START… TESTS -exec|-execdir rm    | every start is the root or a path inside it (1,  |
| [-rf] {} ;|+``                           | any name), the tests are only ``-name``/         |
|                                          | ``-iname`` of artefact names (at least one),     |
|                                          | ``-type``, ``-prune``, ``-maxdepth``/            |
|                                          | ``-mindepth N``, ``-depth``, ``-empty``,         |
|                                          | ``-xdev``, ``-print``, joined by ``-a`` only (no |
|                                          | ``-o``, ``!``, parentheses), one ``-exec``       |
| ``find … -print0 | xargs -0 [-r] rm      | the same ``find`` without ``-exec``, printing    |
| [-rf]``                                  | with ``-print0``, piped straight into ``xargs    |
|                                          | -0`` (no ``-I``, no operands): names split on    |
|                                          | NUL only                                         |

1. An artefact path: a static word (no ``$VAR``, no substitution, no brace list), not under
   ``~``, with no ``..`` component, that lies strictly inside a sandbox root — lexically and
   again with every link resolved (a link anywhere on the way, ``build`` pointing out of the
   root, does not count) — and whose last component is a regenerable name or one of the
   catalogue's globs (:func:`tooldeck.shell_analysis.artefacts.is_regenerable`), or that lies
   inside a directory with a regenerable name (``target/criterion``, ``node_modules/.cache``,
   ``build/*``: what a tool makes again holds nothing else); a glob in a directory above
   the last component (``./*/x``, ``src/*/build``) does not count.

Only a removal the command itself runs counts (at the top, in a subshell or a group): not
one inside a substitution, a nested shell's string or a function. Nothing counts when the
command changes directory (``cd``, ``pushd``, ``popd`` anywhere: a relative path would then
be judged from the wrong place) or the working directory is unknown; when it renames or links
files (``mv``, ``ln``, ``link``, ``rename``, ``rsync``, ``tar``, ``cpio``, ``git mv``: ``mv
src build && rm -rf build`` removes the sources under an artefact's name); when ``rm`` runs
under another wrapper (``env -C dir rm``); or when an option is not one of ``rm``'s plain
ones. A command that removes an artefact and anything else still asks.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Sequence

import attrs

from tooldeck.shell_analysis.artefacts import is_regenerable
from tooldeck.shell_analysis.model import CommandAnalysis, Segment, Word
from tooldeck.shell_analysis.rm_rules import rm_flags

__all__ = ["REMOVERS", "artefact_removals", "without_artefact_removals"]

REMOVERS: frozenset[str] = frozenset({"rm", "unlink"})
"""The commands whose segments an artefact removal is made of (``find -exec rm`` and ``xargs
rm`` included: their ``rm`` is a segment of its own)."""
_ORIGINS = frozenset({"top", "subshell", "group"})
"""Where a removal counts: not inside a substitution (``git commit -m "$(rm -rf build)"``), a
nested shell's string or a function (what runs there is not the command as written)."""
_CHANGERS = frozenset({"cd", "pushd", "popd"})
_RELOCATORS = frozenset({"mv", "ln", "link", "rename", "rsync", "tar", "cpio"})
"""Commands that can put existing files under an artefact's name (``mv src build && rm -rf
build``), or a link to them there."""
_FIND_FLAGS = frozenset({"-prune", "-depth", "-d", "-empty", "-xdev", "-mount", "-print",
                         "-print0", "-a", "-and"})
_FIND_NUMBERS = frozenset({"-maxdepth", "-mindepth"})
_FIND_EXEC = frozenset({"-exec", "-execdir"})
_XARGS_OPTIONS = frozenset({"-0", "--null", "-r", "--no-run-if-empty", "-0r", "-r0"})
_XARGS_NUL = frozenset({"-0", "--null", "-0r", "-r0"})
"""xargs splits its input on NUL only with these: without one, ``./src b/build`` found would
become ``./src`` and ``b/build``, and ``rm -rf ./src`` removes the sources."""
_GLOB = frozenset("*?[")


@attrs.frozen
class _Place:
    """The sandbox roots (absolute, normalised) and where relative paths start."""

    roots: tuple[str, ...]
    cwd: str


def _root_of(path: str, place: _Place) -> str | None:
    """The root ``path`` lies inside or at, checked lexically and with links resolved."""
    for root in place.roots:
        if path != root and not path.startswith(root.rstrip("/") + "/"):
            continue
        relative = os.path.relpath(path, root)
        real_root = os.path.realpath(root)
        expected = real_root if relative == "." else os.path.join(real_root, relative)
        if os.path.realpath(path) == expected:  # no link on the way, the last part included
            return root
    return None


def _static_path(word: Word, place: _Place) -> str | None:
    """``word`` made absolute when it is static, not under ``~`` and has no ``..``."""
    value = word.value
    if word.dynamic or not value or value.startswith("~") or "{" in value:
        return None
    if ".." in value.split("/"):
        return None
    return os.path.normpath(os.path.join(place.cwd, value))


def _artefact_path(word: Word, place: _Place) -> bool:
    """Rule (1) of the module docstring."""
    path = _static_path(word, place)
    if path is None:
        return False
    parent, name = os.path.split(path)
    if word.globbed and _GLOB.intersection(parent):
        return False
    root = _root_of(path, place)
    if root is None or path == root:
        return False
    within = [part for part in os.path.relpath(parent, root).split(os.sep) if part != "."]
    return is_regenerable(name) or any(is_regenerable(part) for part in within)


def _rm_operands(args: Sequence[Word]) -> list[Word] | None:
    """``rm``'s operands, or ``None`` when an option is not one of its plain ones."""
    flags = rm_flags(args)
    return list(flags.operands) if flags.plain else None


def _removes_artefacts(segment: Segment, place: _Place) -> bool:
    """A plain ``rm``/``unlink`` segment whose every operand is an artefact path."""
    if (segment.command not in REMOVERS or segment.command_positions != (0,)
            or segment.origin not in _ORIGINS):
        return False
    args = segment.words[1:]
    operands = list(args) if segment.command == "unlink" else _rm_operands(args)
    return bool(operands) and all(_artefact_path(w, place) for w in operands or ())


def _find_start(word: Word, place: _Place) -> bool:
    path = _static_path(word, place)
    return path is not None and not word.globbed and _root_of(path, place) is not None


def _find_parts(segment: Segment, place: _Place) -> tuple[bool, list[Word] | None]:
    """Whether a ``find`` segment only finds artefacts, and the words of its one ``-exec``.

    :returns: ``(False, None)`` when it may find anything else or runs something else;
        ``(True, None)`` without ``-exec``; ``(True, words)`` with one ``-exec rm …``.
    """
    if (segment.command != "find" or segment.command_positions != (0,)
            or segment.origin not in _ORIGINS):
        return False, None
    args = list(segment.words[1:])
    starts = list(itertools.takewhile(lambda w: not w.value.startswith(("-", "(", "!")),
                                      args))
    if not starts or not all(_find_start(w, place) for w in starts):
        return False, None
    rest = iter(args[len(starts):])
    names = 0
    runs: list[Word] | None = None
    for word in rest:
        value = word.value
        if word.dynamic:
            return False, None
        if value in ("-name", "-iname"):
            pattern = next(rest, None)
            if pattern is None or pattern.dynamic or not is_regenerable(pattern.value):
                return False, None
            names += 1
        elif value == "-type" or value in _FIND_NUMBERS:
            argument = next(rest, None)
            if argument is None or (value in _FIND_NUMBERS and not argument.value.isdigit()):
                return False, None
        elif value in _FIND_EXEC and runs is None:
            runs = list(itertools.takewhile(lambda w: w.value not in (";", "+"), rest))
            if not _exec_removes(runs):
                return False, None
        elif value not in _FIND_FLAGS:
            return False, None
    return names > 0, runs


def _exec_removes(words: Sequence[Word]) -> bool:
    """``rm [-rf] {}`` or ``unlink {}``: a remover given only what find found."""
    if not words or words[0].value.rsplit("/", 1)[-1] not in REMOVERS:
        return False
    operands = _rm_operands(words[1:]) if words[0].value.endswith("rm") else list(words[1:])
    return operands is not None and [w.value for w in operands] == ["{}"]


_FEEDS = "{find}\\s*\\|\\s*{xargs}"


def _xargs_removes(segment: Segment, feeder: Segment | None, command: str,
                   place: _Place) -> bool:
    """``find … | xargs rm -rf``: a remover given only the names an artefact ``find`` prints."""
    if (segment.command not in REMOVERS or segment.wrappers != ("xargs",)
            or segment.stdin != "pipe" or feeder is None or segment.origin != feeder.origin):
        return False
    position = segment.command_positions[-1]
    options = {w.value for w in segment.words[1:position]}
    if not options <= _XARGS_OPTIONS or not options & _XARGS_NUL:
        return False
    printed = [w.value for w in feeder.words if w.value in ("-print", "-print0")]
    if printed != ["-print0"]:
        return False
    operands = _rm_operands(segment.words[position + 1 :])
    if operands != []:
        return False
    finds, runs = _find_parts(feeder, place)
    pipe = _FEEDS.format(find=re.escape(feeder.text), xargs=re.escape(segment.text))
    return finds and runs is None and re.search(pipe, command) is not None


def _moves_files(segment: Segment) -> bool:
    """A directory change, or a command that may rename or link files (``git mv`` too)."""
    return segment.command in _CHANGERS or segment.command in _RELOCATORS or (
        segment.command == "git" and "mv" in segment.argv[1:])


def artefact_removals(analysis: CommandAnalysis, roots: Sequence[str],
                      cwd: str | None) -> dict[int, Segment | None]:
    """The segments that only remove regenerable artefacts inside a root.

    :param analysis: the analysed command (callers use it only when it is not opaque).
    :param roots: the sandbox roots, absolute.
    :param cwd: where the command runs; ``None`` (unknown) finds nothing.
    :returns: segment index → ``None`` when the whole segment is such a removal, or the
        ``find`` segment without its ``-exec`` clause.
    """
    if cwd is None or any(_moves_files(s) for s in analysis.segments):
        return {}
    place = _Place(tuple(os.path.normpath(r) for r in roots), os.path.normpath(cwd))
    found: dict[int, Segment | None] = {}
    segments = analysis.segments
    for index, segment in enumerate(segments):
        feeder = segments[index - 1] if index else None
        if _removes_artefacts(segment, place) or _xargs_removes(
                segment, feeder, analysis.command, place):
            found[index] = None
        else:
            finds, runs = _find_parts(segment, place)
            following = segments[index + 1] if index + 1 < len(segments) else None
            if finds and runs is not None and following is not None and (
                    following.origin == "find -exec"):
                found[index] = _without_exec(segment)
                found[index + 1] = None
    return found


def _without_exec(segment: Segment) -> Segment:
    """The ``find`` segment with its ``-exec … ;|+`` clause left out."""
    words: list[Word] = []
    skipping = False
    for word in segment.words:
        if word.value in _FIND_EXEC and not skipping:
            skipping = True
        elif skipping and word.value in (";", "+"):
            skipping = False
        elif not skipping:
            words.append(word)
    return attrs.evolve(segment, words=tuple(words), text=" ".join(w.value for w in words))


def without_artefact_removals(analysis: CommandAnalysis, roots: Sequence[str],
                              cwd: str | None) -> CommandAnalysis:
    """The analysis without what only removes regenerable artefacts (:func:`artefact_removals`).

    :param analysis: the analysed command, not opaque.
    :param roots: the sandbox roots, absolute.
    :param cwd: where the command runs, or ``None``.
    :returns: ``analysis`` itself when nothing is left out; else a copy whose segments omit
        those removals (a ``find`` keeps its tests, without its ``-exec`` clause).
    """
    found = artefact_removals(analysis, roots, cwd)
    if not found:
        return analysis
    kept = (found.get(index, segment) for index, segment in enumerate(analysis.segments))
    return attrs.evolve(analysis, segments=tuple(s for s in kept if s is not None))
