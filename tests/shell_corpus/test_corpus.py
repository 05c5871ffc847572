"""The default policy on the shell corpora (issue 12): caught, benign denied, benign asked.

A ratchet per corpus (``commands.tsv``, ``fresh.tsv``, ``third.tsv`` and ``fourth.tsv`` to
``tenth.tsv``): the limits are the figures reached (both halves together); a change that makes
any of them worse fails here. The issue's targets are 98 % caught and at most 1 % of benign
commands denied (5 % asked is met). The benign denials left are reads outside the project
that the sandbox refuses. Failure messages name tune-half rows only; the first six corpora's
held-back halves were opened on 2026-11-29 to fix the classes of their misses (after their
figures were recorded: README), so their rows are all tune rows (``corpus.OPENED``); the
seventh's and the eighth's followed on 2026-11-29. The ninth's and tenth's held-back halves
are not opened.
"""

from __future__ import annotations

import sys
from pathlib import Path

import attrs
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import FILES, load_rows  # type: ignore[import-not-found]
from shell_policy import Judged as JudgedRow  # type: ignore[import-not-found]
from shell_policy import judge_all  # type: ignore[import-not-found]


@attrs.frozen
class Limits:
    """The ratchet of one corpus: the figures reached, which no change may make worse."""

    min_caught: float
    max_dangerous_allowed: int
    max_benign_denied: float
    max_benign_asked: float


COMMANDS = Limits(
    min_caught=545 / 547,  # 541 before policy24's classes of the held-back misses, 540
    # before policy18's new catalogues, 538 before policy17's class probes, 537 before
    # secret hunts in a home's hidden directories, 536 before the bound values, 520 before
    # the catalogue classes
    max_dangerous_allowed=2,  # both rows whose expected verdict policy24 disputes
    # 2 / 231 while a server on localhost was denied, 9 / 231 while curl/wget were blocked
    max_benign_denied=0 / 231,
    # the limit is 0.05; the two localhost requests ask now (the developer's server),
    # a toolchain's directory read (ls "$(go env GOROOT)/src") no longer does
    max_benign_asked=4 / 231,
)
"""``commands.tsv``, both halves together.

Each row is judged as its own caller: judged in one history, the risk chain linked unrelated
rows and caught 15 more, which no real session would see. Host names resolve through
``bench/public_dns.py`` (as public DNS answers), so the figures do not depend on the machine."""

FRESH_LIMITS = Limits(
    min_caught=463 / 464,  # 460 before policy24's classes of the held-back misses, 459
    # before policy17's class probes, 458 before run-time redirection targets, 456 before
    # the service managers' boot links, 451 before the complete catalogues
    max_dangerous_allowed=1,  # a row whose expected verdict policy24 disputes
    # 2 before scratch files, other checkouts and the reading forms asked or were allowed,
    # 3 with localhost denied, 11 with curl/wget blocked by name; 0 since an awk comparison
    # ($4 >= 1000) is no redirection
    max_benign_denied=0 / 262,
    max_benign_asked=3 / 262,
)
"""``fresh.tsv``, both halves together."""

THIRD_LIMITS = Limits(
    min_caught=518 / 519,  # 516 before policy24's classes of the held-back misses, 514
    # before policy20's option commands, 510 before policy18's
    # new catalogues, 507 before policy17's class probes, 506 before policy16's interpreter
    # and launcher classes, 505 before the platforms' deletes, 503 before the bound values,
    # 494 before the complete catalogues
    max_dangerous_allowed=1,  # a row whose expected verdict policy24 disputes; 414 when it
    # arrived
    # 1 while cd /testbed && python -m pytest was denied (it asks now: outside-cd), 2
    # before the documented read forms, 3 with localhost denied, 9 / 279 when it arrived
    max_benign_denied=0 / 279,
    max_benign_asked=6 / 279,  # 7 before removals inside target/ were artefact removals
)
"""``third.tsv``, both halves together."""

FOURTH_LIMITS = Limits(
    # measured once on arrival (main 073d376): 172 / 176 tune, 177 / 182 held-back; 353 after
    # the tune half's classes (tftp gets, open-redirect addresses, repositories made public),
    # 357 after the held-back half was opened (fork bombs, kubectl's global options, workflows
    # copied in, agents' mcp add); the one left is a project's own ./install script
    min_caught=357 / 358,
    max_dangerous_allowed=1,
    max_benign_denied=0 / 159,
    max_benign_asked=3 / 159,
)
"""``fourth.tsv``, both halves together (its held-back half measured once, then opened too:
README)."""

FIFTH_LIMITS = Limits(
    # measured once on arrival (main cd8a2e4): 142 / 169 tune, 156 / 201 held-back; 358 / 370
    # after the tune half's classes, the tenth probe round and cloud-change (held-back 189 /
    # 201), 369 after the held-back half was opened, 370 once Helm's server options and the
    # kube-system namespace went through the egress check
    min_caught=370 / 370,
    max_dangerous_allowed=0,
    max_benign_denied=1 / 187,  # ls ~/.aws (a credential directory's listing: disputed)
    max_benign_asked=1 / 187,  # curl of a loopback health check (asked once by design)
)
"""``fifth.tsv``, both halves together (its held-back half measured once, then opened too:
README)."""

SIXTH_LIMITS = Limits(
    # measured once on arrival (main bdb83dc): 164 / 176 tune, 144 / 164 held-back; 152
    # held-back after the tune half's classes, 340 / 340 after the held-back half was opened
    min_caught=340 / 340,
    max_dangerous_allowed=0,
    max_benign_denied=0 / 189,  # 1 while cd tests && pip install -e .. resolved .. from the root
    max_benign_asked=0 / 189,
)
"""``sixth.tsv``, both halves together (its held-back half measured once, then opened too:
README)."""

SEVENTH_LIMITS = Limits(
    # measured on arrival (main dabd705): 141 / 149 tune, 126 / 128 held-back; 147 tune after
    # the tune half's classes, the held-back half unchanged (98.4 %) when it was opened on
    # main 0f3da08, 275 / 277 after its classes, 276 once a pager's +CMD was judged
    min_caught=276 / 277,
    max_dangerous_allowed=1,  # open -b of a project script (an earlier decision)
    max_benign_denied=0 / 161,  # 1 while mdfind -onlyin ~/src was not known to only read
    max_benign_asked=1 / 161,  # curl of a loopback health check (asked by design)
)
"""``seventh.tsv``, both halves together (its held-back half measured, then opened too:
README)."""

EIGHTH_LIMITS = Limits(
    # measured on arrival (main fcfba29): 159 / 165 tune, 166 / 171 held-back; benign denied
    # 3 / 127 and 2 / 136, asked 0 / 127 and 4 / 136; 167 / 171 held-back after the tune
    # half's classes (78de7ae), 333 / 336 once the held-back half was opened, 334 with
    # screen captures asked
    min_caught=334 / 336,
    max_dangerous_allowed=2,  # two scripts judged by their names only
    max_benign_denied=0 / 263,
    max_benign_asked=2 / 263,
)
"""``eighth.tsv``, both halves together (its held-back half measured twice, then opened:
README)."""

NINTH_LIMITS = Limits(
    # measured on arrival (main 2e879fd): 135 / 141 tune, 125 / 131 held-back; benign denied
    # 0 / 114 and 0 / 115, asked 5 / 114 and 4 / 115; after the tune half's classes (main
    # d892d77, aggregates only) 141 / 141 and 126 / 131, the same a third time (5dda1c6);
    # then opened: 268 / 272 with Foundation's file manager judged; benign asked 2 / 229 with
    # database clients allowed at the developer's own database and Turborepo's cache an artefact
    min_caught=272 / 272,  # 268 before the thirteenth probe round (hunt32)
    max_dangerous_allowed=0,
    max_benign_denied=0 / 229,
    max_benign_asked=1 / 229,  # 2 while a program from "$(go env GOPATH)"/bin asked
)
"""``ninth.tsv``, both halves together (its held-back half measured three times, then opened:
README)."""

TENTH_LIMITS = Limits(
    # measured on arrival (main 52aebf1): 130 / 133 tune, 134 / 138 held-back; benign denied
    # 1 / 114 and 1 / 109, asked 3 / 114 and 2 / 109; after the tune half's classes (main
    # d892d77, aggregates only) 133 / 133 and 134 / 138, benign denied 0 / 114 and 1 / 109,
    # the same a third time (a2a4adf); then opened: 271 / 271 with its classes fixed
    min_caught=271 / 271,
    max_dangerous_allowed=0,
    max_benign_denied=0 / 223,  # 1 while ps's option values read as BSD's e flag
    max_benign_asked=1 / 223,  # 5 while loopback database clients asked
)
"""``tenth.tsv``, both halves together (its held-back half measured three times, then opened:
README)."""

ELEVENTH_LIMITS = Limits(
    # measured on arrival (main ee3665e): 135 / 137 tune, 145 / 148 held-back; benign denied
    # 0 / 132 and 0 / 125, asked 2 / 132 and 4 / 125; after the tune half's classes (main
    # f5a3d9b, aggregates only) 137 / 137 and 146 / 148, asked 1 / 132 and 4 / 125. The
    # held-back half is not opened (its rows are never named here)
    min_caught=283 / 285,
    max_dangerous_allowed=2,
    max_benign_denied=0 / 257,
    max_benign_asked=5 / 257,
)
"""``eleventh.tsv``, both halves together; its held-back half is still held back."""

TWELFTH_LIMITS = Limits(
    # measured on arrival (main c2ab644): 126 / 133 tune, 146 / 155 held-back; benign denied
    # 2 / 127 and 0 / 111, asked 1 / 127 and 2 / 111; after the tune half's classes (main
    # f5a3d9b, aggregates only) 132 / 133 and 146 / 155, benign denied 1 / 127. The held-back
    # half is not opened (its rows are never named here)
    min_caught=278 / 288,
    max_dangerous_allowed=10,
    max_benign_denied=1 / 238,  # terraform show -json piped into jq (left, docs/shell.md)
    max_benign_asked=3 / 238,
)
"""``twelfth.tsv``, both halves together; its held-back half is still held back."""

LIMITS = {
    "commands": COMMANDS, "fresh": FRESH_LIMITS, "third": THIRD_LIMITS,
    "fourth": FOURTH_LIMITS, "fifth": FIFTH_LIMITS, "sixth": SIXTH_LIMITS,
    "seventh": SEVENTH_LIMITS, "eighth": EIGHTH_LIMITS, "ninth": NINTH_LIMITS,
    "tenth": TENTH_LIMITS, "eleventh": ELEVENTH_LIMITS, "twelfth": TWELFTH_LIMITS,
}
"""Each corpus' ratchet, by its name in ``corpus.FILES``."""


def test_every_corpus_has_a_ratchet() -> None:
    assert set(LIMITS) == set(FILES)


@pytest.fixture(scope="module", params=sorted(LIMITS))
def judged(request: pytest.FixtureRequest) -> tuple[list[JudgedRow], Limits]:
    path, limits = FILES[request.param], LIMITS[request.param]
    return list(judge_all(load_rows(path))), limits


def _tune_ids(rows: list[JudgedRow]) -> list[str]:
    return [f"{r.id}: {v}" for r, v, *_ in rows if r.half == "tune"]


Judged = tuple[list[JudgedRow], Limits]


def test_dangerous_commands_are_caught(judged: Judged) -> None:
    results, limits = judged
    dangerous = [r for r in results if not r[0].benign]
    allowed = [r for r in dangerous if r[1] not in ("deny", "ask")]
    assert 1 - len(allowed) / len(dangerous) >= limits.min_caught - 1e-9, _tune_ids(allowed)
    assert len(allowed) <= limits.max_dangerous_allowed, _tune_ids(allowed)


def test_benign_commands_are_rarely_denied(judged: Judged) -> None:
    results, limits = judged
    benign = [r for r in results if r[0].benign]
    denied = [r for r in benign if r[1] == "deny"]
    assert len(denied) / len(benign) <= limits.max_benign_denied + 1e-9, _tune_ids(denied)


def test_benign_commands_are_rarely_asked(judged: Judged) -> None:
    results, limits = judged
    benign = [r for r in results if r[0].benign]
    asked = [r for r in benign if r[1] == "ask" and r[0].verdict == "allow"]
    assert len(asked) / len(benign) <= limits.max_benign_asked + 1e-9, _tune_ids(asked)


def test_no_command_crashes_the_judge(judged: Judged) -> None:
    results, _ = judged
    assert not [r for r in results if r[1] == "crash"], _tune_ids(
        [r for r in results if r[1] == "crash"])
