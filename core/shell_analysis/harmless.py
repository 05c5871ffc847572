"""Commands no rule family can object to: shell builtins that only print, on plain words.

The shell gate runs a dozen rule families (classes, links, sandbox paths, outside work,
run-time paths, rollback coverage) over every command; for ``true`` or ``echo done`` none of
them can fire, and running them is most of the gate's cost. :func:`is_harmless` tells, from
the analysis alone (never the command text), that a command is one of those, so the gate
can skip them. The operator's own rules (blocklist, permission rules, overlays, confirm
patterns) still run on it.

A command is harmless when every condition holds:

| condition                                    | why                                        |
| -------------------------------------------- | ------------------------------------------ |
| not refused, not opaque                      | what is unseen is asked about              |
| no redirection, input source, socket         | no file or network is touched              |
| no assignment, function, run-time code       | nothing changes what later words mean      |
| nothing the analysis counts as a write       | no file changes                            |
| at least one segment; every one at the top,  | no substitution, subshell, nested script,  |
| fed by nothing or a pipe, one command        | here-doc, wrapper or ``VAR=value`` prefix  |
| position, a program of :data:`HARMLESS`, its |                                            |
| text starting with that word                 |                                            |
| every word stable, none path-like, no ``:``, | no path, URL, host, ``NAME=value`` or run- |
| ``@`` or ``=``                               | time value to judge                        |

The tests (``tests/shell/test_harmless_early_exit.py``) check that every rule family
returns nothing on such an analysis and that the gate's vote is the same with and without
the early exit.
"""

from __future__ import annotations

from tooldeck.shell_analysis.model import CommandAnalysis, Segment
from tooldeck.shell_analysis.paths import is_path_like

__all__ = ["HARMLESS", "is_harmless"]

HARMLESS = frozenset({"true", "false", ":", "echo", "pwd"})
"""Bash builtins that read no file, start no program and change nothing but their output."""

_ORIGINS = frozenset({"top"})
_STDIN = frozenset({"inherited", "pipe"})


def _harmless_segment(segment: Segment) -> bool:
    if (segment.origin not in _ORIGINS or segment.stdin not in _STDIN
            or segment.command_positions != (0,) or segment.command not in HARMLESS):
        return False
    first = segment.words[0]
    if first.dynamic or not segment.text.startswith(first.source):
        return False  # a VAR=value prefix stands before the command word
    for word in segment.words[1:]:  # the first is the command, one of HARMLESS
        value = word.value
        if (word.dynamic or word.globbed or ":" in value or "@" in value or "=" in value
                or is_path_like(value)):
            return False
    return True


def is_harmless(analysis: CommandAnalysis) -> bool:
    """Tell whether no rule family of the shell gate can fire on this analysis.

    :param analysis: the analysed command.
    :returns: true when every condition of the module table holds.
    """
    if (analysis.opaque_reasons or analysis.refusal is not None or analysis.writes
            or analysis.redirect_targets or analysis.write_targets or analysis.input_sources
            or analysis.network_redirects or analysis.runtime_code or analysis.assignments
            or analysis.functions or analysis.dynamic_redirects or analysis.dynamic_inputs
            or not analysis.segments):
        return False
    return all(_harmless_segment(segment) for segment in analysis.segments)
