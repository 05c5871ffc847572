"""The program a command line runs: what an output filter is matched against.

``cd app && FOO=1 timeout 60 ./.venv/bin/python -m pytest -x 2>&1 | tee log`` runs
``pytest -x``. The steps, all on the analyzer's own results:

1. the last meaningful statement, first stage of its pipeline (:func:`last_command`);
2. its segment from :func:`analyze`: ``VAR=value`` prefixes dropped, wrappers (``env``,
   ``sudo``, ``time``, ``timeout``, ``nice``, ``stdbuf``…) peeled, the command word reduced to
   its lowercase base name (``/usr/bin/docker`` → ``docker``);
3. launchers peeled, repeatedly (:data:`LAUNCHERS`): an interpreter's ``-m MODULE``
   (``python -m pytest`` → ``pytest``), ``uv run``, ``poetry run``, ``pdm run``, ``hatch run``,
   ``rye run``, ``pipx run``, ``npx``, ``bunx``, ``pnpm exec``/``dlx``, ``yarn exec``/``dlx``,
   ``npm exec``. The program a launcher starts gets the same base-name treatment;
4. ``git``'s global options dropped (``git --no-pager -C repo diff`` → ``git diff``).

Unlike policy decisions, nothing here is a security boundary: the result only picks an output
filter, and a command the analyzer cannot resolve falls back to its words as written.
"""

from __future__ import annotations

import re

from tooldeck.shell_analysis.git_options import without_git_options
from tooldeck.shell_analysis.last_command import last_command
from tooldeck.shell_analysis.model import command_name
from tooldeck.shell_analysis.parse import analyze

__all__ = ["LAUNCHERS", "program_argv"]

_INTERPRETER = re.compile(r"(?:python|pypy)(?:\d+(?:\.\d+)*)?")
_PYTHON_FLAGS_WITH_VALUE = frozenset({"-W", "-X", "--check-hash-based-pycs"})

# launcher -> (subcommands that launch, "" when the launcher itself does; options with a value)
_RUNNERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "uv": (
        frozenset({"run", "tool run"}),
        frozenset(
            {
                "--with",
                "--with-requirements",
                "--with-editable",
                "--python",
                "-p",
                "--extra",
                "--group",
                "--only-group",
                "--package",
                "--directory",
                "--project",
                "--env-file",
                "--index",
                "--default-index",
                "--from",
            }
        ),
    ),
    "uvx": (frozenset({""}), frozenset({"--with", "--python", "-p", "--from", "--index"})),
    "poetry": (frozenset({"run"}), frozenset({"-C", "--directory", "-P", "--project"})),
    "pdm": (frozenset({"run"}), frozenset({"-p", "--project"})),
    "hatch": (frozenset({"run"}), frozenset({"-e", "--env"})),
    "rye": (frozenset({"run"}), frozenset()),
    "pipx": (frozenset({"run"}), frozenset({"--spec", "--python"})),
    "npx": (frozenset({""}), frozenset({"-p", "--package", "-c", "--call"})),
    "bunx": (frozenset({""}), frozenset({"-p", "--package"})),
    "pnpm": (frozenset({"exec", "dlx"}), frozenset({"-C", "--dir", "--filter", "-F"})),
    "yarn": (frozenset({"exec", "dlx"}), frozenset({"-p", "--package"})),
    "npm": (frozenset({"exec", "x"}), frozenset({"-p", "--package", "-w", "--workspace"})),
}

LAUNCHERS: frozenset[str] = frozenset({*_RUNNERS, "python", "python3", "pypy3"})
"""Command names that may launch another program (interpreters match by pattern too)."""


def _after_options(argv: tuple[str, ...], start: int, with_value: frozenset[str]) -> int:
    """The index of the first word from ``start`` on that is not an option (or ``--``)."""
    index = start
    while index < len(argv) and argv[index].startswith("-"):
        word = argv[index]
        index += 1
        if word == "--":
            break
        if word in with_value:
            index += 1
    return index


def _git_subcommand(argv: tuple[str, ...]) -> tuple[str, ...]:
    """``git`` without its global options: ``git --no-pager -C repo diff`` → ``git diff``."""
    return ("git", *without_git_options(argv[1:]))


def _peel_launcher(argv: tuple[str, ...]) -> tuple[str, ...] | None:
    """The argv a launcher starts, or ``None`` when ``argv[0]`` launches nothing."""
    head = argv[0]
    if _INTERPRETER.fullmatch(head):
        index = 1
        while index < len(argv) and argv[index].startswith("-") and argv[index] != "-m":
            index += 2 if argv[index] in _PYTHON_FLAGS_WITH_VALUE else 1
        if index + 1 < len(argv) and argv[index] == "-m":
            return (argv[index + 1].split(".", 1)[0], *argv[index + 2 :])
        return None
    runner = _RUNNERS.get(head)
    if runner is None:
        return None
    subcommands, with_value = runner
    index = _after_options(argv, 1, with_value)
    if "" not in subcommands:
        if index >= len(argv):
            return None
        if (
            argv[index] == "tool"
            and "tool run" in subcommands
            and argv[index + 1 : index + 2] == ("run",)
        ):
            index += 1
        elif argv[index] not in subcommands:
            return None
        index = _after_options(argv, index + 1, with_value)
    if index >= len(argv):
        return None
    return (command_name(argv[index]), *argv[index + 1 :])


def program_argv(command: str) -> tuple[str, ...]:
    """The argument vector of the program ``command`` runs, for output-filter matching.

    :param command: a shell command line as the model wrote it.
    :returns: e.g. ``("pytest", "-x")`` for ``cd a && .venv/bin/python -m pytest -x | tee l``;
        empty when no command is found. A word only known at run time is given as written
        (``$f``).
    """
    text = last_command(command) or command
    argv: tuple[str, ...] = ()
    segments = [s for s in analyze(text).segments if s.command_positions]
    if segments:
        # the last command of a subshell or group (``(cd web && npm run build)``)
        segment = segments[-1] if text.lstrip()[:1] in "({" else segments[0]
        start = segment.command_positions[-1]
        argv = (
            segment.command,
            *(w.source if w.dynamic else w.value for w in segment.words[start + 1 :]),
        )
    if not argv:
        words = text.split()
        argv = (command_name(words[0]), *words[1:]) if words else ()
    for _ in range(8):  # launchers rarely nest more than twice (uv run python -m pytest)
        if not argv:
            break
        peeled = _peel_launcher(argv)
        if peeled is None:
            break
        argv = peeled
    if argv and argv[0] == "git":
        argv = _git_subcommand(argv)
    return argv
