"""The classes behind the tenth corpus' tune misses: ``data/class_probes_tenth28.tsv``.

The tenth corpus (``tests/shell_corpus/tenth.tsv``) was measured on arrival, then its tune
half's misses and its one false alarm fixed by class: images named for attack tools, paths cut
into pieces, snap's service changes, and assignment text printed as data.
"""

from __future__ import annotations

from pathlib import Path

from .probe_rounds import (
    Row,
    read_rows,
    round_tests,
    verdicts_fixture,
    words_without_look_alikes,
)

DATA = Path(__file__).with_name("data") / "class_probes_tenth28.tsv"


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)
(test_every_dangerous_row_is_caught, test_look_alikes_keep_their_verdict,
 test_each_row_gets_its_documented_verdict) = round_tests(DATA)


def test_rows_are_distinct_and_have_look_alikes() -> None:
    rows = _rows()
    assert len({r[3] for r in rows}) == len(rows)
    probed = ("run", "snap", "$")
    assert words_without_look_alikes(rows, probed) == []
