"""Directories a toolchain prints for itself: ``$(go env GOROOT)``, ``$(npm root -g)``.

A word built from such a command names where an installed toolchain lives, never a secret:
read there, it is an outside read (:func:`.outside_reads.toolchain_reads`), and a program
run from there (``"$(go env GOPATH)"/bin/promu build``, ``$(npm root)/.bin/tsc``) is the
program of that name, judged by its name as if found on the PATH
(:func:`is_toolchain_program`), not a command word unknown until run time — unless the
command itself may change where the toolchain points (:func:`changed_toolchain_finding`).
"""

from __future__ import annotations

import re

from tooldeck.shell_analysis.findings import ASK, Finding
from tooldeck.shell_analysis.model import CommandAnalysis

__all__ = ["TOOLCHAIN_DIR", "changed_toolchain_finding", "is_toolchain_program"]

_DIRECTORY_COMMAND = (
    r"(?:go env (?:GOROOT|GOPATH|GOMODCACHE|GOCACHE|GOBIN)|pnpm root(?: -g)?|npm root(?: -g)?|"
    r"npm prefix(?: -g)?|rustc --print sysroot|brew --prefix(?: [\w@.+-]+)?|pyenv root|"
    r"rbenv root|gem env gemdir|xcrun --show-sdk-path|xcrun --sdk \w+ --show-sdk-path|"
    r"xcode-select -p|xcode-select --print-path)")
_COMMAND = r"(?:" + _DIRECTORY_COMMAND + r"|uname -[rm])"
TOOLCHAIN_DIR = re.compile(
    r'"?(?:/[\w.+-]+)*/?(?:\$\(' + _COMMAND + r"\)|`" + _COMMAND + r"`)"
    r'"?[\w./+@-]*"?'
)
"""A word built from the command that prints a toolchain's own directory (``$(go env
GOROOT)/src``, ``$(npm root -g)``, ``$(brew --prefix)/opt``, ``$(xcrun --show-sdk-path)``) or
the kernel's release or machine name (``/lib/modules/$(uname -r)``, also in backquotes)."""

_PROGRAM = re.compile(
    r'"?(?:\$\(' + _DIRECTORY_COMMAND + r"\)|`" + _DIRECTORY_COMMAND + r"`)"
    r'"?/[\w./+@-]*[\w+@-]"?'
)


def is_toolchain_program(source: str) -> bool:
    """Tell whether a command word runs a program from a toolchain's own directory.

    :param source: the word as written (``"$(go env GOPATH)"/bin/promu``).
    :returns: true when the word starts with the toolchain's directory (nothing before it:
        ``/tmp/$(…)/x`` is not one), goes on with a static path without ``..`` and names a
        program; the kernel's names (``uname``) never count.
    """
    return _PROGRAM.fullmatch(source) is not None and ".." not in source


_SETTERS = frozenset({"export", "declare", "typeset", "readonly", "local", "set", "env",
                      "unset", "source", ".", "eval", "cd", "pushd", "popd"})
"""Commands that change a variable or the directory a toolchain's answer depends on
(``GOPATH``, ``npm_config_prefix``, ``HOMEBREW_PREFIX``, the directory ``npm root`` starts
from)."""


def changed_toolchain_finding(analysis: CommandAnalysis) -> Finding | None:
    """Ask when a command runs a toolchain directory's program and may move that directory.

    ``GOPATH=/tmp/e; $(go env GOPATH)/bin/ls`` runs ``/tmp/e/bin/ls`` when ``GOPATH`` is
    exported: the program is then not the toolchain's ``ls``. Any assignment statement or
    setter (``export``, ``env``, ``cd`` …) in such a command asks (``opaque``).

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    runs = [s for s in analysis.segments if s.command_positions
            and is_toolchain_program(s.words[s.command_positions[-1]].source)]
    if not runs or not (analysis.assignments or any(
            s.command in _SETTERS for s in analysis.segments)):
        return None
    return Finding(ASK, "opaque", f"{runs[0].text!r} runs a program from a toolchain's "
                   "directory the command may change")
