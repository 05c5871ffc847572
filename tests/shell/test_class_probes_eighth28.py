"""The classes behind the eighth corpus' tune misses: ``data/class_probes_eighth28.tsv``.

The eighth corpus (``tests/shell_corpus/eighth.tsv``) was measured on arrival, then its tune
half's misses and false alarms fixed by class: AppleScript's power requests and login items,
code that takes the whole environment, coding agents' key files, macOS's ``nscurl``, the
project's program installed on the user's PATH, git's range and search values and
``defaults read``. A path outside the project that only programs of unknown effect are given
asks (``outside-unknown``) where it was denied, unless it is kept denied: a secret, a hidden
entry, a startup location, a system program or a whole tree.
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

DATA = Path(__file__).with_name("data") / "class_probes_eighth28.tsv"


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)
(test_every_dangerous_row_is_caught, test_look_alikes_keep_their_verdict,
 test_each_row_gets_its_documented_verdict) = round_tests(DATA)


def test_rows_are_distinct_and_have_look_alikes() -> None:
    rows = _rows()
    assert len({r[3] for r in rows}) == len(rows)
    probed = ("osascript", "process.env", "os.environ", "ENV", "nscurl", "cargo install",
              "go install", "cat ~/", "pandoc", "distrobox-enter", "esxcfg-advcfg", "sqlite3",
              "PlistBuddy", "git restore")
    assert words_without_look_alikes(rows, probed) == []



def test_unknown_programs_outside_ask_unless_kept_denied(judged: dict[str, str]) -> None:
    asked = [r[3] for r in _rows() if r[1] == "asked"]
    assert len(asked) >= 5
    assert [c for c in asked if judged[c] != "ask"] == []
