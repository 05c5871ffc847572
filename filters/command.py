"""Which program produced an output: the command a rule is matched against.

The one normaliser is the core's :func:`tooldeck.shell_analysis.program.program_argv`, shared
with the shell policy's analyzer: last meaningful statement, ``VAR=value`` prefixes, wrappers
(``env``, ``sudo``, ``time``, ``timeout``, ``stdbuf``…), a binary by path and launchers
(``python -m``, ``uv run``, ``npx``, ``pnpm exec``…) all peeled. So ``cd app &&
./.venv/bin/python -m pytest -x 2>&1 | tee log`` is matched as ``pytest -x``.

One shortcut stays here: a plain command (no shell syntax, a bare lowercase command word that
is neither a wrapper nor a launcher, and not ``git`` with global options) is already in normal
form, and the tree-sitter parser is not imported for it. A test keeps :data:`NEEDS_ANALYSIS`
in step with the analyzer's tables.
"""

from __future__ import annotations

import functools
import re
import shlex

__all__ = ["NEEDS_ANALYSIS", "command_segment", "last_command", "normalized_command"]

NEEDS_ANALYSIS = frozenset({
    # wrappers the analyzer peels (tooldeck.shell_analysis.WRAPPERS)
    "env", "command", "exec", "builtin", "nice", "nohup", "time", "timeout", "stdbuf", "xargs",
    "sudo", "doas", "setsid", "ionice", "chroot", "busybox", "toybox", "coproc", "sshpass",
    "noglob", "nocorrect",
    # launchers (tooldeck.shell_analysis.program.LAUNCHERS)
    "uv", "uvx", "poetry", "pdm", "hatch", "rye", "pipx", "npx", "bunx", "pnpm", "yarn", "npm",
    "python", "python3", "pypy3",
})  # fmt: skip
"""Command words for which the shortcut is not taken."""

_PLAIN = re.compile(r"[a-z][a-z0-9_.+-]*(?:[ \t]+[^\s&|;<>()#=\\`'\"$*?\[\]{}~!]+)*")
_INTERPRETER = re.compile(r"(?:python|pypy)[\d.]*")


@functools.lru_cache(maxsize=1024)
def _normalized(command: str) -> str:
    stripped = command.strip()
    match = _PLAIN.fullmatch(stripped)
    if match is not None:
        words = stripped.split()
        head = words[0]
        git_options = head == "git" and len(words) > 1 and words[1].startswith("-")
        if head not in NEEDS_ANALYSIS and not _INTERPRETER.fullmatch(head) and not git_options:
            return " ".join(words)
    from tooldeck.shell_analysis.program import program_argv

    return " ".join(_quoted(word) for word in program_argv(command)) if stripped else ""


def _quoted(word: str) -> str:
    return word if word and not any(char.isspace() for char in word) else shlex.quote(word)


def normalized_command(command: str) -> str:
    """The command ``command`` runs, in the normal form rules are matched against.

    :param command: the shell command as the model wrote it.
    :returns: the program's words joined by spaces (quoted when empty or holding spaces),
        e.g. ``pytest -x``
        for ``FOO=1 timeout 60 python -m pytest -x``; empty when there is no command.
    """
    return _normalized(command)


def command_segment(command: str) -> str:
    """The text a rule's ``match`` is tested against: :func:`normalized_command`.

    :param command: the shell command as the model wrote it.
    :returns: the normal form (possibly empty).
    """
    return _normalized(command)


def last_command(command: str) -> str | None:
    """The normal form of ``command``, or ``None`` when it is the command as written.

    ``cd /p && cargo clippy 2>&1 | tail -20`` gives ``cargo clippy``; ``python -m pytest -q``
    gives ``pytest -q``; ``cargo test`` gives ``None``.

    :param command: the shell command.
    :returns: the normal form, or ``None`` when nothing was peeled or nothing is left.
    """
    segment = _normalized(command)
    if not segment or segment == " ".join(command.split()):
        return None
    return segment
