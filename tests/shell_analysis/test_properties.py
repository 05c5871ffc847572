"""Property tests: the analyzer never raises, and a blocked command word is never clean."""

from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.shell_analysis import (
    DEFAULT_BLOCKED,
    CommandAnalysis,
    analyze,
    decide,
    find_blocked,
    find_confirm,
)
from tooldeck.shell_analysis.parse import MAX_COMMAND_CHARS

SHELL_ALPHABET = st.sampled_from(
    [*"abcdsuo \t\n;&|<>()`$'\"\\{}[]*?!#=~-/0x\x00\x01\x1b\r", "$(", "<<<", "<<", "${"]
)


def assert_well_formed(analysis: CommandAnalysis) -> None:
    assert isinstance(analysis, CommandAnalysis)
    for segment in analysis.segments:
        assert segment.command_positions
        assert all(0 <= p < len(segment.words) for p in segment.command_positions)
        assert segment.argv[0] == segment.command


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=300))
def test_analyze_never_raises_on_arbitrary_text(command: str) -> None:
    assert_well_formed(analyze(command))
    decide(command)


@settings(max_examples=400, deadline=None)
@given(st.lists(SHELL_ALPHABET, max_size=120).map("".join))
def test_analyze_never_raises_on_shell_soup(command: str) -> None:
    assert_well_formed(analyze(command))
    decide(command)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["$(", "`", "<(", "(", "{ ", '"$(', "x=$(", "if true; then "]),
    st.integers(min_value=50, max_value=3000),
    st.booleans(),
)
def test_huge_nesting_is_opaque_not_a_crash(opener: str, depth: int, closed: bool) -> None:
    closers = {"`": "`", "{ ": "; }", '"$(': ')"', "if true; then ": "; fi"}
    closer = closers.get(opener, ")")
    command = opener * depth + "sudo id" + (closer * depth if closed else "")
    analysis = analyze(command)
    assert_well_formed(analysis)
    assert analysis.opaque or find_blocked(analysis, DEFAULT_BLOCKED) is not None


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=1, max_value=7), st.sampled_from(["bash -c", "sh -c", "eval"]))
def test_nested_quoted_scripts_are_followed(depth: int, carrier: str) -> None:
    command = "sudo id"
    for _ in range(depth):
        command = f"{carrier} {shlex.quote(command)}"
    match = find_blocked(analyze(command), DEFAULT_BLOCKED)
    assert match is not None
    assert match.pattern == "sudo"


def test_parser_crashing_characters_are_neutralised() -> None:
    # tree-sitter-bash 0.25 segfaults on "{" followed by some astral characters; the
    # analyzer parses a same-length sanitised copy and reads text from the original.
    analysis = analyze("{\U0002c711h && echo '\U0001f389 ok' > f\U0001f389")
    assert analysis.opaque
    assert analysis.segments[-1].argv == ("echo", "\U0001f389 ok")
    assert analysis.redirect_targets == ("f\U0001f389",)


ASTRAL_SOUP = st.lists(
    st.one_of(SHELL_ALPHABET, st.characters(min_codepoint=0x10000)), max_size=60
).map("".join)


@settings(max_examples=300, deadline=None)
@given(ASTRAL_SOUP)
def test_astral_characters_never_crash(command: str) -> None:
    assert_well_formed(analyze(command))


def test_overlong_command_is_opaque() -> None:
    analysis = analyze("echo " + "a" * MAX_COMMAND_CHARS)
    assert analysis.opaque
    assert analysis.segments == ()


BLOCKED_WORDS = ["sudo", "curl", "wget", "reboot", "shutdown", "halt", "mkfs", "mkfs.ext4", "ncat"]


def _ansi_hex(word: str) -> str:
    return "$'" + "".join(f"\\x{ord(c):02x}" for c in word) + "'"


def _ansi_octal(word: str) -> str:
    return "$'" + "".join(f"\\{ord(c):03o}" for c in word) + "'"


def _split_single(word: str) -> str:
    return f"{word[0]}'{word[1:]}'"


def _split_double(word: str) -> str:
    return f'"{word[:2]}""{word[2:]}"'


OBFUSCATIONS = [
    lambda w: w,
    str.upper,
    str.title,
    lambda w: "\\" + w,
    lambda w: w[0] + "\\" + w[1:],
    lambda w: w[:2] + "\\\n" + w[2:],
    _split_single,
    _split_double,
    _ansi_hex,
    _ansi_octal,
    lambda w: "/usr/bin/" + w,
    lambda w: "'" + w + "'",
    lambda w: '$"' + w + '"',
]

WRAPPERS = [
    "env",
    "env A=1",
    "env -i",
    "command",
    "exec",
    "builtin",
    "nice -n 5",
    "nohup",
    "time",
    "timeout 5",
    "timeout -s KILL 9",
    "stdbuf -oL",
    "xargs",
    "xargs -0 -n1",
    "sudo",
    "sudo -u root",
    "doas",
]


def _wrap_simple(inner: str, template: str) -> str:
    return template.replace("@", inner)


def _wrap_quoted(inner: str, template: str) -> str:
    return template.replace("@", shlex.quote(inner))


SIMPLE_CONTEXTS = [
    "@",
    "echo a; @",
    "echo a && @",
    "false || @",
    "echo a | @",
    "echo a & @",
    "echo a |& @",
    "echo a\n@",
    "echo $(@)",
    "echo `@`",
    "cat <(@)",
    "tee >(@)",
    "( @ )",
    "{ @; }",
    "if true; then @; fi",
    "for i in 1 2; do @; done",
    "f() { @; }",
    "x=$(@)",
    '[[ -n "$(@)" ]]',
    "bash <<'EOF'\n@\nEOF",
    "find . -exec @ \\;",
]
QUOTED_CONTEXTS = ["bash -c @", "sh -c @", "eval @", "bash <<< @", "zsh -c @", "trap @ EXIT"]


@st.composite
def blocked_commands(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from(BLOCKED_WORDS))
    command_word = draw(st.sampled_from(OBFUSCATIONS))(word)
    args = draw(st.lists(st.sampled_from(["-v", "x", "/tmp/a", "'a b'", "--flag=1"]), max_size=3))
    wrappers = draw(st.lists(st.sampled_from(WRAPPERS), max_size=3))
    prefix = draw(st.sampled_from(["", "A=1 ", "A=1 B='x y' "]))
    command = prefix + " ".join([*wrappers, command_word, *args])
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        if draw(st.booleans()):
            context = draw(st.sampled_from(SIMPLE_CONTEXTS))
            if context.startswith("find") and "=" in command.split(" ", 1)[0]:
                continue  # find execs the program directly: "A=1" would be the program
            command = _wrap_simple(command, context)
        else:
            command = _wrap_quoted(command, draw(st.sampled_from(QUOTED_CONTEXTS)))
    return command


@settings(max_examples=600, deadline=None)
@given(blocked_commands())
def test_blocked_command_word_is_never_clean(command: str) -> None:
    analysis = analyze(command)
    match = find_blocked(analysis, DEFAULT_BLOCKED)
    assert match is not None or analysis.opaque, (command, analysis)
    assert decide(command).decision != "allow"


CONFIRM_ALPHABET = st.sampled_from([*"rmRM x_-.é١ⅷ$(`<>\t\n'\"\\", "rm ", "eval ", "git push -f"])


@settings(max_examples=600, deadline=None)
@given(st.lists(CONFIRM_ALPHABET, max_size=40).map("".join),
       st.lists(st.lists(CONFIRM_ALPHABET, max_size=4).map("".join), max_size=5))
def test_confirm_prefilter_agrees_with_the_pattern_loop(text: str, patterns: list[str]) -> None:
    # the compiled one-pass expression matches exactly where some pattern's own test holds
    from tooldeck.shell_analysis.confirm import _any_pattern, contains_pattern

    regex = _any_pattern(tuple(patterns))
    view = text.lower()
    expected = any(contains_pattern(view, p.lower()) for p in patterns)
    assert (regex is not None and regex.search(view) is not None) == expected
    assert find_confirm(text, analyze(text), patterns) == next(
        (p for p in patterns if any(contains_pattern(v, p.lower()) for v in _views(text))), None)


def _views(command: str) -> list[str]:
    from tooldeck.shell_analysis import deobfuscate

    analysis = analyze(command)
    return [command.lower(), deobfuscate(command).lower(),
            *(" ".join(w.value for w in s.words).lower() for s in analysis.segments)]


def _deobfuscate_unguarded(command: str) -> str:
    # every step applied unconditionally: the guarded deobfuscate must agree with it
    from tooldeck.shell_analysis import deobfuscate

    d = deobfuscate.__globals__
    text = command[: d["MAX_DEOBFUSCATE_CHARS"]]
    text = d["_HEX"].sub(d["_hex"], text)
    text = d["_OCTAL"].sub(d["_octal"], text)
    text = d["_UNICODE"].sub(lambda m: chr(int(m.group(1), 16)), text)
    text = text.replace("\\\n", "")
    text = d["_VARIABLE"].sub(lambda m: f"[var:{m.group(1) or m.group(2)}]", text)
    text = d["_BACKTICK"].sub(lambda m: f"[subshell: {m.group(1).strip()}]", text)
    text = d["_dollar_paren"](text)
    text = text.replace("'", "").replace('"', "")
    return str(d["_WHITESPACE"].sub(" ", text).strip())


DEOBFUSCATE_ALPHABET = st.sampled_from(
    [*"ab $`'\"\\(){}\n\t0x7u", "\\x24", "\\x60", "\\x5c", "\\044", "\\u0024", "$(", "${A}"])


@settings(max_examples=600, deadline=None)
@given(st.lists(DEOBFUSCATE_ALPHABET, max_size=40).map("".join))
def test_deobfuscate_guards_change_nothing(command: str) -> None:
    from tooldeck.shell_analysis import deobfuscate

    assert deobfuscate(command) == _deobfuscate_unguarded(command)

