r"""Scratch scripts whose whole text the command wrote: judged as the code they hold.

A coding agent writes a reproduction script to ``/tmp`` and runs it in one command::

    cat > /tmp/repro.py <<'EOF'
    import click
    print(click.__version__)
    EOF
    PYTHONPATH=src python /tmp/repro.py

The staged-script walker (:mod:`tooldeck.shell_analysis.staged`) judged that text as
``python3 -c '<text>'`` is judged. :func:`judged_scratch_script` tells when that judgement
covers everything the run executes, so that the shell gate's ``scratch-run`` ask gives way to
it (a clean body is allowed, a dangerous one is denied by the rules that judge code):

| condition                                  | why                                          |
| ------------------------------------------ | -------------------------------------------- |
| every here-document's delimiter is quoted, | the text is what was written: nothing        |
| no here-string                             | expands at run time                          |
| the file is written once, truncating, with | the judged text is all the file holds        |
| known text (``CommandAnalysis.staged_runs``)|                                             |
| the writer is a bare ``cat`` or a ``tee``  | ``cat f - > x``, ``tee -a x`` add text the   |
| without options                            | walker did not judge                         |
| it is run once, by an interpreter, under   | a second run could run what the first wrote; |
| ``timeout``/``time``/``nice`` at most      | ``env -C`` would move its relative paths     |
| the rest only prints, changes directory,   | nothing else can rewrite, decode or fetch it |
| waits (``sleep``, ``true``) or reads the   |                                              |
| run's output from a pipe                   |                                              |
| no import is shadowed by the script's      | Python puts the script's directory first on  |
| directory, no module named relative to it  | ``sys.path`` (``/tmp/json.py``), Node looks  |
| (``require('./x')``, ``require_relative``)  | in ``node_modules`` above it                 |
"""

from __future__ import annotations

import glob
import os
import re

from tooldeck.shell_analysis import CommandAnalysis, Segment
from tooldeck.shell_analysis.outside_reads import SCRIPT_RUNNERS
from tooldeck.shell_analysis.outside_work import DIRECTORY_CHANGERS
from tooldeck.shell_analysis.staged import staged_key

__all__ = ["HEREDOC_START", "judged_scratch_script", "known_body"]

HEREDOC_START = re.compile(r"(?<!<)<<(?!<)-?[ \t]*(\S)")
"""The first character of each here-document's delimiter word."""

_TEXT_WRITERS = frozenset({"cat", "tee"})
_PRINTING = frozenset({"echo", "printf"})
_PIPE_READERS = frozenset({"head", "tail", "grep", "wc"})
_TIMERS = frozenset({"timeout", "time", "nice"})
_INERT = frozenset({"sleep", "true", ":"})
"""Commands that read and write nothing: a ``sleep`` between writing and running a script
changes neither."""
_NODES = frozenset({"node", "nodejs", "bun", "deno"})
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import|import[ \t]+([\w., \t]+))",
                     re.MULTILINE)
_BESIDE = re.compile(r"""(?:require|import|from)\s*\(?\s*['"`]\.{1,2}/|require_relative""")
"""A Node module or a Ruby file named relative to the script: loaded from its directory."""


def known_body(raw: str, analysis: CommandAnalysis) -> bool:
    """Whether a script the command runs is not written by it or written from known text.

    Known text: every top-level command is a static-text writer (``cat``/``tee`` fed a
    here-document or here-string, ``echo``, ``printf``), a directory change, a wait
    (``sleep``, ``true``) or an interpreter,
    with no word known only at run time. The staged-script walker then judged that text as
    code. ``echo "$P" > /tmp/x.sh && bash /tmp/x.sh`` and ``… | base64 -d > /tmp/x.py &&
    python3 /tmp/x.py`` stay denied.
    """
    if raw not in analysis.write_targets and raw not in analysis.redirect_targets:
        return True
    for segment in analysis.segments:
        if segment.origin != "top":
            continue  # the script's own commands, found by the staged-script walker
        if not all(word.stable for word in segment.words):
            return False
        name = segment.command
        if name in _TEXT_WRITERS and segment.stdin in ("heredoc", "here-string"):
            if not _unexpanded_input(analysis.command):
                return False  # cat <<EOF with $PAYLOAD in it: the body is known at run time
            continue
        if name not in _PRINTING and name not in DIRECTORY_CHANGERS and name not in _INERT and (
                name.rstrip("0123456789.") not in SCRIPT_RUNNERS):
            return False
    return True


def _unexpanded_input(command: str) -> bool:
    r"""Whether the here-documents and here-strings of ``command`` expand nothing.

    True when nothing in the command could expand (no ``$``, no backquote), or when every
    here-document's delimiter is quoted (``<<'EOF'``, ``<<"EOF"``, ``<<\EOF``: bash then
    leaves its body as written) and no here-string is used.
    """
    if "$" not in command and "`" not in command:
        return True
    if "<<<" in command:
        return False
    return all(start.group(1) in "'\"\\" for start in HEREDOC_START.finditer(command))


def judged_scratch_script(raw: str, analysis: CommandAnalysis) -> bool:
    """Whether a scratch script's whole text was judged as code (``scratch-run`` then allows).

    :param raw: the script word as the command gives it (``/tmp/repro.py``).
    :param analysis: the analysed command.
    :returns: true when every condition of the module docstring holds; a script written
        before (an existing ``/tmp/x.py``) or any other command (a decoder, a download,
        ``chmod +x``, ``sed -i``) makes it false.
    """
    command = analysis.command
    starts = list(HEREDOC_START.finditer(command))
    if not starts or "<<<" in command or any(s.group(1) not in "'\"\\" for s in starts):
        return False
    runs = [run for run in analysis.staged_runs if run.path == staged_key(raw)]
    if len(runs) != 1 or not runs[0].sole_write:
        return False
    run = runs[0]
    body = range(run.start, run.stop)
    for index, segment in enumerate(analysis.segments):
        if index in body:
            continue  # the script's own text, judged by every rule
        if not all(word.stable for word in segment.words):
            return False
        if index == run.runner:
            if segment.command in ("source", ".") or not _TIMERS.issuperset(segment.wrappers):
                return False
            continue
        if len(segment.command_positions) != 1 or not (
                _heredoc_writer(segment) or segment.command in _INERT
                or segment.command in _PRINTING or segment.command in DIRECTORY_CHANGERS
                or (segment.command in _PIPE_READERS and segment.stdin == "pipe")):
            return False
    runner = analysis.segments[run.runner].command
    text = analysis.segments[run.start].argv[-1] if run.stop == run.start + 1 else ""
    return not _shadowed(raw, runner, text)


def _heredoc_writer(segment: Segment) -> bool:
    """``cat`` or ``tee FILE…`` writing only its here-document (no file read, no ``-a``)."""
    if segment.command not in _TEXT_WRITERS or segment.stdin != "heredoc":
        return False
    args = [word.value for word in segment.words[1:]]
    if segment.command == "cat":
        return all(arg == "-" for arg in args)
    return not any(arg.startswith("-") for arg in args)


def _shadowed(raw: str, runner: str, text: str) -> bool:
    """Whether the script's directory holds code its interpreter would load instead.

    Python runs a script with its directory first on ``sys.path``: ``/tmp/json.py`` is what
    ``import json`` imports. Node resolves a bare ``require`` in every ``node_modules`` above
    the script, and ``require('./x')`` (Ruby's ``require_relative``) beside it. ``python3
    -c`` and ``node -e`` would load none of these.
    """
    directory = os.path.dirname(os.path.realpath(os.path.expanduser(raw)))
    if _BESIDE.search(text):
        return True  # require('./x'), require_relative 'x': a file beside the script runs
    if runner.rstrip("0123456789.") in _NODES:
        return any(os.path.exists(os.path.join(d, "node_modules")) for d in _ancestors(directory))
    if not runner.startswith("python"):
        return False
    for match in _IMPORT.finditer(text):
        for name in (match.group(1) or match.group(2)).split(","):
            top = (name.split() or [""])[0].split(".")[0]
            if top and (any(os.path.exists(os.path.join(directory, top + suffix))
                            for suffix in ("", ".py", ".pyc"))
                        or glob.glob(os.path.join(glob.escape(directory), top + ".*.so"))):
                return True
    return False


def _ancestors(directory: str) -> list[str]:
    found = [directory]
    while os.path.dirname(found[-1]) != found[-1]:
        found.append(os.path.dirname(found[-1]))
    return found
