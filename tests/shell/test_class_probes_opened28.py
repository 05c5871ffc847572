"""The classes behind the seventh corpus' held-back misses: ``data/class_probes_opened28.tsv``.

The seventh corpus (``tests/shell_corpus/seventh.tsv``) was measured with its held-back half
unread (98.4 % caught, 1 of 91 benign denied, 3 asked); the half was then opened and its misses
and false alarms fixed by class: code evaluated from text read at run time asks, JXA's URL
loaders are network code, ``launchctl kickstart -k`` is a restart, and launchd targets,
directory-service records and Spotlight searches are no paths to refuse. Two rows left
last session follow: a pager's ``+!CMD`` is judged as vim's ``+CMD``, and Helm's and
kubectl's API server options go through the egress check.
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

DATA = Path(__file__).with_name("data") / "class_probes_opened28.tsv"


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)
(test_every_dangerous_row_is_caught, test_look_alikes_keep_their_verdict,
 test_each_row_gets_its_documented_verdict) = round_tests(DATA)


def test_rows_are_distinct_and_have_look_alikes() -> None:
    rows = _rows()
    assert len({r[3] for r in rows}) == len(rows)
    probed = ("ruby", "node", "lua", "osascript", "launchctl", "dscl", "mdfind", "less", "more",
              "helm", "kubectl")
    assert words_without_look_alikes(rows, probed) == []

