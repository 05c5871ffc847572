"""Commands that carry other code: shells, ``eval``, ``source``, ``trap``, ``find -exec``.

Each carrier returns the nested code to analyse (parsed recursively) or an opaque reason when
the code only exists at run time.

| command             | nested code parsed                   | opaque when                        |
| ------------------- | ------------------------------------ | ---------------------------------- |
| shells (1)          | ``-c`` script; here-string, heredoc  | code not static; piped in (2)      |
| interpreters (3)    | —                                    | a program is piped in (2), or is a |
|                     |                                      | process substitution               |
| eval                | arguments joined by spaces           | an argument dynamic or globbed     |
| source, ``.``       | —                                    | file not static, or stdin piped in |
| trap                | the action                           | action not static                  |
| watch               | the remaining words                  | a word not static                  |
| su, script          | ``-c``/``--command`` argument        | argument not static                |
| alias               | each ``name=value`` value            | value not static                   |
| find                | each ``-exec … ;`` (also -execdir, -ok, -okdir) | ``{}`` run-time (4) |
| hash                | —                                    | ``-p`` rebinds a command name      |

1. bash sh zsh dash ksh fish csh tcsh mksh ash. A shell with a static script file argument
   reads that file (not analysed, like any program); a dynamic one is opaque.
2. ``curl … | sh``, ``base64 -d <<< … | bash``: the code is another command's output.
   Every carrier that runs code only known at run time is also named in
   :attr:`.CommandAnalysis.runtime_code` (the download-then-run rule reads it).
3. python, perl, ruby, node, nodejs, php, lua, m4, dc, tclsh, expect, cpan, the REPLs that
   evaluate a pipe (``irb``, ``iex``, ``ipython``) (and versioned names such as
   ``python3.12``), when run without a program argument or inline code (GTFOBins'
   ``echo 'esyscmd(…)' | m4``, ``curl … | iex``).
4. ``{}`` stands for a path ``find`` found under its start directories: when every start is a
   static relative directory without ``..`` and no ``-L``/``-follow`` leads out of the tree,
   ``{}`` is judged as a path under the start, named by the one ``-name`` test when there
   is one (``find . -name .env -exec cat {} +`` reads ``./.env``; ``find . -exec rm {} +``
   removes ``./{}``, inside the project); otherwise, and as the command word, it is only
   known at run time.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

import attrs

from tooldeck.shell_analysis.git_options import GIT_VALUE_OPTIONS
from tooldeck.shell_analysis.interpreters import POWERSHELL_COMMAND, POWERSHELLS, STDIN_CODE
from tooldeck.shell_analysis.model import Word, command_name

__all__ = ["NOTHING", "SHELLS", "STDIN_PROGRAMS", "TERMINALS", "Nested", "Stdin",
           "effective_shell_command", "find_output", "nested_code", "stdin_program"]

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "mksh", "ash",
                    # the other POSIX and Bourne-like shells Debian ships (GTFOBins lists
                    # elvish and yash as shells too): their -c code reads as sh's
                    "rbash", "yash", "posh", "oksh", "loksh", "pdksh", "ksh93", "elvish"})
"""Command names treated as shells (``-c`` scripts and stdin scripts are parsed)."""

_OTHER_STDIN_READERS = frozenset({"m4", "dc", "expect", "cpan"})
_STDIN_PATHS = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_SHELL_LONG_WITH_ARG = frozenset({"--rcfile", "--init-file"})
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_CODE_FLAGS = frozenset({"--eval", "--print", "--command"})


@attrs.frozen
class Stdin:
    """What a command reads on standard input.

    :param kind: ``inherited``, ``pipe``, ``here-string``, ``heredoc`` or ``file``.
    :param text: the literal text of a here-string or heredoc.
    :param dynamic: true when that text (or the redirected file name) is only known at run time.
    :param piped_text: for ``pipe``, the literal text ``echo`` pipes in (``echo ARGS | xargs
        CMD``), when the feeding command is one with static words; else empty.
    """

    kind: str = "inherited"
    text: str = ""
    dynamic: bool = False
    piped_text: str = ""


@attrs.define
class Nested:
    """Nested code found in one command.

    :param scripts: ``(script, origin)`` pairs to parse as shell code.
    :param commands: ``(words, origin)`` pairs that are commands on their own (``find -exec``).
    :param reasons: opaque reasons.
    :param runtime: the commands that run code only known at run time (another command's
        output, a process substitution, a word built at run time): ``curl … | sh``.
    """

    scripts: list[tuple[str, str]] = attrs.Factory(list)
    commands: list[tuple[list[Word], str]] = attrs.Factory(list)
    reasons: list[str] = attrs.Factory(list)
    runtime: list[str] = attrs.Factory(list)

    def script(self, word: Word, origin: str) -> None:
        """Queue a word as nested shell code, or record why it cannot be read.

        :param word: the word holding the code.
        :param origin: the origin label for the nested segments.
        """
        if word.stable:
            self.scripts.append((word.value, origin))
        else:
            self.reasons.append(f"{origin}: code {word.source!r} is not static")
            self.runtime.append(origin)

    def unseen(self, name: str, reason: str) -> None:
        """Record code that only exists at run time: an opaque reason and who runs it.

        :param name: the command that runs the code.
        :param reason: why the code cannot be read.
        """
        self.reasons.append(reason)
        self.runtime.append(name)


def _stdin_code(name: str, stdin: Stdin, found: Nested, *, parse: bool) -> None:
    if stdin.kind == "pipe":
        found.unseen(name, f"output of another command is piped into {name} as code")
    elif stdin.dynamic:
        found.unseen(name, f"{stdin.kind} fed to {name} is not static")
    elif parse and stdin.kind in ("here-string", "heredoc"):
        found.scripts.append((stdin.text, stdin.kind))


def _shell(name: str, args: Sequence[Word], stdin: Stdin, input_args: bool, found: Nested) -> None:
    index, command_mode, stdin_mode = 0, False, False
    while index < len(args):
        word = args[index]
        value = word.value
        if not word.stable and value[:1] in ("-", "+"):
            found.reasons.append(f"{name}: option {word.source!r} is not static")
            return
        if value in ("--", "-"):
            index += 1
            stdin_mode = stdin_mode or value == "-"
            break
        if value.startswith("--"):
            index += 2 if value in _SHELL_LONG_WITH_ARG else 1
            continue
        if len(value) < 2 or value[0] not in "-+":
            break
        letters = value[1:]
        command_mode = command_mode or "c" in letters
        stdin_mode = stdin_mode or "s" in letters
        index += 2 if ("o" in letters or "O" in letters) else 1
    positional = args[index] if index < len(args) else None
    if command_mode:
        if positional is not None:
            found.script(positional, "shell -c")
        elif input_args:  # xargs sh -c: xargs appends its input, which becomes the script
            found.unseen(name, f"{name} -c runs the script xargs reads on its input")
        return
    if positional is not None and not stdin_mode and positional.value not in _STDIN_PATHS:
        if not positional.stable:
            found.unseen(name, f"{name}: script file {positional.source!r} is not static")
        return
    if positional is None and input_args:
        found.reasons.append(f"{name}: script names come from xargs input")
        return
    _stdin_code(name, stdin, found, parse=True)


def _interpreter(name: str, args: Sequence[Word], stdin: Stdin, found: Nested) -> None:
    for word in args:
        value = word.value
        if value in _CODE_FLAGS or (
            value.startswith("-") and not value.startswith("--") and value[-1:] in "cmeEpr"
        ):
            return
        if value in _STDIN_PATHS:  # python3 -, python3 /dev/stdin: the program is the input
            break
        if value == "run" and name in _STDIN_RUNNERS:
            continue  # deno run -: the program is the next word
        if word.source.startswith(("<(", "\"<(")):
            found.unseen(name, f"{name} runs the output of {word.source!r} as its program")
            return
        if not value.startswith("-"):
            return
    _stdin_code(name, stdin, found, parse=False)


_EDITOR_SHELL = re.compile(r"^[0-9.,$;'a-z+-]*(?:[wWrEe]q?\s*)?!(.*)$")
_EDITOR_WRITE = re.compile(r"^[0-9.,$;'a-z+-]*(?:w|W|wq)\s+([^!\s].*?)\s*$")
_EDITOR_INSERT = re.compile(r"^[0-9.,$;'+-]*[aic]$")


def _editor_script(name: str, stdin: Stdin, found: Nested) -> None:
    """Judge the script ed(1) or ex(1) reads on standard input.

    ``!cmd`` (also ``r !cmd``, ``w !cmd``) runs a shell command, ``w FILE`` writes FILE; text
    after ``a``/``i``/``c`` up to a lone ``.`` is data.
    """
    if stdin.kind == "pipe" or stdin.dynamic:
        _stdin_code(name, stdin, found, parse=False)
        return
    if stdin.kind not in ("here-string", "heredoc"):
        return
    inserting = False
    for raw in stdin.text.splitlines():
        line = raw.strip().lstrip(":")
        if inserting:
            inserting = line != "."
            continue
        if _EDITOR_INSERT.match(line):
            inserting = True
        elif shell := _EDITOR_SHELL.match(line):
            found.scripts.append((shell.group(1), f"{name} !"))
        elif write := _EDITOR_WRITE.match(line):
            target = write.group(1)
            found.commands.append(([Word("tee", "tee"), Word(target, target)], f"{name} w"))


_EDITORS = frozenset({"ed", "ex"})

_SQLITE_VALUED = frozenset({"-cmd", "-separator", "-newline", "-nullvalue", "-init", "-vfs",
                            "-mmap", "-pagecache", "-lookaside", "-maxsize", "-heap",
                            "-escape", "-A", "-archive"})
_SQLITE_WRITES = frozenset({".output", ".once", ".log", ".save", ".backup", ".excel"})
_SQLITE_READS = frozenset({".read", ".import"})
_SQLITE_SHELLS = frozenset({".shell", ".system"})


def _sqlite_script(args: Sequence[Word], stdin: Stdin, found: Nested) -> None:
    """Judge sqlite3(1)'s dot-commands in ``-cmd``, its SQL operands and a literal input.

    ``.shell``/``.system CMD`` and ``.once|.output |CMD`` run CMD, ``.output|.once|.log|
    .save|.backup FILE`` write FILE, ``.read|.import FILE`` read it, ``.load LIB`` loads
    native code (unseen: opaque).
    """
    texts: list[str] = []
    operands = 0
    index = 0
    while index < len(args):
        value = args[index].value
        if value in _SQLITE_VALUED and index + 1 < len(args):
            if value == "-cmd":
                texts.append(args[index + 1].value)
            index += 2
            continue
        if not value.startswith("-"):
            operands += 1
            if operands > 1:  # the first operand is the database
                texts.append(value)
        index += 1
    if stdin.kind in ("here-string", "heredoc") and not stdin.dynamic:
        texts.append(stdin.text)
    for line in (raw.strip() for text in texts for raw in text.splitlines()):
        verb, _, rest = line.partition(" ")
        rest = rest.strip()
        target = rest.split()[-1] if rest.split() else ""
        if verb in _SQLITE_SHELLS and rest:
            found.scripts.append((rest, f"sqlite3 {verb}"))
        elif verb in (".output", ".once") and target.startswith("|"):
            found.scripts.append((rest.lstrip("|"), f"sqlite3 {verb}"))
        elif verb in _SQLITE_WRITES and target and not target.startswith("-"):
            found.commands.append(([Word("tee", "tee"), Word(target, target)],
                                   f"sqlite3 {verb}"))
        elif verb in _SQLITE_READS and rest and not rest.startswith(("-", "|")):
            source = rest.split()[0]
            found.commands.append(([Word("cat", "cat"), Word(source, source)],
                                   f"sqlite3 {verb}"))
        elif verb == ".load" and rest:
            found.reasons.append(f"sqlite3 .load runs native code from {rest.split()[0]!r}")


def _eval(args: Sequence[Word], found: Nested) -> None:
    if args and args[0].value == "--":
        args = args[1:]
    unstable = [w.source for w in args if not w.stable]
    if unstable:
        found.unseen("eval", f"eval: argument {unstable[0]!r} is not static")
    elif args:
        found.scripts.append((" ".join(w.value for w in args), "eval"))


def _source(args: Sequence[Word], stdin: Stdin, found: Nested) -> None:
    if not args:
        return
    target = args[1] if args[0].value == "--" and len(args) > 1 else args[0]
    if not target.stable:
        found.unseen("source", f"source: file {target.source!r} is not static")
    elif target.value in _STDIN_PATHS:
        _stdin_code("source", stdin, found, parse=True)


def _trap(args: Sequence[Word], found: Nested) -> None:
    rest = [w for w in args if w.value not in ("--", "-p", "-l", "-lp", "-pl")]
    if rest and rest[0].value not in ("", "-"):
        found.script(rest[0], "trap")


def _joined_script(words: Sequence[Word], found: Nested, label: str) -> None:
    """Queue ``words`` joined by spaces as one script (dynamic when any word is).

    A program that hands its command words to ``sh -c`` runs them this way.
    """
    joined = Word(" ".join(w.value for w in words), " ".join(w.source for w in words))
    found.script(attrs.evolve(joined, dynamic=any(not w.stable for w in words)), label)


def _watch(args: Sequence[Word], found: Nested) -> None:
    index = 0
    while index < len(args) and args[index].value.startswith("-"):
        value = args[index].value
        index += 2 if value in ("-n", "--interval", "-q", "--equexit") else 1
    rest = args[index:]
    if rest:
        _joined_script(rest, found, "watch")


TERMINALS = frozenset({
    "xterm", "uxterm", "xterm-256color", "urxvt", "rxvt", "rxvt-unicode", "st", "kitty",
    "alacritty", "konsole", "gnome-terminal", "xfce4-terminal", "mate-terminal", "lxterminal",
    "terminator", "tilix", "foot", "footclient", "wezterm", "x-terminal-emulator",
    "terminology", "sakura", "qterminal", "cool-retro-term", "eterm", "ghostty", "kgx",
    "ptyxis", "rio", "contour",
})
"""Terminal emulators: each opens a window running the command it is given (their manuals:
``-e``/``-x``/``--command``, or the words after ``--``; kitty, foot and wezterm's ``start``
take the trailing words)."""
_TERMINAL_COMMAND = frozenset({"-e", "-x", "--execute", "--command", "--"})
"""The options after which a terminal's remaining words are its command (``-c`` is not one:
st's and foot's ``-c`` name a class or a configuration file)."""


def _terminal(args: Sequence[Word], found: Nested) -> None:
    """Queue the command a terminal emulator is told to run, its words joined as shell code.

    ``xterm -e sudo id`` and ``xfce4-terminal -e 'sudo id'`` both run ``sudo id``; the words
    are joined because several terminals read one ``-e`` word as a command line.
    """
    for index, word in enumerate(args):
        name, eq, tail = word.value.partition("=")
        if eq and name in ("--command", "--execute"):
            rest = [attrs.evolve(word, value=tail), *args[index + 1 :]]
        elif word.value in _TERMINAL_COMMAND:
            rest = list(args[index + 1 :])
        else:
            continue
        if rest:
            _joined_script(rest, found, "terminal")
        return


_CONCURRENTLY_VALUES = frozenset({
    "-n", "--names", "-c", "--prefix-colors", "-p", "--prefix", "-l", "--prefix-length",
    "-t", "--timestamp-format", "--restart-tries", "--restart-after", "-s", "--success",
    "-m", "--max-processes", "--name-separator", "--default-input-target", "--pad-prefix",
})
"""concurrently(1)'s options that take a value that is not a command (its ``--help``)."""


def _concurrently(args: Sequence[Word], found: Nested) -> None:
    """Queue each command ``concurrently "cmd one" "cmd two"`` runs through the shell.

    Every word that is neither an option nor an option's value is a command, and so is the
    value of ``--teardown`` (run once the others end).
    """
    index = 0
    while index < len(args):
        word = args[index]
        name, eq, tail = word.value.partition("=")
        if name == "--teardown":
            value = attrs.evolve(word, value=tail) if eq else (
                args[index + 1] if index + 1 < len(args) else None)
            if value is not None:
                found.script(value, "concurrently --teardown")
            index += 1 if eq else 2
        elif word.value.startswith("-"):
            index += 2 if word.value in _CONCURRENTLY_VALUES else 1
        else:
            found.script(word, "concurrently")
            index += 1


def _dash_c(name: str, args: Sequence[Word], found: Nested) -> None:
    for index, word in enumerate(args):
        value = word.value
        if value.startswith("--command="):
            found.script(attrs.evolve(word, value=value.partition("=")[2]), f"{name} -c")
        elif value in ("-c", "--command", "--session-command") and index + 1 < len(args):
            found.script(args[index + 1], f"{name} -c")


def _powershell_command(name: str, args: Sequence[Word], found: Nested) -> None:
    """Queue ``pwsh -c 'cmd args'``'s command line as nested shell code.

    A PowerShell command line runs its words as commands, as a shell's does: read as nested
    shell code, every gate sees what it runs.
    """
    for option, value in itertools.pairwise(args):
        if option.value.lower() in POWERSHELL_COMMAND:
            found.script(value, f"{name} -c")
            return


def _alias(args: Sequence[Word], found: Nested) -> None:
    for word in args:
        name, eq, value = word.value.partition("=")
        if eq and name:
            found.script(attrs.evolve(word, value=value), "alias")


STDIN_PROGRAMS: dict[str, str] = {
    "python": "-c", "perl": "-e", "ruby": "-e", "node": "-e", "nodejs": "-e", "bun": "-e",
    "php": "-r", "lua": "-e", "luajit": "-e", "rscript": "-e", "r": "-e", "julia": "-e",
    "guile": "-c", "pwsh": "-c", "powershell": "-c", "osascript": "-e", "jrunscript": "-e",
    "clisp": "-x", "ghci": "-e", "octave": "--eval", "octave-cli": "--eval", "gnuplot": "-e",
    "slsh": "-e", "scala": "-e", "erl": "-eval", "raku": "-e", "perl6": "-e", "rakudo": "-e",
    "racket": "-e", "sbcl": "--eval", "bb": "-e", "qjs": "-e", "rhino": "-e", "xonsh": "-c",
    "clojure": "-e", "swipl": "-g", "gst": "-e", "deno": "eval",
    "tclsh": STDIN_CODE, "jjs": STDIN_CODE, "jshell": STDIN_CODE, "wish": STDIN_CODE,
    "pypy": "-c", "jython": "-c", "micropython": "-c", "graalpy": "-c", "ipython": "-c",
    "iex": "-e", "irb": STDIN_CODE,
}
"""Interpreters that run a program read from standard input (their manuals: with no program
file, with ``-``, or as a REPL fed a non-terminal), and the option that gives the same program
on the command line (``python3 - <<'EOF' … EOF`` is ``python3 -c …``); an interpreter without
such an option gets :data:`.interpreters.STDIN_CODE` (``tclsh``, ``jjs``, ``jshell``). These
are every interpreter of :data:`.interpreters.INTERPRETER_CODE_OPTIONS` that reads one."""

_STDIN_SCRIPTS: dict[str, str] = {"dc": "-e", "m4": STDIN_CODE}
"""Programs that are no interpreters but run shell commands from the script they read on
standard input (dc(1)'s ``!cmd``, m4(1)'s ``syscmd``/``esyscmd``): judged as their code
option (:mod:`.launchers`) would be."""

_STDIN_RUNNERS = frozenset({"deno", "bun"})
"""Interpreters whose ``run -`` reads the program on standard input (``deno run -``)."""

_INTERPRETERS = STDIN_PROGRAMS.keys() | _OTHER_STDIN_READERS


def stdin_program(argv: Sequence[Word], stdin: Stdin) -> list[Word] | None:
    """The one-liner an interpreter fed a literal program on standard input amounts to.

    :param argv: the final command's words (command word first).
    :param stdin: what the command reads on standard input.
    :returns: ``[interpreter, option, program]`` for a static here-string or heredoc given
        to an interpreter without a program file (``python3 -``), else ``None``.
    """
    if stdin.kind not in ("here-string", "heredoc") or stdin.dynamic or not argv:
        return None
    full = command_name(argv[0].value)
    name = full.rstrip("0123456789.-").lower()
    option = STDIN_PROGRAMS.get(name) or _STDIN_SCRIPTS.get(full)  # m4 keeps its digit
    operands = [w.value for w in argv[1:] if not w.value.startswith("-")]
    if option is None or (operands and not (name in _STDIN_RUNNERS and operands == ["run"])):
        return None
    return [argv[0], Word(option, option), Word(stdin.text, stdin.text)]


def _find_start(args: Sequence[Word], *, outside: bool = False) -> str | None:
    """The directory every file ``find`` visits lies under, when the tree cannot leave it.

    ``find . src -name x``: ``.``. None when a start is built at run time, absolute or in the
    home directory (unless ``outside``), climbs with ``..``, and when ``-L``/``-follow``
    follows symbolic links out of the tree.
    """
    starts: list[str] = []
    for word in args:
        value = word.value
        if value in ("-L", "-H", "-P") and not starts:
            if value == "-L":
                return None
            continue
        if value.startswith(("-", "(", "!")):
            break
        if not word.stable or (value.startswith(("/", "~")) and not outside) or (
                ".." in value.split("/")):
            return None
        starts.append(value)
    if not starts or any(w.value == "-follow" for w in args):
        return None
    return "." if len(starts) > 1 else starts[0].rstrip("/") or "."


def find_output(words: Sequence[Word]) -> str:
    """The path ``find START -name NAME`` prints, as a word (empty for anything else).

    ``find . -name .env | xargs cat`` reads ``./.env`` as ``find . -name .env -exec cat {}
    +`` does: the same start and name rules (:func:`_find_start`, :func:`_found_name`). A
    start outside the project counts too, and without one ``-name`` the names are any
    file under it: ``find /var/log -type f | xargs mv -t logs/`` moves ``/var/log/*``, a
    change outside the roots the path rules judge as such (a read there stays a read).

    :param words: the feeding command's words (command word first).
    :returns: ``START/NAME`` (``NAME`` may be a glob), or ``""``.
    """
    if not words or command_name(words[0].value) != "find" or not all(w.stable for w in words):
        return ""
    start, (name, _) = _find_start(words[1:], outside=True), _found_name(words[1:])
    if start is not None and start.startswith(("/", "~")):
        return f"{start.rstrip('/')}/{'*' if name == '{}' else name}"
    return "" if start is None or name == "{}" else f"{start}/{name}"


def _found_name(args: Sequence[Word]) -> tuple[str, bool]:
    """What ``{}`` names: the one ``-name``/``-iname`` test's pattern, else ``{}``.

    ``find . -name .env -exec cat {} +`` reads ``./.env``; ``-name '*.pem'`` reads
    ``./*.pem``, a glob (the second value says so).
    """
    names = [b.value for a, b in itertools.pairwise(args)
             if a.value in ("-name", "-iname") and b.stable]
    if len(names) != 1 or "/" in names[0]:
        return "{}", False
    return names[0], any(c in names[0] for c in "*?[")


_FOUND_OPERANDS = frozenset({
    "rm", "rmdir", "unlink", "shred", "chmod", "chown", "chgrp", "touch", "cp", "mv",
    "sed", "cat", "grep", "egrep", "fgrep", "rg", "head", "tail", "wc", "ls", "stat", "file",
    "du", "md5sum", "sha1sum", "sha256sum", "sha512sum", "dos2unix", "gzip", "gunzip", "xz",
    "basename", "dirname", "realpath", "readlink", "sort", "diff", "cmp", "black", "ruff",
    "isort", "prettier", "clang-format", "gofmt", "rustfmt", "truncate", "jq",
})
"""Commands that take what ``find`` found as a file to read or change, never as code to run
(``find . -exec bash {} +`` runs each file found, ``-exec ln -s {} d`` makes links the link
rules cannot see: that ``{}`` stays run-time)."""


def _placeholder(word: Word, start: str | None, name: tuple[str, bool]) -> Word:
    """``{}`` stands for a path found under ``start``: judged as one (else run-time)."""
    if start is None or not word.value.startswith("{}"):
        return attrs.evolve(word, dynamic=True)
    found, globbed = name
    return attrs.evolve(word, value=f"{start}/{found}{word.value[2:]}", globbed=globbed)


def _find(args: Sequence[Word], found: Nested) -> None:
    start, name = _find_start(args), _found_name(args)
    current: list[Word] | None = None
    for word in args:
        if current is None:
            if word.value in _FIND_EXEC:
                current = []
            continue
        if word.value in (";", "+"):
            if current:
                found.commands.append((current, "find -exec"))
            current = None
        elif "{}" in word.value:  # as code run (the command word, bash {}): run time
            operand = bool(current) and command_name(current[0].value) in _FOUND_OPERANDS
            current.append(_placeholder(word, start if operand else None, name))
        else:
            current.append(word)
    if current:
        found.commands.append((current, "find -exec"))


def _hash(args: Sequence[Word], found: Nested) -> None:
    if any(w.value.startswith("-") and "p" in w.value for w in args):
        found.reasons.append("hash -p rebinds a command name to an arbitrary file")


_GIT_RUNS = {("submodule", "foreach"), ("bisect", "run")}
_GIT_COMMAND_OPTIONS: dict[str, frozenset[str]] = {
    # options whose value git runs through the shell (each subcommand's manual; GTFOArgs'
    # git page): the program run on the other end of a transport, an external diff tool,
    # the pager a match list opens in, the command run after each rebased commit
    "rebase": frozenset({"-x", "--exec"}),
    "clone": frozenset({"-u", "--upload-pack"}),
    "ls-remote": frozenset({"-u", "--upload-pack"}),
    "fetch": frozenset({"--upload-pack"}), "pull": frozenset({"--upload-pack"}),
    "fetch-pack": frozenset({"--upload-pack", "--exec"}),
    "push": frozenset({"--receive-pack", "--exec"}),
    "send-pack": frozenset({"--receive-pack", "--exec"}),
    "archive": frozenset({"--exec"}),
    "difftool": frozenset({"-x", "--extcmd"}),
    "grep": frozenset({"-O", "--open-files-in-pager"}),
}
_GIT_GLUED_ONLY = frozenset({"-O", "--open-files-in-pager"})
"""Options whose value is optional, so only a glued one is theirs (``git grep -O TODO``
searches for TODO in the default pager)."""
_GIT_RUNNER_WORDS = frozenset({"submodule", "bisect", *_GIT_COMMAND_OPTIONS})


def _git(args: Sequence[Word], found: Nested) -> None:
    """Find the commands git itself runs (git-submodule(1), git-bisect(1), git-rebase(1)).

    ``submodule foreach CMD`` and ``bisect run CMD`` run CMD (through the shell), and so does
    the value of each option :data:`_GIT_COMMAND_OPTIONS` names (``rebase --exec CMD``,
    ``clone --upload-pack=CMD``, ``difftool -x CMD``, ``grep -OCMD``).
    """
    index = 0
    while index < len(args) and args[index].value.startswith("-"):
        index += 2 if args[index].value in GIT_VALUE_OPTIONS else 1
    rest = args[index:]
    words = [w.value for w in rest[:2]]
    if len(words) == 2 and words[0] in ("submodule", "bisect"):
        tail = [w for w in rest[1:] if w.value not in ("--quiet", "-q", "--recursive")]
        if (words[0], words[1]) in _GIT_RUNS and len(tail) > 1:
            _joined_script(tail[1:], found, f"git {words[0]} {words[1]}")
    elif words[:1] and words[0] in _GIT_COMMAND_OPTIONS:
        _git_command_options(words[0], rest[1:], found)


def _git_command_options(sub: str, args: Sequence[Word], found: Nested) -> None:
    """Each value of a git option that runs a command, as the script it is."""
    options = _GIT_COMMAND_OPTIONS[sub]
    label = f"git {sub}"
    for index, word in enumerate(args):
        value = word.value
        name, eq, tail = value.partition("=")
        if value in options and value not in _GIT_GLUED_ONLY and index + 1 < len(args):
            found.script(args[index + 1], label)
        elif eq and name in options and name.startswith("--"):
            found.script(attrs.evolve(word, value=tail), label)
        elif len(value) > 2 and not value.startswith("--") and value[:2] in options:
            found.script(attrs.evolve(word, value=value[2:]), label)  # -O'less -R'


_SIMPLE: dict[str, Callable[[Sequence[Word], Nested], None]] = {
    "eval": _eval,
    "trap": _trap,
    "watch": _watch,
    "alias": _alias,
    "find": _find,
    "hash": _hash,
    "concurrently": _concurrently,
    **dict.fromkeys(TERMINALS, _terminal),
}


def nested_code(argv: Sequence[Word], stdin: Stdin, *, input_args: bool) -> Nested:
    """Find the code a command carries, or why it is opaque.

    :param argv: the final command's words (command word first).
    :param stdin: what the command reads on standard input.
    :param input_args: whether xargs appends its input to the arguments.
    :returns: nested scripts, sub-commands and opaque reasons.
    """
    if not argv:
        return Nested()
    name = command_name(argv[0].value)
    if name == "git":  # most git commands run nothing: only its runners are looked into
        if not any(w.value in _GIT_RUNNER_WORDS for w in argv[1:]):
            return NOTHING
        found = Nested()
        _git(argv[1:], found)
        return found
    base = name if name in _INTERPRETERS else name.rstrip("0123456789.-").lower()  # m4
    if name not in _CARRIERS and base not in _INTERPRETERS:
        return NOTHING
    found = Nested()
    args = argv[1:]
    if name in SHELLS:
        _shell(name, args, stdin, input_args, found)
    elif name in _EDITORS:
        _editor_script(name, stdin, found)
    elif name == "sqlite3":
        _sqlite_script(args, stdin, found)
    elif base in _INTERPRETERS and (
            stdin.kind == "pipe" or stdin.dynamic or any(
                w.source.startswith(("<(", "\"<(")) for w in args)):
        _interpreter(name, args, stdin, found)
    elif name in ("source", "."):
        _source(args, stdin, found)
    elif name in _AWK_NAMES:
        _awk_file(name, args, stdin, found)
    elif name in ("su", "script"):
        _dash_c(name, args, found)
    elif name == "parallel":
        _parallel(args, stdin, found)
    elif base in POWERSHELLS:
        _powershell_command(base, args, found)
    elif name in _SIMPLE:
        _SIMPLE[name](args, found)
    return found


_AWK_NAMES = frozenset({"awk", "gawk", "mawk", "nawk"})
_PARALLEL_INPUTS = frozenset({":::", "::::", ":::+", "::::+", "-a", "--arg-file", "--pipe",
                              "--pipepart", "--spreadstdin"})
"""GNU parallel's ways to take arguments or data other than commands on standard input."""
_PARALLEL_VALUES = frozenset({
    "-j", "--jobs", "-P", "--max-procs", "-S", "--sshlogin", "--sshloginfile", "--slf", "-n",
    "-N", "-L", "-l", "--max-args", "--max-lines", "-d", "--delimiter", "-E", "-I", "--colsep",
    "-C", "--delay", "--timeout", "--joblog", "--results", "--res", "--tmpdir", "--retries",
    "--memfree", "--load", "--tag-string", "--tagstring",
})
"""GNU parallel's options that take the next word as their value."""


def _parallel(args: Sequence[Word], stdin: Stdin, found: Nested) -> None:
    """``echo CMD | parallel``, ``parallel <<< CMD``: each input line is a command to run.

    GNU parallel(1) given no command and no ``:::``/``-a`` input reads the commands
    themselves on standard input, as a shell reading its script there does.
    """
    index = 0
    while index < len(args):
        value = args[index].value
        if value in _PARALLEL_INPUTS or not value.startswith("-"):
            return  # a command, or arguments from elsewhere: the launcher rules judge it
        index += 2 if value in _PARALLEL_VALUES else 1
    _stdin_code("parallel", stdin, found, parse=True)


def _awk_file(name: str, args: Sequence[Word], stdin: Stdin, found: Nested) -> None:
    """``awk -f -``, ``gawk -f /dev/stdin``: the program is what standard input carries."""
    for option, value in itertools.pairwise(args):
        if option.value in ("-f", "--file") and value.value in _STDIN_PATHS:
            _stdin_code(name, stdin, found, parse=False)
            return


_CARRIERS = (SHELLS | _EDITORS | {"sqlite3", "source", ".", "su", "script", "parallel"}
             | _SIMPLE.keys() | _AWK_NAMES | POWERSHELLS)
NOTHING = Nested()
"""What :func:`nested_code` returns for a command that carries no code (never modified)."""


def effective_shell_command(binary: str, args: Sequence[str]) -> str | None:
    """Return the script a shell would run with ``-c`` (Zeph's helper of the same name).

    :param binary: the program, e.g. ``/usr/bin/bash``.
    :param args: its arguments.
    :returns: the script after ``-c`` when ``binary`` is a shell, else ``None``.
    """
    if command_name(binary) not in SHELLS:
        return None
    found = Nested()
    _shell(command_name(binary), [Word(a, a) for a in args], Stdin(), False, found)
    return found.scripts[0][0] if found.scripts else None
