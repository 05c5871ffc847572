"""Which command produced an output: the last meaningful segment of a compound shell command.

The segment comes from the core's shell analyzer (:func:`tooldeck.shell_analysis.last_command`,
a real bash syntax tree). Two things stay here: a fast path for plain commands, which the
analyzer would return unchanged (so the tree-sitter parser is not even imported for them), and
peeling an ``env`` wrapper with its ``VAR=value`` arguments, which the analyzer keeps as the
command word (``env -u X FOO=1 make`` is matched as ``make``).
"""

from __future__ import annotations

import re

__all__ = ["command_segment", "last_command"]

_ENV_WRAPPER = re.compile(r"env\s+(?:-\S+\s+)*")
_ENV_ASSIGNMENT = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+")
_SHELL_SYNTAX = frozenset("&|;\n<>()#=\\`")
"""Characters that can make the last segment differ from the whole command."""


def command_segment(command: str) -> str:
    """The part of ``command`` a rule is matched against.

    The last non-empty statement after ``&&``, ``||``, ``;``, ``&`` or a newline, the first
    command of its pipeline, without redirections, ``VAR=value`` prefixes or ``env``.

    :param command: the shell command as the model wrote it.
    :returns: the segment (possibly empty).
    """
    segment = command.strip()
    if not _SHELL_SYNTAX.isdisjoint(segment):
        from tooldeck.shell_analysis import last_command as analyzed

        segment = analyzed(command) or segment
    if segment.startswith("env ") or segment.startswith("env\t"):
        segment = _ENV_WRAPPER.sub("", segment, count=1)
        segment = _ENV_ASSIGNMENT.sub("", segment, count=1) if "=" in segment else segment
    return segment


def last_command(command: str) -> str | None:
    """The last meaningful command of a compound command, or ``None`` when it is the whole thing.

    ``cd /p && cargo clippy 2>&1 | tail -20`` gives ``cargo clippy``; ``a; cargo test`` gives
    ``cargo test``; ``cargo test`` gives ``None``.

    :param command: the shell command.
    :returns: the extracted command, or ``None`` when nothing was stripped or nothing is left.
    """
    segment = command_segment(command)
    if not segment or segment == command.strip():
        return None
    return segment
