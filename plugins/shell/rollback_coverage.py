r"""Rollback coverage: which parts of a command a transaction's snapshot cannot cover.

A transaction (``transactional = true`` with ``auto_rollback = true``) snapshots the write
targets the analyzer resolves statically. A write it cannot name before the run would not be
restored, so the gate asks instead of allowing (rule ``rollback-coverage``). A segment is
covered when its command is one of:

=====================  =======================================================================
kind                   covered when
=====================  =======================================================================
read-only command      always (``ls cat grep echo test exit …``, :data:`READ_ONLY`; ``sort``
                       without ``-o``, ``sed`` without ``-i`` and without a ``w`` command,
                       ``find`` without ``-delete``/``-fprint…``/``-exec``, ``git status``,
                       ``diff``, ``log``, ``show``)
targeted writer        ``rm mv cp ln touch mkdir tee …`` (:data:`TARGETED_WRITERS`) whose
                       every argument is a static, glob-free word
=====================  =======================================================================

Not covered (each gives a reason): any other command (interpreters such as ``python -c``,
``awk``, build tools, archivers: they may write anything), a writer run by ``xargs`` or
``find -exec`` (its operands come at run time), a writer with an argument built at run time
(``rm "$f"``) or a glob (``rm *.txt``), ``cd``/``pushd``/``popd`` (relative targets would be
resolved against the wrong directory), and a write redirection whose target holds ``$``, a
backquote or a glob (``> "$out"``; found on the command text, so a false alarm only asks).
"""

from __future__ import annotations

import re

from tooldeck.shell_analysis import CommandAnalysis, Segment

__all__ = ["READ_ONLY", "TARGETED_WRITERS", "uncovered_writes"]

READ_ONLY = frozenset({
    ":", "[", "[[", "basename", "cat", "cmp", "comm", "cut", "date", "declare", "df", "diff",
    "dirname", "du", "echo", "egrep", "env", "exit", "export", "false", "fgrep", "file",
    "grep", "head", "hostname", "id", "join", "local", "ls", "md5sum", "nl", "paste",
    "printenv", "printf", "pwd", "read", "readlink", "readonly", "realpath", "return", "rev",
    "rg", "seq", "set", "sha1sum", "sha256sum", "shift", "sleep", "stat", "tac", "tail",
    "test", "tr", "true", "type", "typeset", "uname", "uniq", "unset", "wc", "which", "whoami",
    "yes",
})
"""Commands that never change files (their redirections are judged separately)."""

TARGETED_WRITERS = frozenset({
    "chgrp", "chmod", "chown", "cp", "dd", "install", "ln", "mkdir", "mv", "rm", "rmdir",
    "sed", "tee", "touch", "truncate",
})
"""Writers whose targets the analyzer extracts from their arguments."""

_GIT_READ_ONLY = frozenset({"diff", "log", "show", "status"})
_DIRECTORY_CHANGERS = frozenset({"cd", "pushd", "popd"})
_ARGUMENT_RUNNERS = frozenset({"xargs", "parallel"})
_FIND_WRITES = frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint",
                          "-fprint0", "-fprintf", "-fls"})
_SED_WRITE = re.compile(r"(^|[;}\s/])[wW]\s*\S")
# a write redirection (>, >>, >|, &>, N>) whose target word starts with or holds $ ` * ? [ {
_DYNAMIC_REDIRECT = re.compile(
    r"(?<![<>])(?:&>>?|\d*>>?\|?)\s*(?!&)[^\s;|&()<>]*[$`*?\[{][^\s;|&()<>]*")


def _arguments(segment: Segment) -> list[str]:
    return [w.value for w in segment.words[segment.command_positions[-1] + 1 :]]


def _read_only(segment: Segment) -> bool:
    command = segment.command
    args = _arguments(segment)
    if command == "sort":
        return not any(a == "-o" or a.startswith(("-o", "--output")) for a in args)
    if command == "sed":
        in_place = any(a.startswith("--in-place") or (a.startswith("-") and not
                       a.startswith("--") and "i" in a) for a in args)
        return not in_place and not any(_SED_WRITE.search(a) for a in args)
    if command == "find":
        return not any(a in _FIND_WRITES for a in args)
    if command == "git":
        return bool(args) and args[0] in _GIT_READ_ONLY and "--output" not in " ".join(args)
    return command in READ_ONLY


def _segment_reason(segment: Segment) -> str | None:
    command = segment.command
    if not command:
        return None
    if command in _DIRECTORY_CHANGERS:
        return f"{segment.text!r} changes the directory relative write targets resolve against"
    if _read_only(segment):
        return None
    if segment.origin == "find -exec" or _ARGUMENT_RUNNERS.intersection(segment.wrappers):
        return f"{segment.text!r} gets its operands at run time"
    if command == "sed" and any(_SED_WRITE.search(a) for a in _arguments(segment)):
        return f"{segment.text!r} may write with a sed ``w`` command"
    if command not in TARGETED_WRITERS:
        return f"{command!r} may write files the snapshot cannot know in advance"
    start = segment.command_positions[-1] + 1
    for word in segment.words[start:]:
        if not word.stable:
            return f"operand {word.source!r} of {command!r} is only known at run time"
    return None


def uncovered_writes(analysis: CommandAnalysis) -> tuple[str, ...]:
    """Why a transaction's snapshot could not cover every write of a command.

    :param analysis: the analysed command.
    :returns: one reason per uncovered segment or redirection; empty when covered.
    """
    reasons = [r for r in map(_segment_reason, analysis.segments) if r is not None]
    match = _DYNAMIC_REDIRECT.search(analysis.command)
    if match is not None:
        reasons.append(f"redirection {match.group(0).strip()!r} writes to a path only known "
                       "at run time")
    return tuple(dict.fromkeys(reasons))
