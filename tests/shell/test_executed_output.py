"""A command that ran gives the model its output and exit code, whatever the output says.

An error category comes only from the tool failing (timeout, a command the shell could not
run: exit 126/127), never from words in what the program printed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory

FAILING_TEST = """
def test_reads_config():
    with open("missing/config.toml") as handle:
        assert handle.read()
"""


async def test_a_failing_pytest_run_mentioning_a_missing_file_is_output(
    make_deck: Any, helpers: Any, sandbox: Path
) -> None:
    (sandbox / "test_config.py").write_text(FAILING_TEST)
    command = f"{sys.executable} -m pytest -q -p no:cacheprovider test_config.py"
    result = await helpers.run(make_deck(""), command)
    assert result.ok, result.error
    assert result.output.exit_code == 1
    assert "No such file or directory" in result.output.summary
    assert "FAILED test_config.py::test_reads_config" in result.output.summary


@pytest.mark.parametrize(
    "command",
    [
        "echo 'cat: notes.txt: No such file or directory' >&2; exit 1",
        "echo 'open: Permission denied (while reading the fixture)' >&2; exit 2",
    ],
)
async def test_words_in_the_output_are_not_an_error(
    make_deck: Any, helpers: Any, command: str
) -> None:
    result = await helpers.run(make_deck(""), command)
    assert result.ok, result.error
    assert result.output.exit_code in (1, 2)


@pytest.mark.parametrize(
    ("command", "category"),
    [
        ("exit 126", ErrorCategory.POLICY_BLOCKED),
        ("no-such-tool-xyz", ErrorCategory.PERMANENT_FAILURE),
    ],
)
async def test_a_command_the_shell_could_not_run_is_an_error(
    make_deck: Any, helpers: Any, command: str, category: ErrorCategory
) -> None:
    result = await helpers.run(make_deck(""), command)
    assert result.error is not None and result.error.category is category


@pytest.mark.parametrize("view", ["cat notes.txt", "head -c 27 notes.txt; echo",
                                  "tail -n 1 notes.txt"])
async def test_spaces_ending_the_last_line_of_a_view_are_kept(
    make_deck: Any, helpers: Any, sandbox: Path, view: str
) -> None:
    # found replaying the minimist session: 'head -c 200 LICENSE; echo' lost the space its
    # last line ends with (the output was stripped of all trailing whitespace)
    (sandbox / "notes.txt").write_text("first line\nsecond line, to \n")
    result = await helpers.run(make_deck(""), view)
    assert result.ok, result.error
    assert result.output.summary.endswith("line, to "), repr(result.output.summary)


async def test_output_of_newlines_and_spaces_alone_is_no_output(
    make_deck: Any, helpers: Any
) -> None:
    blank = await helpers.run(make_deck(""), "printf '  \\n\\n'")
    plain = await helpers.run(make_deck(""), "true")
    assert blank.output.summary == plain.output.summary
