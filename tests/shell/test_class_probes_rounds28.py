"""This session's four probe rounds, one table each under ``data/``.

- ``class_probes_opened28.tsv``: the seventh corpus' held-back classes once it was opened
  (code evaluated from text read at run time, JXA's URL loaders, ``launchctl kickstart -k``,
  launchd and directory-service names, ``mdfind``; a pager's ``+CMD``; Helm's and kubectl's
  API servers through egress).
- ``class_probes_eighth28.tsv``: the eighth corpus' tune classes (AppleScript's power requests
  and login items, code taking the whole environment, coding agents' key files, ``nscurl``,
  the project's program on the user's PATH, git's ranges and patterns, ``defaults read``), the
  ``outside-unknown`` rule with its kept-denied places, and then its held-back classes (file
  URIs, macOS's personal stores, ``PlistBuddy -c Print``, ``git restore --staged``, ``xcrun``).
- ``class_probes_ninth28.tsv``: the ninth corpus' tune classes (runc's ``/proc`` working
  directory, ``gh api`` access writes, security agents' uninstallers, secret families picked
  out of an environment dump, cloud copies' include filters).
- ``class_probes_tenth28.tsv``: the tenth corpus' tune classes (images named for attack tools,
  paths cut into pieces, snap's service changes, printed assignments).
- ``class_probes_ninth32.tsv``: the ninth corpus' held-back classes once it was opened
  (Foundation's file manager deleting and writing from JXA and Swift).
- ``class_probes_tenth32.tsv``: the tenth corpus' held-back classes once it was opened (rival
  miners and defence daemons signalled by name or looked-up pid, init scripts' uninstall, the
  OS keyring's API, ps's option values).
- ``class_probes_twelfth32.tsv``: the twelfth corpus' tune classes (the setuid X server's
  options, go's -exec, code changing a file's mode, EF Core's drop, Hex's and Snowflake's
  credentials, a redirection after a cd).
- ``class_probes_eleventh32.tsv``: the eleventh corpus' tune classes (recursive removals by
  their libraries' names, programs other ecosystems install for the user).

Each table's dangerous rows are caught with the verdict they document, its look-alikes keep
theirs, and every word it probes has both a dangerous row and a look-alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from .probe_rounds import Row, missed, read_rows, words_without_look_alikes, wrong_look_alikes

DATA = Path(__file__).with_name("data")
PROBED: dict[str, tuple[str, ...]] = {
    "opened28": ("ruby", "node", "lua", "osascript", "launchctl", "dscl", "mdfind", "less",
                 "more", "helm", "kubectl"),
    "eighth28": ("osascript", "process.env", "os.environ", "ENV", "nscurl", "cargo install",
                 "go install", "cat ~/", "pandoc", "distrobox-enter", "esxcfg-advcfg",
                 "sqlite3", "PlistBuddy", "git restore", "screencapture"),
    "ninth28": ("docker", "gh api", "uninst", "grep", "rclone", "aws s3"),
    "tenth28": ("run", "snap", "$"),
    "ninth32": ("osascript", "swift", "NSHomeDirectory", "writeToFile"),
    "eleventh32": ("perl", "ruby", "kotlin", "dotnet", "mix", "deno", "dart", "cabal", "stack"),
    "tenth32": ("pkill", "kill", "pgrep", "init.d", "keyring", "keytar"),
    "twelfth32": ("Xorg", "go ", "chmod", "dotnet ef", "hex", "cd web"),
}
"""Each round's table name and the words it must probe both ways."""

JudgedRound = tuple[str, list[Row], dict[str, str]]
"""A round's name, its rows and each row's verdict."""

@pytest.fixture(scope="module", params=sorted(PROBED))
def judged_round(request: pytest.FixtureRequest,
                 default_verdicts: Callable[[Sequence[str]], dict[str, str]]
                 ) -> JudgedRound:
    """A round's name, its rows and each row's verdict under the default policy."""
    rows = read_rows(DATA / f"class_probes_{request.param}.tsv")
    return request.param, rows, default_verdicts([r[3] for r in rows])


def test_every_dangerous_row_is_caught(judged_round: JudgedRound
                                       ) -> None:
    _, rows, judged = judged_round
    assert missed(rows, judged) == []


def test_look_alikes_keep_their_verdict(judged_round: JudgedRound
                                        ) -> None:
    _, rows, judged = judged_round
    assert wrong_look_alikes(rows, judged) == []


def test_each_row_gets_its_documented_verdict(
        judged_round: JudgedRound) -> None:
    _, rows, judged = judged_round
    assert [(r[3], r[1], judged[r[3]]) for r in rows
            if r[1] in ("deny", "ask") and judged[r[3]] != r[1]] == []


@pytest.mark.parametrize("name", sorted(PROBED))
def test_rows_are_distinct_and_have_look_alikes(name: str) -> None:
    rows = read_rows(DATA / f"class_probes_{name}.tsv")
    assert len({r[3] for r in rows}) == len(rows)
    assert words_without_look_alikes(rows, PROBED[name]) == []


def test_unknown_programs_outside_ask_unless_kept_denied(
        judged_round: JudgedRound) -> None:
    name, rows, judged = judged_round
    asked = [r[3] for r in rows if r[1] == "asked"]
    if name == "eighth28":  # the outside-unknown rows
        assert len(asked) >= 5
    assert [c for c in asked if judged[c] != "ask"] == []
