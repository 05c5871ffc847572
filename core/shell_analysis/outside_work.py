"""Work outside the root that asks rather than being denied: scratch files, another checkout.

The sandbox-path rule denies a path outside the roots. Two kinds of outside path are a
developer's daily work, not an attack on the system or the user's settings; the shell gate
asks about them (a human sees where the command writes) instead of denying:

| kind              | example                                    | rule            |
| ----------------- | ------------------------------------------ | --------------- |
| scratch write     | ``echo x > /tmp/out.txt``, ``cp dist/*.whl | ``scratch-write`` |
|                   | /tmp/``, ``pytest --basetemp=/tmp/p``,     |                 |
|                   | ``rm -rf ~/.cache/pip``                    |                 |
| scratch script    | ``python3 /tmp/repro.py``, ``cat > /tmp/   | ``scratch-run`` |
|                   | t.py <<'EOF' … EOF && python3 /tmp/t.py``  |                 |
| work elsewhere    | ``cd /testbed && python -m pytest``,       | ``outside-cd``  |
|                   | ``cd ../lib && make``                      |                 |

A scratch write names, by an absolute or ``~`` path, an entry below a temporary directory
(``/tmp``, ``/var/tmp``) or a tool's cache (``~/.cache/<tool>``), or the temporary directory a
copy puts a file into
(``cp x.whl /tmp/``). A scratch script is such an entry an interpreter runs (the first
operand of ``python3``, ``node``, ``bash``… — coding agents write a reproduction script to
``/tmp`` and run it): it asks, and when the same command writes it from a here-document the
script's text is judged as the code it is (a dangerous body is denied by the rules that judge
embedded code; a body fetched or decoded in the same command stays denied by the download and
decode rules). Written once from a quoted here-document and run once, nothing else in the
command touching it, the script gets its body's verdict, as ``python3 -c`` would
(:mod:`tooldeck.plugins.shell.scratch_scripts`). Still denied: a scratch file run as a program
(``chmod +x /tmp/x && /tmp/x``), handed to a builder (``go run /tmp/t.go``) or sourced into
the shell (``. /tmp/env``), the directory itself or all of it (``/tmp``, ``/tmp/*``), a
hidden entry directly below it (``/tmp/.X11-unix``, ``/tmp/.x``: other programs' sockets and
locks, dropped payloads), ``/dev/shm``, a path whose link resolves elsewhere, a secret's
name, and any ancestor of a root.

``cd DIR`` is not a write: what follows runs in ``DIR``. A static directory outside the
roots that is nobody's system or settings asks when what follows changes no file by itself
(a test run, a build: ``cd /testbed && python -m pytest``); a read-only command after it is
allowed by the read rules, and a file-changing command or a write redirection after it
(``cd ../lib && rm -f x``) stays denied: it writes outside the project. Still denied:
``/``, the home directory itself and its hidden directories (``~/.config``), the temporary
directories themselves, the system's trees (``/etc``, ``/usr``, ``/var``, ``/proc``…),
secrets, and every ancestor of a root (``cd .. && rm -rf project`` would remove the
project under another name).

A directory change that ends the command (``cd backend && make && cd ..``) changes the
directory of nothing: every ``bash`` call runs in a fresh shell, so it is not judged as a
path at all (:func:`final_directory_change`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.model import CommandAnalysis, Segment
from tooldeck.shell_analysis.outside_reads import SCRIPT_RUNNERS, is_secret_path

__all__ = [
    "DIRECTORY_CHANGERS", "SCRATCH_DIRECTORIES", "SYSTEM_TREES", "copy_destinations",
    "directory_changes", "elsewhere", "final_directory_change", "inert_directories",
    "moved_relative_paths", "run_words", "scratch",
]

SCRATCH_DIRECTORIES: tuple[str, ...] = ("/tmp", "/var/tmp")
"""Temporary directories every program writes its scratch files in (``/dev/shm`` is memory
that survives nothing and is where payloads are staged: it is not one)."""

SYSTEM_TREES: tuple[str, ...] = (
    "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/dev",
    "/proc", "/sys", "/var", "/run", "/snap",
)
"""The system's own trees: a command run there changes the system (``cd /etc && rm x``)."""

_GLOB = frozenset("*?[")


def _under(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _ancestor_of_root(path: str, roots: Sequence[str]) -> bool:
    return any(_under(root, path) for root in roots)


def _cache(home: str) -> str:
    return os.path.join(home, ".cache")


def _entry_below(path: str, directory: str) -> str | None:
    """The first component of ``path`` below ``directory`` (None when not strictly below)."""
    if not path.startswith(directory.rstrip("/") + "/"):
        return None
    return path[len(directory.rstrip("/")) + 1 :].split("/", 1)[0] or None


def _scratch_place(path: str, home: str) -> bool:
    for directory in (*SCRATCH_DIRECTORIES, _cache(home)):
        entry = _entry_below(path, directory)
        if entry is not None and not entry.startswith("."):
            return True
    return False


_COPIERS = frozenset({"cp", "mv", "install", "rsync"})


def copy_destinations(analysis: CommandAnalysis) -> frozenset[str]:
    """The last operand of each copy (``cp``, ``mv``, ``install``, ``rsync``): where it writes.

    :param analysis: the analysed command.
    :returns: the destination words.
    """
    return frozenset(segment.argv[-1] for segment in analysis.segments
                     if segment.command in _COPIERS and len(segment.argv) > 2)


_CODE_SUFFIXES = (".sh", ".bash", ".py", ".js", ".mjs", ".ts", ".go", ".rb", ".pl", ".php",
                  ".lua", ".java", ".c", ".cc", ".cpp", ".rs", ".so", ".jar", ".deb", ".rpm")
_VIEWERS = frozenset({"cat", "less", "head", "tail", "wc", "ls", "stat", "rm", "echo", "printf",
                      "tee", "diff", "grep", "rg", "file", "sha256sum", "md5sum"})


def run_words(analysis: CommandAnalysis) -> frozenset[str]:
    """The words a command runs as a program or a script (``/tmp/x``, ``bash /tmp/x.sh``).

    :param analysis: the analysed command.
    :returns: every command word, the first operand of each script runner, and each code
        file handed to a command that is not a viewer (``go run /tmp/t.go``, ``gcc
        /tmp/x.c``): a staged program.
    """
    found: set[str] = set()
    for segment in analysis.segments:
        found.update(segment.words[p].value for p in segment.command_positions)
        argv = segment.argv
        if argv and argv[0].rstrip("0123456789.") in SCRIPT_RUNNERS | {"source", "."}:
            found.update(a for a in argv[1:2] if not a.startswith("-"))
        if argv and argv[0] not in _VIEWERS:
            found.update(a for a in argv[1:] if a.endswith(_CODE_SUFFIXES))
    return frozenset(found)


def scratch(raw: str, lexical: str, roots: Sequence[str], *, into: bool = False) -> bool:
    """Tell whether a written path is a scratch file (rule ``scratch-write`` asks).

    :param raw: the path word as the command gives it.
    :param lexical: the word made absolute (``~`` expanded, ``..`` folded).
    :param roots: the sandbox roots.
    :param into: whether the word is a copy's destination (``/tmp/`` then stands for the
        entry the copy makes in it).
    :returns: true for an entry below a temporary directory or a tool's cache, not hidden
        directly below it, not a glob, not a secret, no ancestor of a root, and still there
        once its links are resolved.
    """
    if into and lexical in SCRATCH_DIRECTORIES:
        lexical = os.path.join(lexical, "copy")
    if not raw.startswith(("/", "~")) or ".." in raw.split("/") or _GLOB.intersection(
            raw) or _ancestor_of_root(lexical, roots):
        return False  # ../../tmp/x climbs out of the project: named by escape, not by place
    home = os.path.expanduser("~")
    if not _scratch_place(lexical, home) or is_secret_path(lexical):
        return False
    real = os.path.realpath(lexical)
    return _scratch_place(real, home) and not _ancestor_of_root(real, roots)


def directory_changes(analysis: CommandAnalysis) -> frozenset[str]:
    """The static directories the command changes to (``cd DIR``, ``pushd DIR``).

    :param analysis: the analysed command.
    :returns: each static ``cd``/``pushd`` operand.
    """
    found = set()
    for segment in analysis.segments:
        if segment.command in ("cd", "pushd"):
            operands = [w for w in segment.words[segment.command_positions[-1] + 1 :]
                        if w.value != "--"]
            if len(operands) == 1 and operands[0].stable:
                found.add(operands[0].value)
    return frozenset(found)


DIRECTORY_CHANGERS = frozenset({"cd", "pushd", "popd"})
"""The commands that change the shell's directory."""


def final_directory_change(analysis: CommandAnalysis) -> Segment | None:
    """The ``cd``/``pushd``/``popd`` that ends the command, when nothing runs after it.

    Each ``bash`` call runs in a fresh shell, so a directory change that is the last thing
    the command does has no effect: ``cd backend && go test ./... && cd ..`` ends where it
    began. Only a top-level change written at the very end of the command text counts (not
    one inside a loop, a function, a group or a subshell, which something may follow or
    repeat), and never when the command sets a ``trap``: an ``EXIT`` trap runs after it, in
    the directory it changed to.

    :param analysis: the analysed command.
    :returns: the final segment, or ``None``.
    """
    if not analysis.segments:
        return None
    last = analysis.segments[-1]
    if last.origin != "top" or last.command not in DIRECTORY_CHANGERS:
        return None
    if any(segment.origin == "trap" for segment in analysis.segments):
        return None
    ending = analysis.command.rstrip().rstrip(";").rstrip()
    return last if ending.endswith(last.text) else None


def moved_relative_paths(analysis: CommandAnalysis, cwd: str) -> dict[str, str]:
    """Relative words of segments run after a ``cd``, each resolved from where it runs.

    ``cd tests && python -m pip install -e ..``: the ``..`` is the project, not its parent.
    Only for a command whose directory changes are top-level ``cd DIR`` with one static
    operand (no ``pushd``, ``popd``, ``cd -``, nor a change inside a group, a subshell, a loop
    or a function), each followed by ``&&`` with nothing after the first that could run when a
    ``cd`` failed or in another shell (:func:`_chained_after_each_cd`), and only for a word
    every segment naming it names from the same directory. The directory is followed
    through links (``cd link && touch ../x`` names the parent of the link's target, as the
    kernel resolves it).

    :param analysis: the analysed command.
    :param cwd: where the command starts.
    :returns: each such word, and the absolute path it names.
    """
    if not any(s.command in DIRECTORY_CHANGERS for s in analysis.segments):
        return {}
    current, moved, places = cwd, False, {}  # type: tuple[str, bool, dict[str, set[str]]]
    changes: list[tuple[str, str]] = []  # each cd's text, and where it leads
    for segment in analysis.segments:
        if segment.command in DIRECTORY_CHANGERS:
            operands = [w for w in segment.words[segment.command_positions[-1] + 1 :]
                        if w.value != "--"]
            if (segment.command != "cd" or segment.origin != "top" or len(operands) != 1
                    or not operands[0].stable or operands[0].value == "-"):
                return {}
            # where the kernel resolves the next relative paths: through any link on the way
            current = os.path.realpath(os.path.join(current, os.path.expanduser(
                operands[0].value)))
            moved = True
            changes.append((segment.text, current))
            continue
        for word in segment.words:
            if word.stable and not word.value.startswith(("/", "~", "-")):
                places.setdefault(word.value, set()).add(current if moved else cwd)
    if not _chained_after_each_cd(analysis.command, [cd for cd, _ in changes]):
        return {}
    _place_redirections(analysis, cwd, changes, places)
    return {raw: os.path.normpath(os.path.join(next(iter(dirs)), raw))
            for raw, dirs in places.items() if len(dirs) == 1 and next(iter(dirs)) != cwd}


_FD_FORMS = re.compile(r"&&|[0-9]*>&[0-9-]*|&>>?|<&[0-9-]*")
"""``&`` that neither backgrounds nor separates: ``&&``, ``2>&1``, ``&>``, ``<&0``."""


def _chained_after_each_cd(text: str, cds: list[str]) -> bool:
    """Whether everything after the first ``cd`` runs only once that ``cd`` has succeeded.

    ``cd web && x``: x runs in web or not at all. Not ``cd web; x`` or ``cd web || x`` (x runs
    where the command started when the ``cd`` fails), ``cd web | x`` or ``cd web & x`` (the
    ``cd`` runs in a subshell of its own), nor ``cd web && a || x`` (x also runs when the cd
    failed), nor a redirection of the ``cd`` itself (``cd web > ../x`` opens it first). Read on
    the text: any ``;``, newline, ``||`` or lone ``&`` after the first ``cd``, even quoted, and a
    ``cd`` not followed by ``&&``, answer no (the words are then judged from the root). A
    trailing ``&`` backgrounds the whole list, ``cd`` included, and is allowed.
    """
    if not cds or any(text.count(cd) != 1 for cd in cds):
        return False
    for cd in cds:
        if not text[text.find(cd) + len(cd):].lstrip(" \t").startswith("&&"):
            return False
    rest = text[min(text.find(cd) for cd in cds):]
    if "||" in rest or "|&" in rest:
        return False
    plain = _FD_FORMS.sub(" ", rest).rstrip()
    plain = plain.removesuffix("&")
    return not any(c in plain for c in ";\n&")


def _place_redirections(analysis: CommandAnalysis, cwd: str, changes: list[tuple[str, str]],
                        places: dict[str, set[str]]) -> None:
    """Add where each relative redirection target is opened (``cd web && x > ../log``).

    A redirection belongs to no segment's words; it is placed by where its target stands in
    the text, after which ``cd`` (each ``cd``'s text stands once: :func:`_chained_after_each_cd`),
    in the order the segments run: otherwise nothing is added and the target is judged from
    the project root, as before. Every occurrence of the target's text counts, so a target
    also named before the ``cd`` is left out (named from two places).
    """
    text = analysis.command
    starts = [(text.find(cd), where) for cd, where in changes]
    if [at for at, _ in starts] != sorted(at for at, _ in starts):
        return
    for raw in analysis.redirect_targets:
        if raw.startswith(("/", "~", "-")):
            continue
        at = analysis.command.find(raw)
        while at >= 0:
            before = [where for start, where in starts if start < at]
            places.setdefault(raw, set()).add(before[-1] if before else cwd)
            at = analysis.command.find(raw, at + 1)


def inert_directories(analysis: CommandAnalysis) -> frozenset[str]:
    """The words only the final directory change names (:func:`final_directory_change`).

    :param analysis: the analysed command.
    :returns: its operands that no other segment, redirection or input names.
    """
    last = final_directory_change(analysis)
    if last is None:
        return frozenset()
    elsewhere_named = {word.value for segment in analysis.segments[:-1]
                       for word in segment.words}
    elsewhere_named.update(analysis.redirect_targets, analysis.input_sources)
    operands = last.words[last.command_positions[-1] + 1 :]
    return frozenset(word.value for word in operands if word.value not in elsewhere_named)


def elsewhere(lexical: str, roots: Sequence[str], analysis: CommandAnalysis) -> bool:
    """Tell whether a directory changed to outside the roots is someone's work (``outside-cd``).

    :param lexical: the directory made absolute (``~`` expanded, ``..`` folded).
    :param roots: the sandbox roots.
    :param analysis: the command (a file-changing command after ``cd`` writes there).
    :returns: false for ``/``, the home directory and its hidden directories, the temporary
        directories themselves, the system's trees, secrets and ancestors of a root, and when
        the command changes files by itself (they stay denied); true otherwise, also once
        links are resolved.
    """
    if _changes_files(analysis):
        return False
    home = os.path.expanduser("~")
    return all(_someones_work(path, home, roots)
               for path in (lexical, os.path.realpath(lexical)))


def _changes_files(analysis: CommandAnalysis) -> bool:
    """A file-changing command or a write redirection (``> /dev/null`` is none)."""
    targets = [t for t in analysis.write_targets if not t.startswith("/dev/")]
    return bool(targets) or (analysis.writes and not analysis.write_targets)


def _someones_work(path: str, home: str, roots: Sequence[str]) -> bool:
    if path in ("/", home, *SCRATCH_DIRECTORIES) or _ancestor_of_root(path, roots):
        return False
    if any(_under(path, tree) for tree in SYSTEM_TREES) and not _scratch_place(path, home):
        return False
    hidden = _entry_below(path, home)
    return not (hidden is not None and hidden.startswith(".")) and not is_secret_path(path)
