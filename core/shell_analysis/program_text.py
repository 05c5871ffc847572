"""Words that are program text or patterns, not paths: ``sed '/^#/d'`` names no file ``/^#/d``.

The path rules (:mod:`.paths`) look at every word that looks like a path; these words only
look like one:

| command                                | program text or pattern                             |
| -------------------------------------- | --------------------------------------------------- |
| ``sed``                                | ``-e``/``--expression`` values, else the first      |
|                                        | operand (``-f FILE`` names a script file: a path)   |
| ``awk``, ``gawk``, ``mawk``, ``nawk``  | ``-e``/``--source`` values, else the first operand  |
|                                        | (unless ``-f``); ``-v``/``-F`` values               |
| ``grep`` family, ``rg``, ``ag``, ``ack`` | ``-e``/``--regexp`` values, else the first operand |
| ``jq``, ``yq``, ``gojq``                | the first operand (unless ``-f``); ``--arg``/       |
|                                        | ``--argjson`` name and value                        |
| ``find``                               | ``-name``/``-path``/``-regex``/``-wholename`` and   |
|                                        | their ``-i`` forms                                  |
| ``git grep``; ``git log|blame|show``   | the grep's patterns; ``-L`` ranges, ``-G``/``-S``   |
|                                        | searches, ``--grep``/``--author`` values            |
| interpreters (``python -c``, ``perl -e``…) | the code (judged as code by :mod:`.interpreters`) |
| ``ssh``, ``autossh``                   | the remote command after the destination: it runs   |
|                                        | on the other host, its paths are that host's        |
| ``smbclient``                          | the ``//host/share`` service (the egress gate judges |
|                                        | the host) and the ``-c``/``--command`` script       |
| ``dconf read|list|dump|watch|write|    | the key or directory: a name in the settings         |
| reset|load``, ``gsettings``            | database (``/org/gnome/…``), not a file; their       |
|                                        | writes are judged by :mod:`.home_config`            |
| ``dscl``                               | its node and record paths (``/Users/dev``, macOS's |
|                                        | directory service); ``-f FILE`` stays a path; its   |
|                                        | writes are judged by :mod:`.macos_state`            |
| ``busctl tree|introspect|get-property| | D-Bus object paths (``/org/freedesktop/…``) and      |
| status|list``, ``gdbus introspect``,   | Xfce's property names (their manuals); a method     |
| ``xfconf-query -p`` (not setting)      | call or a property set is judged word by word       |
| ``launchctl``                          | its domain and service targets (``gui/501``,         |
|                                        | ``system/com.apple.x``: launchctl(1)); a plist given |
|                                        | to ``bootstrap`` or ``load`` stays a path; its       |
|                                        | verbs are judged by :mod:`.escalation`               |

The last five rows are *names* (:func:`name_words`): no word of theirs is a file or code,
so one built at run time (``dscl . -read /Users/$USER``, ``launchctl print gui/$(id -u)``)
is not a path built at run time either.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tooldeck.shell_analysis.interpreters import INTERPRETER_CODE_OPTIONS
from tooldeck.shell_analysis.model import Segment, Word

__all__ = ["grep_patterns", "name_words", "program_words"]

_SEDS = frozenset({"sed", "gsed"})
_AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})
_GREPS = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack"})
_JQS = frozenset({"jq", "yq", "gojq"})
_FIND_PATTERNS = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex",
                            "-wholename", "-iwholename", "-lname", "-ilname"})
# options whose value is the next word (the value is neither the program nor an operand)
_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "sed": frozenset({"-l", "--line-length", "-f", "--file"}),
    "awk": frozenset({"-f", "--file", "-v", "--assign", "-F", "--field-separator", "-i",
                      "--include", "-l", "--load"}),
    "grep": frozenset({"-A", "-B", "-C", "-m", "-f", "--file", "-d", "-D", "--exclude",
                       "--include", "--exclude-dir", "--label", "--color", "-g", "--glob",
                       "-t", "--type", "-T", "--type-not", "-j", "--threads", "-M",
                       "--max-columns", "--max-count", "--context", "--after-context",
                       "--before-context", "--ignore-dir"}),
    "jq": frozenset({"--indent", "-L", "-f", "--from-file"}),
}
_PROGRAM_OPTIONS: dict[str, frozenset[str]] = {
    "sed": frozenset({"-e", "--expression"}),
    "awk": frozenset({"-e", "--source"}),
    "grep": frozenset({"-e", "--regexp"}),
    "jq": frozenset(),
}
_PROGRAM_FILES: dict[str, frozenset[str]] = {
    "sed": frozenset({"-f", "--file"}), "awk": frozenset({"-f", "--file"}),
    "grep": frozenset({"-f", "--file"}), "jq": frozenset({"-f", "--from-file"}),
}
_JQ_PAIRS = frozenset({"--arg", "--argjson", "--slurpfile", "--rawfile"})


def _family(name: str) -> str | None:
    if name in _SEDS:
        return "sed"
    if name in _AWKS:
        return "awk"
    if name in _GREPS:
        return "grep"
    if name in _JQS:
        return "jq"
    return None


def _script_and_patterns(family: str, args: Sequence[Word], offset: int) -> set[int]:
    values = _VALUE_OPTIONS[family]
    programs = _PROGRAM_OPTIONS[family]
    found: set[int] = set()
    program_given = False
    first_operand: int | None = None
    index = 0
    while index < len(args):
        value = args[index].value
        name, equals, _ = value.partition("=")
        if value in programs and index + 1 < len(args):
            found.add(offset + index + 1)
            program_given = True
            index += 2
            continue
        if equals and name in programs:
            found.add(offset + index)
            program_given = True
        elif name in _PROGRAM_FILES[family]:
            program_given = True
        if family == "jq" and value in _JQ_PAIRS:
            found.add(offset + index + 1)  # the variable's name
            if value in ("--arg", "--argjson"):
                found.add(offset + index + 2)
            index += 3
            continue
        if family == "awk" and value in ("-v", "--assign") and index + 1 < len(args):
            found.add(offset + index + 1)
        if value in values and index + 1 < len(args):
            index += 2
            continue
        if value == "--":
            if first_operand is None and index + 1 < len(args):
                first_operand = index + 1
            break
        if first_operand is None and not value.startswith("-"):
            first_operand = index
        index += 1
    if not program_given and first_operand is not None:
        found.add(offset + first_operand)
    return found


def grep_patterns(args: Sequence[Word]) -> set[int]:
    """The positions of a grep's patterns among its arguments.

    The ``-e`` values, or else the first operand after the options, their values and ``--``;
    none when ``-f`` reads the patterns from a file.

    :param args: the words after ``grep`` (or ``git grep``).
    :returns: indexes into ``args``.
    """
    return _script_and_patterns("grep", args, 0)


_GIT_PATTERN_OPTIONS = ("-L", "-G", "-S", "--grep", "--author", "--committer")
"""git log's and blame's options whose value is a line range, a regex or a string to find
(git-log(1), git-blame(1): ``-L '/def parse/,+20'``, ``-S'/etc/hosts'``)."""


def _git_patterns(args: Sequence[Word], offset: int) -> set[int]:
    """``git grep``'s patterns and the range and search values of ``git log``/``blame``."""
    verbs = [i for i, w in enumerate(args) if w.value in ("grep", "log", "blame", "show")]
    if not verbs:
        return set()
    first = verbs[0]
    rest = args[first + 1 :]
    if args[first].value == "grep":
        return {offset + first + 1 + i for i in grep_patterns(rest)}
    found: set[int] = set()
    for i, word in enumerate(rest):
        value = word.value
        if value in _GIT_PATTERN_OPTIONS and i + 1 < len(rest):
            found.add(offset + first + 2 + i)
        elif (value.startswith(_GIT_PATTERN_OPTIONS) and not value.startswith("--")) or (
                value.partition("=")[0] in _GIT_PATTERN_OPTIONS):
            found.add(offset + first + 1 + i)
    return found


_KEY_SUBCOMMANDS: dict[str, frozenset[str]] = {
    # dconf(1): the subcommands that take a key or a directory of the database (compile and
    # update take files); gsettings(1): schemas, relocatable paths and keys (its writes ask,
    # :mod:`.home_config`); busctl(1) and gdbus: the subcommands that only look at an object
    # (a method call or a property set stays judged word by word)
    "dconf": frozenset({"read", "list", "dump", "watch", "write", "reset", "load"}),
    "gsettings": frozenset({"get", "list-keys", "list-children", "list-recursively", "range",
                            "describe", "writable", "monitor", "set", "reset",
                            "reset-recursively"}),
    "busctl": frozenset({"tree", "introspect", "get-property", "status", "list"}),
    "gdbus": frozenset({"introspect", "monitor"}),
}
_SETTERS = frozenset({"-s", "--set", "-r", "--reset", "-n", "--create", "-t", "--type"})


def _key_words(name: str, args: Sequence[Word], offset: int) -> set[int]:
    """The words of a settings or bus client that name keys or objects, not files."""
    if name == "xfconf-query":  # xfconf-query(1): -p names a property; setting one is judged
        if any(w.value.partition("=")[0] in _SETTERS for w in args):
            return set()
        return {offset + i for i, w in enumerate(args)
                if w.value.startswith("--property=") or (i and args[i - 1].value in ("-p",
                                                                                   "--property"))}
    operands = [i for i, w in enumerate(args) if not w.value.startswith("-")]
    if not operands or args[operands[0]].value not in _KEY_SUBCOMMANDS[name]:
        return set()
    return {offset + i for i, w in enumerate(args) if "/" in w.value}


_SSHES = frozenset({"ssh", "autossh"})
_SSH_VALUE_LETTERS = frozenset("bcDEeFIiJLlmOopQRSWw")


def _remote_command(args: Sequence[Word], offset: int) -> set[int]:
    index = 0
    while index < len(args):
        value = args[index].value
        index += 1
        if value == "--" or not value.startswith("-"):
            if value != "--":
                return set(range(offset + index, offset + len(args)))
            continue
        for position, letter in enumerate(value[1:], start=1):
            if letter in _SSH_VALUE_LETTERS:
                if position == len(value) - 1:
                    index += 1  # the value is the next word
                break
    return set()


_LAUNCHD_TARGET = re.compile(r"^(?:gui|user|login|system|pid|session)/")
"""A launchd domain or service target (launchctl(1): ``gui/<uid>/<label>``, ``system/…``)."""


def name_words(segment: Segment) -> frozenset[int]:
    """Indices of the words that name a record, key, object or service, never a file.

    :param segment: one analysed segment.
    :returns: indices into :attr:`.Segment.words` (the last rows of the module table).
    """
    if not segment.command_positions:
        return frozenset()
    name = segment.command
    start = segment.command_positions[-1] + 1
    args = segment.words[start:]
    if name in _KEY_SUBCOMMANDS or name == "xfconf-query":
        return frozenset(_key_words(name, args, start))
    if name == "dscl":  # dscl(1): a node and record paths (/Users/x), not files; -f FILE is
        return frozenset(start + i for i, w in enumerate(args)
                         if "/" in w.value and not (i and args[i - 1].value == "-f"))
    if name == "launchctl":
        return frozenset(start + i for i, w in enumerate(args)
                         if _LAUNCHD_TARGET.match(w.value))
    return frozenset()


def program_words(segment: Segment) -> frozenset[int]:
    """Indices of the segment's words that are program text or patterns, not paths.

    :param segment: one analysed segment.
    :returns: indices into :attr:`.Segment.words` (see the module table).
    """
    if not segment.command_positions:
        return frozenset()
    name = segment.command
    start = segment.command_positions[-1] + 1
    args = segment.words[start:]
    family = _family(name)
    if family is not None:
        return frozenset(_script_and_patterns(family, args, start))
    if name in _SSHES:
        return frozenset(_remote_command(args, start))
    names = name_words(segment)
    if names:
        return names
    if name == "smbclient":
        return frozenset(start + i for i, w in enumerate(args)
                         if w.value.replace("\\", "/").startswith("//")
                         or (i and args[i - 1].value in ("-c", "--command")))
    if name == "find":
        return frozenset(start + i + 1 for i, w in enumerate(args[:-1])
                         if w.value in _FIND_PATTERNS)
    if name == "git":
        return frozenset(_git_patterns(args, start))
    code = INTERPRETER_CODE_OPTIONS.get(name.rstrip("0123456789.-"))
    if code:
        return frozenset(start + i + 1 for i, w in enumerate(args[:-1]) if w.value in code)
    return frozenset()
