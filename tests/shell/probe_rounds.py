"""A probe round's table: its rows, and what the default policy gets wrong on them.

A round is a TSV file under ``data/`` with the header ``class, expected, source, command``;
``expected`` is ``deny`` or ``ask`` for a dangerous row (caught: denied or asked), ``allow``
for a look-alike that must be allowed and ``asked`` for one that is asked on purpose. A command
may hold U+2424 (SYMBOL FOR NEWLINE) where it has a newline.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

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
