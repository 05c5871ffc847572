"""The classes behind the fourth corpus' misses: ``data/class_probes_fourth24.tsv``.

The fourth corpus (``tests/shell_corpus/fourth.tsv``) was written without seeing the rules;
its tune half missed four dangerous commands, its held-back half (measured, then opened)
four more. Their classes are fixed and probed here with other tools and spellings: a TFTP
client's get options (busybox ``tftp -g -r``, ``atftp --get``) saving a file that is then run,
a URL carried in another URL's query or fragment that a client following redirects may be
sent to (an open redirect to the metadata service), a repository made public with the GitHub
CLI, a fork bomb (a function calling itself twice or through a pipe), ``kubectl -n NS get
secret`` (global options before the verb), a CI workflow copied in from outside the project,
and an MCP server registered with an agent's or editor's CLI. The tune half's ``./install
--all``, a project's own script, is left to the script: running a project file is daily work.
"""

from __future__ import annotations

from pathlib import Path

from .probe_rounds import Row, missed, read_rows, verdicts_fixture, wrong_look_alikes

DATA = Path(__file__).with_name("data") / "class_probes_fourth24.tsv"


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)


def test_rows_are_distinct_and_have_look_alikes() -> None:
    rows = _rows()
    assert len({r[3] for r in rows}) == len(rows)
    for word in ("tftp", "curl", "gh ", "(){", "kubectl", "workflows", "mcp"):
        verdicts = {r[1] == "allow" for r in rows if word in r[3]}
        assert verdicts == {True, False}, word


def test_every_dangerous_row_is_caught(judged: dict[str, str]) -> None:
    assert missed(_rows(), judged) == []


def test_look_alikes_keep_their_verdict(judged: dict[str, str]) -> None:
    assert wrong_look_alikes(_rows(), judged) == []


def test_internal_destinations_are_denied_not_asked(judged: dict[str, str]) -> None:
    internal = [r[3] for r in _rows() if r[0] == "egress_internal"]
    assert len(internal) >= 8
    assert [c for c in internal if judged[c] != "deny"] == []
