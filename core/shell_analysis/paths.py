"""Path extraction: path-like arguments (for a path sandbox) and write targets (for snapshots).

Path-like words (Zeph's rule, extended):

| word                                          | path? | note                              |
| --------------------------------------------- | ----- | --------------------------------- |
| starts with ``/ ./ ../ ~``, or is ``..``       | yes   | ``~`` added: it names the home    |
| starts with ``.`` and contains ``/``           | yes   |                                   |
| relative word with ``/`` (``src/a.py``)        | yes   | not ``-x``, URL or ``NAME=v``     |
| ``--opt=PATH``, ``of=PATH``                    | PATH  | the value after ``=`` is judged   |
| ``file:PATH?query``, ``file:///PATH``          | PATH  | a file URI, SQLite's URI filename |
| absolute command word (``/usr/bin/git``)       | no    | an executable, not data           |
| relative command word (``./run.sh``)           | yes   | runs a file from the tree         |
| dynamic word (``$d/x``)                        | no    | unknown until run time            |
| program text or pattern (``sed '/^#/d'``)      | no    | :mod:`.program_text`              |
| a cloud resource's name (``az --ids /subscr…``)| no    | :mod:`.cloud_clis`                |

Write targets: the analyzer's redirect targets plus the path operands of ``rm rmdir mv cp ln
touch mkdir tee truncate install chmod chown chgrp``, ``dd of=``, ``sed -i``, the files of a
sed script's ``w FILE`` command and ``s///w FILE`` flag, and the values
of the output options of :data:`_OUTPUT_OPTIONS` (``curl -o F``, ``git log --output=F``,
``find -fprint F``, ``cc -o F``, ``unzip -d DIR``). A command also
*writes* when it is ``patch``, ``git checkout`` or ``cargo fmt`` (no explicit operands).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.cloud_clis import resource_name_words
from tooldeck.shell_analysis.model import CommandAnalysis, Segment, Word
from tooldeck.shell_analysis.program_text import program_words
from tooldeck.shell_analysis.wrappers import is_assignment

__all__ = ["dynamic_targets", "is_path_like", "path_arguments", "path_value",
           "write_analysis"]

# Options taking a separate argument, per write command (the argument is not a target).
_OPTION_ARGS: dict[str, frozenset[str]] = {
    "rm": frozenset(),
    "rmdir": frozenset(),
    "touch": frozenset({"-d", "-t", "-r", "--date", "--reference"}),
    "mkdir": frozenset({"-m", "--mode", "--context"}),
    "mv": frozenset({"-S", "--suffix"}),
    "cp": frozenset({"-S", "--suffix"}),
    "ln": frozenset({"-S", "--suffix"}),
    "tee": frozenset(),
    "truncate": frozenset({"-s", "-r", "--size", "--reference"}),
    "install": frozenset({"-m", "-o", "-g", "-S", "--mode", "--owner", "--group", "--suffix"}),
    "chmod": frozenset(),
    "chown": frozenset(),
    "chgrp": frozenset(),
}
_FIRST_IS_NOT_TARGET = frozenset({"chmod", "chown", "chgrp"})
_COMPILER_OUTPUT = frozenset({"-o"})
_OUTPUT_OPTIONS: dict[str, frozenset[str]] = {
    # options whose value is a file the program writes (each program's manual; GTFOArgs'
    # file-write entries: git log --output, find -fprintf, logrotate -s, sendmail -X …)
    "git": frozenset({"--output"}),
    "curl": frozenset({"-o", "--output"}),
    "wget": frozenset({"-O", "--output-document", "-o", "--output-file", "-a",
                       "--append-output"}),
    "find": frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"}),
    "logrotate": frozenset({"-s", "--state", "-l", "--log"}),
    "sort": frozenset({"-o", "--output"}),
    "sendmail": frozenset({"-X"}), "exim": frozenset({"-X"}), "exim4": frozenset({"-X"}),
    "strace": frozenset({"-o", "--output"}), "ltrace": frozenset({"-o", "--output"}),
    "tcpdump": frozenset({"-w"}), "openssl": frozenset({"-out"}),
    "unzip": frozenset({"-d"}),
    **dict.fromkeys(("gcc", "g++", "cc", "c++", "clang", "clang++", "gfortran"),
                    _COMPILER_OUTPUT),
}
"""Per program, the options naming a file (or, for ``unzip -d``, a directory) it writes."""
_BUNDLING = frozenset({"curl", "wget", "sort", "strace", "ltrace", "tcpdump", "logrotate"})
"""Programs whose one-letter options bundle, the last taking the value (``curl -sSLo F``);
not the compilers, whose ``-lfoo`` names a library."""
_IMPLICIT_WRITERS = (("patch",), ("git", "checkout"), ("cargo", "fmt"))
_IMPLICIT_HEADS = frozenset(prefix[0] for prefix in _IMPLICIT_WRITERS)


def is_path_like(value: str) -> bool:
    """Tell whether a word looks like a filesystem path.

    :param value: a static word value.
    :returns: true for the shapes in the module table.
    """
    if not value:
        return False
    if value.startswith(("/", "./", "../", "~")) or value == "..":
        return True
    if value.startswith(".") and "/" in value:
        return True
    return (
        "/" in value
        and "://" not in value
        and (value[0].isalnum() or value[0] == "_")
        and not is_assignment(value)
    )


_GLUED_OUTPUT = frozenset({"7z", "7za", "7zz", "7zr"})
"""Programs whose output and working-directory switches take their value glued (``-oDIR``,
``-wDIR``: 7-Zip's manual)."""


_LABEL_TOOLS = frozenset({"bazel", "bazelisk", "blaze", "buck", "buck2", "pants", "please",
                          "plz"})
"""Build tools whose ``//package:target`` and ``@repo//…`` words are labels (their manuals)."""
_SOCAT_FILE = re.compile(r"^(?:OPEN|FILE|GOPEN|CREATE|CREAT):([^,]+)", re.IGNORECASE)
"""socat(1)'s file addresses: the path between the colon and the first option."""


_FILE_URI = re.compile(r"^file:(?://(?:localhost)?(?=/))?([^?#]+)")
"""A file URI or SQLite's URI filename (``file:data.db?mode=ro``, ``file:///x``: RFC 8089,
sqlite.org/uri.html): the path between the scheme and the query."""


def path_value(value: str) -> str:
    """The part of a word the path rules read.

    An option's or an assignment's value after its ``=`` (``--out=/x``, ``of=/x``; an option
    without one names no path: ``""``), a file URI's path (``file:///x``,
    ``file:db?mode=ro``), else the word itself.

    :param value: a word's value.
    :returns: the text to judge as a path (empty when there is none).
    """
    if value.startswith("-") or is_assignment(value):
        _, eq, tail = value.partition("=")
        value = tail if eq else ""
    uri = _FILE_URI.match(value)
    return uri.group(1) if uri is not None else value


def _candidates(word: Word) -> list[str]:
    value = path_value(word.value)
    return [value] if value else []


def _segment_paths(segment: Segment) -> list[str]:
    found: list[str] = []
    positions = set(segment.command_positions)
    program = program_words(segment) | resource_name_words(segment)
    for index, word in enumerate(segment.words):
        if word.dynamic or index in program:
            continue
        if index in positions and word.value.startswith("/"):
            continue
        if segment.command in _LABEL_TOOLS and word.value.startswith(("//", "@")):
            continue  # bazel test //src/...:all: a build label, not a path
        if segment.command in _GLUED_OUTPUT and word.value.startswith(("-o", "-w")):
            found.append(word.value[2:])  # 7z x a.7z -o/DIR: the switch's value is glued
            continue
        address = _SOCAT_FILE.match(word.value) if segment.command == "socat" else None
        if address is not None:  # socat OPEN:~/.netrc,rdonly STDOUT: a file address
            found.append(address.group(1))
            continue
        found.extend(v for v in _candidates(word) if is_path_like(v))
    return found


def path_arguments(analysis: CommandAnalysis) -> tuple[str, ...]:
    """List the static path-like words of every segment, then the write targets and sources.

    The write targets include the files named inside a word (``sed 'w FILE'``,
    ``sort -oFILE``), which are no path-like word of their own.

    :param analysis: a command analysis.
    :returns: deduplicated paths in source order (resolution is the sandbox's job).
    """
    found: list[str] = []
    for segment in analysis.segments:
        found.extend(_segment_paths(segment))
    found.extend(analysis.write_targets)
    found.extend(analysis.redirect_targets)
    found.extend(analysis.input_sources)
    return tuple(dict.fromkeys(found))


def _operands(args: Sequence[Word], option_args: frozenset[str]) -> list[Word]:
    operands: list[Word] = []
    index, options_done = 0, False
    while index < len(args):
        word = args[index]
        value = word.value
        if options_done or not value.startswith("-") or value == "-":
            operands.append(word)
        elif value == "--":
            options_done = True
        elif value in option_args:
            index += 1
        elif value in ("-t", "--target-directory") and index + 1 < len(args):
            operands.append(args[index + 1])
            index += 1
        elif value.startswith("--target-directory="):
            operands.append(Word(value.partition("=")[2], value))
        index += 1
    return operands


def _option_outputs(args: Sequence[Word], options: frozenset[str], *,
                    bundles: bool) -> list[Word]:
    """The values of ``options``: ``-o F``, ``--output=F``, ``-oF``, ``-sSLo F`` (``bundles``)."""
    found: list[Word] = []
    for index, word in enumerate(args):
        value = word.value
        following = args[index + 1] if index + 1 < len(args) else None
        name, eq, tail = value.partition("=")
        if value in options:
            if following is not None:
                found.append(following)
        elif eq and name in options and name.startswith("--"):
            found.append(Word(tail, word.source, word.dynamic))
        elif value.startswith("-") and not value.startswith("--") and len(value) > 2:
            if value[:2] in options:  # the value glued on (gcc -oapp)
                found.append(Word(value[2:], word.source, word.dynamic))
            elif (bundles and value[1:].isalpha() and f"-{value[-1]}" in options
                  and following is not None):
                found.append(following)  # the last of bundled letters (curl -sSLo F)
    return found


def _sed_in_place(word: Word) -> bool:
    value = word.value
    if value.startswith("--"):
        return value.startswith("--in-place")
    if not value.startswith("-"):
        return False
    for letter in value[1:]:
        if letter == "i":
            return True
        if letter in "efl":
            return False
    return False


_SED_ADDRESS = r"(?:\d+|\$|/(?:\\.|[^/\n])*/)"
_SED_WRITES = re.compile(
    # the w/W command after an optional address or range, and the w flag of s///
    rf"(?:^|[;\n{{}}])\s*(?:{_SED_ADDRESS}(?:\s*,\s*{_SED_ADDRESS})?)?\s*!?\s*[wW][ \t]*"
    r"([^\n]+)"
    r"|s(.)(?:\\.|(?!\2).)*\2(?:\\.|(?!\2).)*\2[gpiImMeE0-9]*w[ \t]*([^\n]+)")
"""A sed script's writes: the file name runs to the end of the line (sed(1), "w filename")."""
_SED_STANDARD = frozenset({"/dev/stdout", "/dev/stderr"})


def _sed_written(args: Sequence[Word]) -> list[Word]:
    """The files a sed script writes with ``w FILE`` and ``s///w FILE``."""
    scripts = [b for a, b in itertools.pairwise(args)
               if a.value in ("-e", "--expression")]
    scripts += [Word(w.value.partition("=")[2], w.source) for w in args
                if w.value.startswith("--expression=")]
    if not scripts and not any(w.value in ("-f", "--file") or w.value.startswith("--file=")
                               for w in args):
        scripts = _operands(args, frozenset({"-l", "--line-length"}))[:1]
    found = []
    for script in scripts:
        for match in _SED_WRITES.finditer(script.value):
            name = (match.group(1) or match.group(3) or "").strip()
            if name and name not in _SED_STANDARD:
                found.append(Word(name, script.source, script.dynamic))
    return found


def _sed_targets(args: Sequence[Word]) -> list[Word]:
    written = _sed_written(args)
    if not any(_sed_in_place(w) for w in args):
        return written
    script_options = frozenset({"-e", "-f", "--expression", "--file"})
    operands = _operands(args, script_options | {"-l", "--line-length"})
    has_script_option = any(w.value in script_options for w in args)
    return (operands if has_script_option else operands[1:]) + written


def _segment_targets(segment: Segment) -> tuple[list[Word], bool]:
    if not segment.command_positions:
        return [], False
    command = segment.command
    args = segment.words[segment.command_positions[-1] + 1 :]
    if command in _OPTION_ARGS:
        operands = _operands(args, _OPTION_ARGS[command])
        if command in _FIRST_IS_NOT_TARGET and not any(
            w.value.startswith("--reference") for w in args
        ):
            operands = operands[1:]
        return operands, True
    if command == "dd":
        outputs = [Word(w.value[3:], w.source) for w in args if w.value.startswith("of=")]
        return outputs, bool(outputs)
    if command == "sed":
        targets = _sed_targets(args)
        return targets, bool(targets)
    output_options = _OUTPUT_OPTIONS.get(command)
    if output_options is not None:
        written = [w for w in _option_outputs(args, output_options,
                                              bundles=command in _BUNDLING)
                   if w.value not in ("-", "/dev/stdout", "/dev/stderr")
                   and not w.value.startswith(("|", "!"))]  # strace -o '|cmd' pipes
        if written or command not in _IMPLICIT_HEADS:
            return written, bool(written)
    if command not in _IMPLICIT_HEADS:
        return [], False
    argv = segment.argv
    implicit = any(argv[: len(prefix)] == prefix for prefix in _IMPLICIT_WRITERS)
    return [], implicit


def dynamic_targets(analysis: CommandAnalysis) -> list[Word]:
    """Write operands only known at run time (``mkdir -p "$d"``, ``touch "$(name)"``).

    :param analysis: a command analysis.
    :returns: the dynamic operands of file-changing commands, in order.
    """
    found: list[Word] = []
    for segment in analysis.segments:
        words, _ = _segment_targets(segment)
        found.extend(w for w in words if w.dynamic)
    return found


def write_analysis(
    segments: Sequence[Segment], redirect_targets: Sequence[str]
) -> tuple[tuple[str, ...], bool]:
    """Compute write targets and whether the command writes at all.

    :param segments: the analysed segments.
    :param redirect_targets: static targets of writing redirections.
    :returns: ``(targets, writes)``: deduplicated static targets in source order, and true when a
        redirection or a file-changing command is present.
    """
    targets: list[str] = []
    writes = bool(redirect_targets)
    for segment in segments:
        words, is_writer = _segment_targets(segment)
        writes = writes or is_writer
        targets.extend(w.value for w in words if not w.dynamic and w.value)
    targets.extend(redirect_targets)
    return tuple(dict.fromkeys(targets)), writes
