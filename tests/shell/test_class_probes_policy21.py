"""The sixth probe round (policy21): ``data/class_probes_policy21.tsv``.

Rows written from Datadog's default runtime policy, Panther's detections, and the manual
pages of the programs that take a command as one string, from a file or on input, of the
tools that print a file without being readers, and of bash's spellings; benign look-alikes
from the CI steps of the session replay's checkouts, public dotfiles and each manual's
ordinary use. Every dangerous row must be caught (denied or asked), every ``allow`` row
allowed and every ``asked`` row asked (a documented ask such as a redirect to ``$VAR``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .probe_rounds import Row, missed, read_rows, verdicts_fixture, wrong_look_alikes

DATA = Path(__file__).with_name("data") / "class_probes_policy21.tsv"
SOURCES = ("Datadog default.policy ", "Panther ", "manual ", "flask ", "requests ", "semver ",
           "commander ", "joshughes/dotfiles ", "rcmx/dotfiles ", "Joey-Jiao/tectonic ",
           "public dotfiles ")
"""Each row names the catalogue entry, manual page or real usage it was written from."""


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)


def test_rows_name_their_source_and_are_distinct() -> None:
    rows = _rows()
    assert [r[3] for r in rows if not r[2].startswith(SOURCES)] == []
    assert len({r[3] for r in rows}) == len(rows)
    assert {r[1] for r in rows} == {"deny", "ask", "allow", "asked"}


def test_each_class_the_held_back_halves_miss_is_probed_widely() -> None:
    dangerous = Counter(r[0] for r in _rows() if r[1] in ("deny", "ask"))
    for cls in ("launcher", "download_exec", "link_escape", "secret_read", "obfuscation"):
        assert dangerous[cls] >= 30, cls


def test_datadog_rows_have_look_alikes() -> None:
    verdicts = {r[1] != "allow" for r in _rows() if r[2].startswith("Datadog default.policy ")}
    assert verdicts == {True, False}


def test_every_dangerous_row_is_caught(judged: dict[str, str]) -> None:
    assert missed(_rows(), judged) == []


def test_look_alikes_keep_their_verdict(judged: dict[str, str]) -> None:
    assert wrong_look_alikes(_rows(), judged) == []
