"""Which program each ``level`` runs, with which arguments, and where it is looked for.

=========  ==========  ==========================================================  =========
level      program     arguments (``T`` the target path)                           ok exits
=========  ==========  ==========================================================  =========
check      cargo       ``check --message-format=json`` (in the target directory)   0, 101
clippy     cargo       ``clippy --message-format=json``                            0, 101
ruff       ruff        ``check --output-format=json --no-cache --exit-zero T``     0
mypy       mypy        ``-O json --cache-dir=/dev/null --no-error-summary T``      0, 1
pyright    pyright     ``--outputjson T``                                          0, 1
tsc        tsc         ``--noEmit --pretty false -p T`` (a directory) or ``T``     0, 1, 2
eslint     eslint      ``--format json T``                                         0, 1
=========  ==========  ==========================================================  =========

No checker writes a cache into the project. A program is looked for first in the project
(``node_modules/.bin`` for the JavaScript tools, ``.venv/bin`` for the Python ones, in the
target's directory and each parent inside the sandbox), then on ``PATH``; cargo as Zeph
does: ``$CARGO`` when it names a file, else ``PATH``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

import attrs

from tooldeck.paths import PathSandbox

__all__ = ["CHECKERS", "MYPY_TEXT", "Checker", "locate"]


@attrs.frozen
class Checker:
    """How one ``level`` is run.

    :param program: the executable's name.
    :param arguments: ``(target, is_dir) -> argv`` after the program.
    :param ok_exits: exit codes of a run that checked (findings or not).
    :param local_bins: project directories searched before ``PATH``.
    """

    program: str
    arguments: Callable[[str, bool], list[str]]
    ok_exits: frozenset[int]
    local_bins: tuple[str, ...] = ()


_NODE = ("node_modules/.bin",)
_PYTHON = (".venv/bin",)


def _tsc(target: str, is_dir: bool) -> list[str]:
    return ["--noEmit", "--pretty", "false", *(["-p", target] if is_dir else [target])]


CHECKERS: dict[str, Checker] = {
    "check": Checker("cargo", lambda t, d: ["check", "--message-format=json"],
                     frozenset({0, 101})),
    "clippy": Checker("cargo", lambda t, d: ["clippy", "--message-format=json"],
                      frozenset({0, 101})),
    "ruff": Checker("ruff", lambda t, d: ["check", "--output-format=json", "--no-cache",
                                          "--exit-zero", t], frozenset({0}), _PYTHON),
    "mypy": Checker("mypy", lambda t, d: ["-O", "json", f"--cache-dir={os.devnull}",
                                          "--no-error-summary", t], frozenset({0, 1}), _PYTHON),
    "pyright": Checker("pyright", lambda t, d: ["--outputjson", t], frozenset({0, 1}),
                       (*_NODE, *_PYTHON)),
    "tsc": Checker("tsc", _tsc, frozenset({0, 1, 2}), _NODE),
    "eslint": Checker("eslint", lambda t, d: ["--format", "json", t], frozenset({0, 1}), _NODE),
}
"""Each level's checker."""

MYPY_TEXT = Checker("mypy", lambda t, d: ["--show-column-numbers", "--no-error-summary",
                                          "--no-color-output", f"--cache-dir={os.devnull}", t],
                    frozenset({0, 1}), _PYTHON)
"""mypy without ``-O json`` (before 1.11): its text format, parsed line by line."""


def _local(sandbox: PathSandbox, start: str, checker: Checker) -> str | None:
    """The checker's program in the project: in ``start`` or a parent inside the sandbox."""
    directory = start
    while sandbox.contains(directory):
        for bin_dir in checker.local_bins:
            candidate = os.path.join(directory, bin_dir, checker.program)
            real = os.path.realpath(candidate)
            if sandbox.contains(real) and os.path.isfile(real) and os.access(real, os.X_OK):
                return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return None


def locate(sandbox: PathSandbox, start: str, checker: Checker, path: str | None) -> str | None:
    """Where the checker's program is, or ``None`` when it is not installed.

    :param sandbox: the sandbox (a project-local program must resolve inside it).
    :param start: the directory the checker runs in.
    :param checker: the checker.
    :param path: the ``PATH`` to search last.
    :returns: the executable's path, or ``None``.
    """
    if checker.program == "cargo":
        override = os.environ.get("CARGO")
        if override and os.path.isfile(override):
            return override
    return _local(sandbox, start, checker) or shutil.which(checker.program, path=path)
