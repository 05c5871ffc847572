"""The cheap first look (:mod:`tooldeck.shell_analysis.plain`) analyses exactly as the parser.

A command the first look accepts skips tree-sitter; these tests hold it to the parser's result
on every command of both shell corpora, the analyzer benchmark and generated commands, and pin
the shapes it must hand to the parser (where tree-sitter reads the text its own way).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.shell_analysis import analyze
from tooldeck.shell_analysis.parse import _analyze
from tooldeck.shell_analysis.plain import MAX_PLAIN_CHARS, plain_commands

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "shell_corpus"))

from corpus import CORPUS, FRESH, load_rows  # type: ignore[import-not-found]  # noqa: E402


def _parsed(command: str) -> object:
    return _analyze(command, frozenset(), first_look=False)


def _bench_commands() -> list[str]:
    spec = importlib.util.spec_from_file_location("bench_corpus", ROOT / "bench" /
                                                  "shell_analyzer.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    commands: list[str] = module.corpus(1000, 7)
    return commands


def test_every_accepted_corpus_command_is_analysed_as_the_parser_does() -> None:
    rows = [*load_rows(CORPUS), *load_rows(FRESH)]
    third = CORPUS.with_name("third.tsv")
    if third.exists():
        rows += load_rows(third)
    accepted, different = 0, []
    for row in rows:
        if plain_commands(row.command) is None:
            continue
        accepted += 1
        if analyze(row.command) != _parsed(row.command):
            # held-back rows are never named (tests/shell_corpus/corpus.py)
            different.append(row.id if row.half == "tune" else "a held-back row")
    assert accepted > len(rows) // 2  # the look is worth having: most commands are plain
    assert different == []


def test_every_accepted_benchmark_command_is_analysed_as_the_parser_does() -> None:
    commands = _bench_commands()
    accepted = [c for c in commands if plain_commands(c) is not None]
    assert len(accepted) > len(commands) // 2
    assert [c for c in accepted if analyze(c) != _parsed(c)] == []


_WORD = st.one_of(
    st.from_regex(r"[A-Za-z0-9_./:,+@%=~^-]{1,8}", fullmatch=True),
    st.sampled_from(["sudo", "\\sudo", "w\\ho", "g'it'", '"su""do"', "rm", "-rf", "/", "bash",
                     "-c", "sh", "env", "A=1", "xargs",
                     "timeout", "5", "nohup", "curl", "find", "-exec", ";", "git", "time",
                     "if", "export", "coproc", "2", "0", "1", "~", "~/x", "eval", "source",
                     ".", "python3", "su", "watch", "--", "-", "/dev/tcp/h/1", "a@", "9%", "a+:",
                     "==", "=~", "'a b'", '"x;y"', "-'x'", "''"]),
    st.from_regex(r"'[ -&(-~]{0,8}'", fullmatch=True),
    st.from_regex(r'"[ !#%-\[\]-_a-~]{0,8}"', fullmatch=True),
    st.from_regex(r"[a-z]{1,3}'[ a-z;|&]{0,4}'[a-z]{0,2}", fullmatch=True),
)
_GLUE = st.sampled_from([" ", " ", " ", "  ", "\t", " && ", " || ", "; ", ";", " | ", "|",
                         " |& ", " & ", "&", "\n", "\n\n", " > ", " >> ", " 2>&1 ", " 2> ",
                         " < ", " &> ", " >& ", " 0> ", " 2>", ">", " ;; ", " && && "])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_WORD, _GLUE), min_size=1, max_size=8), st.booleans())
def test_generated_commands_accepted_by_the_look_are_analysed_as_the_parser_does(
        parts: list[tuple[str, str]], trailing_glue: bool) -> None:
    command = "".join(w + g for w, g in parts)
    if not trailing_glue:
        command = command[: len(command) - len(parts[-1][1])]
    if plain_commands(command) is not None:
        assert analyze(command) == _parsed(command)


@pytest.mark.parametrize("command", [
    "echo 0> f",  # tree-sitter reads 0 as an argument: bash reads a redirection of fd 0
    "echo hi>f",  # a redirection glued to a word
    "ls 2>/dev/null /etc/shadow",  # a word after a redirection
    "A=1 make",  # an assignment prefix
    "if true; then ls; fi", "export A=1", "coproc cat",
    "cat <<EOF\nx\nEOF", "cat <<< x", "a |", "&& a", "a ;; b", "a && && b", "a | | b",
    "echo 'unterminated", 'echo "unterminated', "echo $HOME", "echo `id`", r"echo a\;b",
    "ls\n\\sudo id", r"cat > a\b",
    "echo a # comment", "ls *.py", "echo {a,b}", "ls [ab]", "(ls)", "{ ls; }", "! ls",
    "echo é", "cat > ", "cat >| f", "cat <> f", "cat <&3", 'echo "a\\"b"', 'echo "a$b"',
    "echo 'a\nb'", "x" * (MAX_PLAIN_CHARS + 1),
    # tree-sitter's own readings
    "a@ x", "a% x", "a+: x", "- A=1", "ls ==", "[ a =~ b ]", "cat - 2> err",
])
def test_shapes_outside_the_subset_go_to_the_parser(command: str) -> None:
    assert plain_commands(command) is None


@pytest.mark.parametrize(("command", "texts", "redirects"), [
    ("git status", ["git status"], ()),
    ("pytest -q 2>&1 | tail -20", ["pytest -q", "tail -20"], ()),
    ("make > build.log 2>&1 && ./run", ["make", "./run"], ("build.log",)),
    ("git commit -m 'fix: a; b | c' && git push", ["git commit -m 'fix: a; b | c'",
                                                    "git push"], ()),
    ("cd src &&\n  ls", ["cd src", "ls"], ()),
    (r"\sudo id && time g'it' status", [r"\sudo id", "time g'it' status"], ()),
])
def test_plain_commands_are_split_like_the_parser_splits_them(
        command: str, texts: list[str], redirects: tuple[str, ...]) -> None:
    assert plain_commands(command) is not None
    analysis = analyze(command)
    assert [s.text for s in analysis.segments] == texts
    assert analysis.redirect_targets == redirects
    assert analysis == _parsed(command)


def test_a_pipe_into_a_shell_is_still_opaque_through_the_first_look() -> None:
    analysis = analyze("cat install.sh | sh")
    assert plain_commands("cat install.sh | sh") is not None
    assert analysis.opaque
    assert "piped into sh" in analysis.opaque_reasons[0]


@pytest.mark.parametrize("command", [
    "0 | 0 | sudo\n0 && sudo ",  # hypothesis: tree-sitter read "sudo 0" as one command
    "a | b | c\nd && e", "a | b | c\nd | e | f\ng && h",
])
def test_a_newline_after_a_long_pipeline_splits_as_in_the_first_look(command: str) -> None:
    assert plain_commands(command) is not None
    assert analyze(command) == _parsed(command)
