"""Transparent wrappers: find the command a wrapper runs, and every command word on the way.

A wrapper runs another command given as its arguments. The analyzer peels wrappers one by one
and records each wrapper's position too, so a blocklist entry for the wrapper itself still fires
(``sudo`` stays visible in ``env sudo rm``: the "sudo-as-target" rule).

| wrapper  | flags                       | options with an argument             | notes |
| -------- | --------------------------- | ------------------------------------ | ----- |
| env      | -i -0 -v, signal options    | -u -C -S                             | 1     |
| command  | -p -v -V                    |                                      | 2     |
| exec     | -c -l                       | -a                                   |       |
| builtin  |                             |                                      |       |
| noglob, nocorrect |                    |                                      | 7     |
| nice     | -N                          | -n --adjustment                      |       |
| nohup    |                             |                                      |       |
| time     | -p -a -v -q -V              | -f -o                                |       |
| timeout  | -v --foreground             | -s -k, then DURATION                 |       |
| stdbuf   |                             | -i -o -e                             |       |
| xargs    | -0 -o -p -r -t -x           | -a -d -E -I -L -n -P -s; glued -e -i -l | 3  |
| sshpass  | -e -v                       | -f -d -p -P                          |       |
| sudo     | -A -b -E -H -i -K -k -n -S… | -u -g -C -D -h -p -r -t -T -U -R     | 1, 2  |
| doas     | -n -s -L                    | -u -C                                |       |
| setsid   | -c -f -w                    |                                      |       |
| ionice   | -t                          | -c -n                                |       |
| chroot   | --skip-chdir                | --userspec --groups, then NEWROOT    |       |
| busybox  |                             |                                      | 5     |
| toybox   |                             |                                      | 5     |
| coproc   |                             |                                      | 6     |
| declared | any ``-x`` word             |                                      | 4     |

1. ``NAME=value`` words may precede the command. ``env -S``/``--split-string``: the string is
   parsed as a script (origin ``env -S``).
2. ``command -v``/``-V`` and ``sudo -e/-l/-v/-V`` only look up, edit or list: nothing runs.
3. ``-I R``: words holding R are marked dynamic; without it, xargs appends its input to the
   arguments (a shell then gets script names from input: opaque).
4. Operator-declared via ``extra_wrappers``: the first word not starting with ``-`` is the
   command.
5. ``busybox sh -c …``, ``toybox sh``: the applet name is the command.
6. ``coproc NAME { …; }``: NAME is skipped when a group follows.
7. zsh's precommand modifiers (zshmisc(1)); bash has no such commands, so they never run
   anything there, but an agent's shell may be zsh.

A reserved word where a command should stand (``time { …; }``, ``coproc N { …; }``, a stray
``}``) means tree-sitter did not see a compound command: opaque.

Fail closed: an option a wrapper does not define, or a word in the wrapper's own part that is
not static (``env $X sudo``), makes the command opaque instead of guessing where the command is.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tooldeck.shell_analysis.model import Word, command_name
from tooldeck.shell_analysis.toolchain_dirs import is_toolchain_program

__all__ = ["WRAPPERS", "Resolution", "WrapperSpec", "is_assignment", "resolve"]


@attrs.frozen
class WrapperSpec:
    """How one wrapper's options are laid out.

    :param short_with_arg: short option letters that take an argument (glued or next word).
    :param short_optional: short option letters whose argument can only be glued.
    :param short_flags: short option letters without argument.
    :param long_with_arg: long options taking an argument (``--x=v`` or ``--x v``).
    :param long_flags: long options without a separate argument (``=value`` allowed).
    :param no_command: short or long options meaning the wrapper runs nothing.
    :param assignments: whether ``NAME=value`` words may precede the command.
    :param positionals: plain words before the command (``timeout``'s duration).
    :param numeric: whether ``-N`` (digits) is an option (``nice -10``).
    :param any_flag: accept every ``-x`` word as a flag (operator-declared wrappers).
    """

    short_with_arg: str = ""
    short_optional: str = ""
    short_flags: str = ""
    long_with_arg: frozenset[str] = frozenset()
    long_flags: frozenset[str] = frozenset()
    no_command: frozenset[str] = frozenset()
    assignments: bool = False
    positionals: int = 0
    numeric: bool = False
    any_flag: bool = False


WRAPPERS: dict[str, WrapperSpec] = {
    "env": WrapperSpec(
        short_with_arg="uCS",
        short_flags="i0v",
        long_with_arg=frozenset({"--unset", "--chdir", "--split-string"}),
        long_flags=frozenset(
            {
                "--ignore-environment",
                "--null",
                "--debug",
                "--default-signal",
                "--ignore-signal",
                "--block-signal",
                "--list-signal-handling",
            }
        ),
        assignments=True,
    ),
    "command": WrapperSpec(short_flags="pvV", no_command=frozenset({"-v", "-V"})),
    "exec": WrapperSpec(short_with_arg="a", short_flags="cl"),
    "builtin": WrapperSpec(),
    # zsh's precommand modifiers (zshmisc(1)): the rest of the line is the command
    "noglob": WrapperSpec(),
    "nocorrect": WrapperSpec(),
    "nice": WrapperSpec(
        short_with_arg="n", long_with_arg=frozenset({"--adjustment"}), numeric=True
    ),
    "nohup": WrapperSpec(),
    "time": WrapperSpec(
        short_with_arg="fo",
        short_flags="pavqV",
        long_with_arg=frozenset({"--format", "--output"}),
        long_flags=frozenset({"--portability", "--append", "--verbose", "--quiet"}),
    ),
    "timeout": WrapperSpec(
        short_with_arg="sk",
        short_flags="v",
        long_with_arg=frozenset({"--signal", "--kill-after"}),
        long_flags=frozenset({"--foreground", "--preserve-status", "--verbose"}),
        positionals=1,
    ),
    "stdbuf": WrapperSpec(
        short_with_arg="ioe", long_with_arg=frozenset({"--input", "--output", "--error"})
    ),
    "sshpass": WrapperSpec(short_with_arg="fdpP", short_flags="ev"),
    "xargs": WrapperSpec(
        short_with_arg="adEILnPs",
        short_optional="eil",
        short_flags="0oprtx",
        long_with_arg=frozenset(
            {
                "--arg-file",
                "--delimiter",
                "--max-lines",
                "--max-args",
                "--max-procs",
                "--max-chars",
                "--process-slot-var",
            }
        ),
        long_flags=frozenset(
            {
                "--null",
                "--open-tty",
                "--interactive",
                "--no-run-if-empty",
                "--verbose",
                "--exit",
                "--show-limits",
                "--eof",
                "--replace",
            }
        ),
    ),
    "sudo": WrapperSpec(
        short_with_arg="ugCDhprtTUR",
        short_flags="AbEeHiKklnPSsVvBN",
        long_with_arg=frozenset(
            {
                "--user",
                "--group",
                "--close-from",
                "--chdir",
                "--prompt",
                "--role",
                "--type",
                "--command-timeout",
                "--other-user",
                "--host",
                "--chroot",
            }
        ),
        long_flags=frozenset(
            {
                "--askpass",
                "--background",
                "--preserve-env",
                "--edit",
                "--set-home",
                "--login",
                "--remove-timestamp",
                "--reset-timestamp",
                "--list",
                "--non-interactive",
                "--preserve-groups",
                "--stdin",
                "--shell",
                "--version",
                "--validate",
                "--bell",
                "--no-update",
            }
        ),
        no_command=frozenset({"-e", "-l", "-v", "-V", "--edit", "--list", "--validate"}),
        assignments=True,
    ),
    "doas": WrapperSpec(short_with_arg="uC", short_flags="nsL"),
    "setsid": WrapperSpec(short_flags="cfw", long_flags=frozenset({"--ctty", "--fork", "--wait"})),
    "ionice": WrapperSpec(
        short_with_arg="cn",
        short_flags="t",
        long_with_arg=frozenset({"--class", "--classdata"}),
        long_flags=frozenset({"--ignore"}),
    ),
    "chroot": WrapperSpec(
        long_with_arg=frozenset({"--userspec", "--groups"}),
        long_flags=frozenset({"--skip-chdir"}),
        positionals=1,
    ),
    "busybox": WrapperSpec(),
    "toybox": WrapperSpec(),  # Android's multi-call binary: the applet is the command
    "coproc": WrapperSpec(),
}
"""The built-in transparent wrappers, by command name."""

_DECLARED = WrapperSpec(any_flag=True)
_RESERVED = frozenset(
    {"{", "}", "(", ")", "!", "[[", "]]", "if", "then", "elif", "else", "fi", "for", "while"}
    | {"until", "do", "done", "case", "esac", "select", "function", "coproc", "in"}
)
_GROUP_OPENERS = frozenset({"{", "("})


@attrs.frozen
class Resolution:
    """Where the commands stand in a word list, once wrappers are peeled.

    :param positions: indices of each wrapper word and, last, the command finally run.
    :param words: the words, with xargs replacement-string holders marked dynamic.
    :param reasons: opaque reasons found while unwrapping.
    :param scripts: ``(script, origin)`` pairs to analyse as shell code (``env -S``).
    :param input_args: true when xargs appends its input to the final command's arguments.
    :param replace: xargs' replacement string (``-I R``): each input line takes R's place.
    """

    positions: tuple[int, ...]
    words: tuple[Word, ...]
    reasons: tuple[str, ...] = ()
    scripts: tuple[tuple[str, str], ...] = ()
    input_args: bool = False
    replace: str | None = None


def is_assignment(value: str) -> bool:
    """Tell whether a word is a ``NAME=value`` assignment.

    :param value: a word's value.
    :returns: true when the part before ``=`` is a shell identifier.
    """
    name, eq, _ = value.partition("=")
    return bool(eq) and name.isidentifier() and name.isascii()


@attrs.define
class _State:
    """Mutable scratch state of one wrapper's option scan."""

    index: int
    no_command: bool = False
    split_string: str | None = None
    replace: str | None = None
    reason: str | None = None


def _scan_long(spec: WrapperSpec, name: str, words: Sequence[Word], state: _State) -> None:
    option, eq, value = words[state.index].value.partition("=")
    if option in spec.long_with_arg:
        argument = value if eq else _next_value(words, state.index + 1)
        state.index += 1 if eq else 2
    elif option in spec.long_flags or spec.any_flag:
        argument = value
        state.index += 1
    else:
        state.reason = f"wrapper {name}: unknown option {option!r}"
        return
    if option in spec.no_command:
        state.no_command = True
    if option == "--split-string":
        state.split_string = argument
    if option == "--replace":
        state.replace = argument or "{}"


def _next_value(words: Sequence[Word], index: int) -> str:
    return words[index].value if index < len(words) else ""


def _scan_short(spec: WrapperSpec, name: str, words: Sequence[Word], state: _State) -> None:
    value = words[state.index].value
    state.index += 1
    if spec.numeric and value[1:].isdigit():
        return
    letters = value[1:]
    for offset, letter in enumerate(letters):
        if f"-{letter}" in spec.no_command:
            state.no_command = True
        glued = letters[offset + 1 :]
        if letter in spec.short_with_arg:
            argument = glued or _next_value(words, state.index)
            if not glued:
                state.index += 1
            _short_argument(letter, argument, name, state)
            return
        if letter in spec.short_optional:
            _short_argument(letter, glued, name, state)
            return
        if letter not in spec.short_flags and not spec.any_flag:
            state.reason = f"wrapper {name}: unknown option '-{letter}'"
            return


def _short_argument(letter: str, argument: str, name: str, state: _State) -> None:
    if name == "env" and letter == "S":
        state.split_string = argument
    elif name == "xargs" and letter in "Ii":
        state.replace = argument or "{}"


def _scan_wrapper(
    name: str, spec: WrapperSpec, words: Sequence[Word], start: int, reasons: list[str]
) -> _State:
    state = _State(start + 1)
    while state.index < len(words) and state.reason is None:
        word = words[state.index]
        if not word.stable:
            state.reason = f"wrapper {name}: argument {word.source!r} is not static"
            break
        value = word.value
        if value == "--":
            state.index += 1
            break
        if value == "-":  # env's "-" is -i; elsewhere skipping it only looks further
            state.index += 1
            continue
        if value.startswith("--"):
            _scan_long(spec, name, words, state)
        elif value.startswith("-") and len(value) > 1:
            _scan_short(spec, name, words, state)
        elif spec.assignments and is_assignment(value):
            if value.startswith("IFS="):
                reasons.append(f"wrapper {name}: IFS reassigned")
            state.index += 1
        else:
            break
    state.index += spec.positionals
    if state.reason is None:
        consumed = words[start + 1 : state.index]
        unstable = [w.source for w in consumed if not w.stable]
        if unstable:  # an unquoted $x may split into several words and shift the command
            state.reason = f"wrapper {name}: argument {unstable[0]!r} is not static"
    if state.reason:
        reasons.append(state.reason)
    return state


def _mark_replaced(words: list[Word], start: int, marker: str) -> None:
    for index in range(start, len(words)):
        word = words[index]
        if marker and marker in word.value:
            words[index] = attrs.evolve(word, dynamic=True)


def _coproc_names_group(words: Sequence[Word], index: int) -> bool:
    return index + 1 < len(words) and words[index + 1].source in _GROUP_OPENERS


def resolve(words: Sequence[Word], extra_wrappers: frozenset[str] = frozenset()) -> Resolution:
    """Peel wrappers off a simple command.

    :param words: the command's words, ``VAR=value`` prefixes already removed.
    :param extra_wrappers: operator-declared wrapper names (lowercase base names).
    :returns: the command positions and anything found on the way.
    """
    first = words[0] if words else None
    if first is not None and first.stable and first.source not in _RESERVED:
        name = command_name(first.value)
        if name not in WRAPPERS and name not in extra_wrappers:  # the common case: no wrapper
            return Resolution((0,), tuple(words))
    current = list(words)
    positions: list[int] = []
    reasons: list[str] = []
    scripts: list[tuple[str, str]] = []
    input_args = False
    replace: str | None = None
    index = 0
    while index < len(current):
        word = current[index]
        if not word.stable and not is_toolchain_program(word.source):
            reasons.append(f"command word {word.source!r} is not static")
            positions.append(index)
            break
        positions.append(index)
        name = command_name(word.value)
        spec = WRAPPERS.get(name) or (_DECLARED if name in extra_wrappers else None)
        if spec is None:
            if word.source in _RESERVED:
                reasons.append(f"reserved word {word.source!r} used as a command")
            break
        state = _scan_wrapper(name, spec, current, index, reasons)
        if name == "coproc" and _coproc_names_group(current, state.index):
            state.index += 1
        if state.reason or state.no_command:
            break
        if state.split_string is not None:
            rest = " ".join(w.value for w in current[state.index :])
            scripts.append((f"{state.split_string} {rest}".strip(), "env -S"))
            break
        if name == "xargs":
            if state.replace is not None:
                _mark_replaced(current, state.index, state.replace)
                input_args, replace = False, state.replace
            else:
                input_args, replace = True, None
        index = state.index
    return Resolution(tuple(positions), tuple(current), tuple(reasons), tuple(scripts), input_args,
                      replace)
