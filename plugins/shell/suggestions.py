"""Safe-fix suggestions: one sentence attached to a denied command, saying what to do instead.

Informational only: a suggestion never changes a verdict. The first rule that fires wins.

=====================  ==================================================================
rule                   fires when a segment …
=====================  ==================================================================
``root-or-home``       runs ``rm`` recursively on ``/``, ``/*``, ``~``, ``~/*`` or ``$HOME``
``pipe-to-shell``      downloads with ``curl``/``wget`` while another segment is a shell
``chmod-777``          runs ``chmod`` with mode ``777`` (or ``a+rwx``)
``system-file``        writes (redirection or write command) under ``/etc``
``http-client``        runs ``curl`` or ``wget``
``raw-socket``         runs ``nc``, ``ncat`` or ``netcat``
=====================  ==================================================================
"""

from __future__ import annotations

from collections.abc import Callable

from tooldeck.shell_analysis import SHELLS, CommandAnalysis

__all__ = ["suggest"]

_HTTP = frozenset({"curl", "wget"})
_SOCKETS = frozenset({"nc", "ncat", "netcat"})
_ROOTS = frozenset({"/", "/*", "~", "~/", "~/*"})


def _root_or_home(analysis: CommandAnalysis) -> str | None:
    for segment in analysis.segments:
        argv = segment.argv
        recursive = any(
            (a.startswith("-") and not a.startswith("--") and "r" in a.lower())
            or a == "--recursive" for a in argv[1:]
        )
        if argv[:1] == ("rm",) and recursive and any(a in _ROOTS for a in argv[1:]):
            return ("never delete the filesystem root or the home directory; remove a "
                    "specific directory inside the project (e.g. rm -rf ./build)")
    return None


def _pipe_to_shell(analysis: CommandAnalysis) -> str | None:
    commands = set(analysis.commands)
    if commands & _HTTP and commands & SHELLS:
        return "download the script to a file, read it, then run it explicitly"
    return None


def _chmod_777(analysis: CommandAnalysis) -> str | None:
    for segment in analysis.segments:
        if segment.command == "chmod" and {"777", "a+rwx"} & set(segment.argv[1:]):
            return "grant only what is needed (e.g. chmod 755, or chmod u+x for a script)"
    return None


def _system_file(analysis: CommandAnalysis) -> str | None:
    if any(t == "/etc" or t.startswith("/etc/") for t in analysis.write_targets):
        return "write inside the project; system files need an administrator"
    return None


def _http_client(analysis: CommandAnalysis) -> str | None:
    if set(analysis.commands) & _HTTP:
        return "use the fetch tool for HTTP requests"
    return None


def _raw_socket(analysis: CommandAnalysis) -> str | None:
    if set(analysis.commands) & _SOCKETS:
        return "raw network connections are not available; use the fetch tool for HTTP"
    return None


_RULES: tuple[Callable[[CommandAnalysis], str | None], ...] = (
    _root_or_home, _pipe_to_shell, _chmod_777, _system_file, _http_client, _raw_socket,
)


def suggest(analysis: CommandAnalysis) -> str | None:
    """The safe alternative to a denied command, when one of the rules knows it.

    :param analysis: the denied command's analysis.
    :returns: one sentence, or ``None``.
    """
    for rule in _RULES:
        found = rule(analysis)
        if found is not None:
            return found
    return None
