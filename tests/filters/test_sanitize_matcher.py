"""Zeph §4.1: sanitize_output, last-command extraction, matchers, count_lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.filters.command import command_segment, last_command
from tooldeck.filters.matcher import CommandMatcher, MatchKind
from tooldeck.filters.sanitize import count_lines, sanitize_output


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b[32mOK\x1b[0m test passed", "OK test passed"),
        ("Downloading... 50%\rDownloading... 100%", "Downloading... 100%"),
        ("line1\n\n\n\nline2", "line1\n\nline2"),
        ("a\n \t \n\n  \nb\n", "a\n\nb"),
        ("\x1b(Bcharset", "charset"),
        ("dos\r\nlines\r\n", "dos\nlines"),
        ("p 10%\rp 20%\rp 30%\nnext", "p 30%\nnext"),
    ],
)
def test_sanitize_output(raw: str, clean: str) -> None:
    assert sanitize_output(raw) == clean


def test_sanitize_is_idempotent() -> None:
    once = sanitize_output("\x1b[1mA\x1b[0m\n\n\n\nB\r\n  \nC\n")
    assert sanitize_output(once) == once


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cd /path && cargo test --lib", "cargo test --lib"),
        ("cd /p && cargo clippy 2>&1 | tail -20", "cargo clippy"),
        ("cargo test", None),
        # fixed quirk: Zeph never split on ';'
        ("a; cargo test", "cargo test"),
        ("make || cargo build", "cargo build"),
        ("cd x\npytest -q", "pytest -q"),
        ("sleep 1 & pytest", "pytest"),
        ('git commit -m "a; b && c"', "git commit -m 'a; b && c'"),  # words as the shell sees them
        ("cargo test > out.txt", "cargo test"),
        ("FOO=1 BAR=2 pytest -x", "pytest -x"),
        ("cd x && ", "cd x"),  # bash rejects it; the analyzer's fallback cuts at the operator
        ("env -i FOO=1 make -j4", "make -j4"),
        ("cd app && env CI=1 npm test 2>&1 | tee log", "npm test"),
        ("(cd web && npm run build)", "npm run build"),
        ("cargo test # the suite", "cargo test"),
        ("for f in a b; do pytest $f; done", "pytest $f"),
        # a trailing note is not the program whose output is read
        ("npx tsc -p . && echo built", "tsc -p ."),
        ('cargo build; echo "exit: $?"', "cargo build"),
        ("cd a && make test || true", "make test"),
        ("ls && echo done > log.txt", "ls"),
        ("git status && :", "git status"),
        ("make && ./run.sh", "run.sh"),
        ("echo hi", None),
        ("cd x && echo hi", "echo hi"),  # a note after a cd alone is the output
        ("echo start && make", "make"),
    ],
)
def test_last_command(command: str, expected: str | None) -> None:
    assert last_command(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "cargo test --workspace",
        "git status",
        "npm run build -- --watch",
        "ls -la src/",
        "docker build -t app:1.2 .",
        "go test ./...",
    ],
)
def test_the_fast_path_agrees_with_the_analyzer(command: str) -> None:
    from tooldeck.shell_analysis.program import program_argv

    assert last_command(command) is None
    assert " ".join(program_argv(command)) == command


def test_the_shortcut_knows_every_wrapper_and_launcher() -> None:
    from tooldeck.filters.command import NEEDS_ANALYSIS
    from tooldeck.shell_analysis import WRAPPERS
    from tooldeck.shell_analysis.program import LAUNCHERS

    assert set(WRAPPERS) | LAUNCHERS <= NEEDS_ANALYSIS


def test_command_segment_of_plain_command_is_itself() -> None:
    assert command_segment("  cargo test  ") == "cargo test"


@pytest.mark.parametrize(
    ("matcher", "command", "matches"),
    [
        (
            CommandMatcher(MatchKind.PREFIX, "cargo "),
            "cd /some/path && cargo test --workspace --lib",
            True,
        ),
        (
            CommandMatcher(MatchKind.PREFIX, "cargo "),
            "cd /path && cargo clippy --workspace -- -D warnings 2>&1",
            True,
        ),
        (CommandMatcher(MatchKind.EXACT, "ls"), "cd /path && cargo test", False),
        (CommandMatcher(MatchKind.EXACT, "ls"), "ls -la", False),
        (CommandMatcher(MatchKind.EXACT, "ls"), "cd /x && ls", True),
        (CommandMatcher(MatchKind.PREFIX, "git "), "github", False),
        (CommandMatcher(MatchKind.PREFIX, "cargo test"), "cd /path && cargo test", True),
        (CommandMatcher(MatchKind.PREFIX, "cargo test"), "cargo test --lib", True),
        (CommandMatcher(MatchKind.PREFIX, "cargo test"), "cd /path && npm test", False),
        (
            CommandMatcher(MatchKind.REGEX, r"cargo\s+test"),
            "cd /workspace && cargo test --lib",
            True,
        ),
        (CommandMatcher(MatchKind.REGEX, r"^cargo\s+test"), "echo hi; cargo test", True),
    ],
)
def test_matchers(matcher: CommandMatcher, command: str, matches: bool) -> None:
    assert matcher.matches(command) is matches


@pytest.mark.parametrize(("text", "lines"), [("", 0), ("trailing\n", 1), ("a\nb", 2), ("a\n\n", 2)])
def test_count_lines(text: str, lines: int) -> None:
    assert count_lines(text) == lines


def test_lone_surrogates_become_replacement_characters() -> None:
    assert sanitize_output("bad \udcff byte") == "bad \ufffd byte"


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(
            [
                "python",
                "python3.12",
                "-m",
                "pytest",
                "uv",
                "run",
                "npx",
                "pnpm",
                "exec",
                "git",
                "--no-pager",
                "-C",
                "sudo",
                "-u",
                "env",
                "A=1",
                "timeout",
                "60",
                "&&",
                "|",
                ";",
                "'",
                '"',
                "$x",
                "(",
                ")",
                "--",
                "-x",
                "poetry",
                "tool",
                "uvx",
                "./.venv/bin/pip",
            ]
        )
        | st.text(max_size=6),
        max_size=10,
    )
)
def test_the_normaliser_never_raises(words: list[str]) -> None:
    from tooldeck.filters.command import normalized_command

    assert isinstance(normalized_command(" ".join(words)), str)
