"""A probe round's table: its rows, and what the default policy gets wrong on them.

A round is a TSV file under ``data/`` with the header ``class, expected, source, command``;
``expected`` is ``deny`` or ``ask`` for a dangerous row (caught: denied or asked), ``allow``
for a look-alike that must be allowed and ``asked`` for one that is asked on purpose. A command
may hold U+2424 (SYMBOL FOR NEWLINE) where it has a newline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

Row = tuple[str, str, str, str]
"""class, expected verdict, source, command."""

NEWLINE = "\u2424"


def read_rows(path: Path) -> list[Row]:
    """The rows of a round's table, its newline symbols turned back into newlines.

    :param path: the TSV file.
    :returns: the rows in file order.
    """
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    assert lines[0] == "class\texpected\tsource\tcommand"
    rows = []
    for line in lines[1:]:
        cls, expected, source, command = line.split("\t")
        rows.append((cls, expected, source, command.replace(NEWLINE, "\n")))
    return rows


def missed(rows: list[Row], judged: Mapping[str, str]) -> list[tuple[str, str]]:
    """The dangerous rows the policy allowed, as (class, command)."""
    return [(r[0], r[3]) for r in rows if r[1] in ("deny", "ask") and judged[r[3]] == "allow"]


def wrong_look_alikes(rows: list[Row], judged: Mapping[str, str]) -> list[tuple[str, str]]:
    """The look-alikes whose verdict is not the expected one, as (command, verdict)."""
    return [(r[3], judged[r[3]]) for r in rows
            if (r[1] == "allow" and judged[r[3]] != "allow")
            or (r[1] == "asked" and judged[r[3]] != "ask")]


def verdicts_fixture(data: Path) -> Any:
    """The module-scoped ``judged`` fixture of a round: each row's verdict under the default.

    A round's test module binds it once: ``judged = verdicts_fixture(DATA)``.

    :param data: the round's TSV file.
    :returns: the fixture.
    """

    @pytest.fixture(scope="module", name="judged")
    def judged(default_verdicts: Callable[[Sequence[str]], dict[str, str]]) -> dict[str, str]:
        return default_verdicts([row[3] for row in read_rows(data)])

    return judged


def table_problems(rows: list[Row], *, dangerous: int, look_alikes: int) -> list[str]:
    """What a round's table lacks: sources, distinct rows, enough of each, look-alikes per class.

    :param rows: the round's rows.
    :param dangerous: the fewest dangerous rows (``deny`` or ``ask``) it must hold.
    :param look_alikes: the fewest ``allow`` rows it must hold.
    :returns: one line per problem; empty when the table is complete.
    """
    problems = [f"no source: {r[3]!r}" for r in rows if not r[2].strip()]
    if len({r[3] for r in rows}) != len(rows):
        problems.append("a command appears twice")
    if sum(r[1] in ("deny", "ask") for r in rows) < dangerous:
        problems.append(f"fewer than {dangerous} dangerous rows")
    if sum(r[1] == "allow" for r in rows) < look_alikes:
        problems.append(f"fewer than {look_alikes} look-alikes")
    for cls in sorted({r[0] for r in rows}):
        if {r[1] in ("deny", "ask") for r in rows if r[0] == cls} != {True, False}:
            problems.append(f"class {cls!r} lacks a dangerous row or a look-alike")
    return problems


def round_tests(data: Path) -> tuple[Any, Any, Any]:
    """The three checks every round makes, as test functions its module binds to test names.

    ``test_every_dangerous_row_is_caught``, ``test_look_alikes_keep_their_verdict`` and
    ``test_each_row_gets_its_documented_verdict`` (a ``deny`` row denied, an ``ask`` row
    asked); each takes the round's ``judged`` fixture (:func:`verdicts_fixture`).

    :param data: the round's TSV file.
    :returns: the three test functions, in that order.
    """

    # (this module is no test module: pytest does not rewrite its asserts, so each names
    # what it found)
    def test_every_dangerous_row_is_caught(judged: dict[str, str]) -> None:
        found = missed(read_rows(data), judged)
        assert found == [], found

    def test_look_alikes_keep_their_verdict(judged: dict[str, str]) -> None:
        found = wrong_look_alikes(read_rows(data), judged)
        assert found == [], found

    def test_each_row_gets_its_documented_verdict(judged: dict[str, str]) -> None:
        wrong = [(r[3], r[1], judged[r[3]]) for r in read_rows(data)
                 if r[1] in ("deny", "ask") and judged[r[3]] != r[1]]
        assert wrong == [], wrong

    return (test_every_dangerous_row_is_caught, test_look_alikes_keep_their_verdict,
            test_each_row_gets_its_documented_verdict)


def words_without_look_alikes(rows: list[Row], words: Sequence[str]) -> list[str]:
    """The words of ``words`` that do not appear in both a dangerous row and a look-alike.

    :param rows: the round's rows.
    :param words: substrings each of which the round must probe both ways.
    :returns: the words lacking one side; empty when every word has both.
    """
    return [word for word in words
            if {r[1] in ("allow", "asked") for r in rows if word in r[3]} != {True, False}]
