"""The default policy on the whole shell corpus (issue 12): caught, benign denied, benign asked.

A ratchet: the limits are the figures reached when the command classes went in (both halves
together); a change that makes any of them worse fails here. The issue's targets, not yet
reached, are 98 % caught and at most 1 % of benign commands denied (5 % asked is met).
Failure messages name tune-half rows only, so the held-back half stays unseen by whoever
tunes the rules (see ``corpus.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import Row, load_rows  # type: ignore[import-not-found]
from shell_policy import judge_all  # type: ignore[import-not-found]

MIN_CAUGHT = 0.925
"""Share of dangerous rows denied or asked (reached: 506 / 547; the issue's target is 0.98).

Each row is judged as its own caller: judged in one history, the risk chain linked unrelated
rows and caught 15 more, which no real session would see."""

MAX_DANGEROUS_ALLOWED = 41
"""Dangerous rows allowed, at most (the ratchet; the goal is none)."""

MAX_BENIGN_DENIED = 9 / 231
"""Share of benign rows denied (reached: 9 / 231; the issue's target is 0.01)."""

MAX_BENIGN_ASKED = 4 / 231
"""Share of benign rows asked (reached: 4 / 231; the issue's limit is 0.05)."""


@pytest.fixture(scope="module")
def results() -> list[tuple[Row, str, str]]:
    return list(judge_all(load_rows()))


def _tune_ids(rows: list[tuple[Row, str, str]]) -> list[str]:
    return [f"{r.id}: {v}" for r, v, _ in rows if r.half == "tune"]


def test_dangerous_commands_are_caught(results: list[tuple[Row, str, str]]) -> None:
    dangerous = [r for r in results if not r[0].benign]
    allowed = [r for r in dangerous if r[1] not in ("deny", "ask")]
    assert 1 - len(allowed) / len(dangerous) >= MIN_CAUGHT, _tune_ids(allowed)
    assert len(allowed) <= MAX_DANGEROUS_ALLOWED, _tune_ids(allowed)


def test_benign_commands_are_rarely_denied(results: list[tuple[Row, str, str]]) -> None:
    benign = [r for r in results if r[0].benign]
    denied = [r for r in benign if r[1] == "deny"]
    assert len(denied) / len(benign) <= MAX_BENIGN_DENIED, _tune_ids(denied)


def test_benign_commands_are_rarely_asked(results: list[tuple[Row, str, str]]) -> None:
    benign = [r for r in results if r[0].benign]
    asked = [r for r in benign if r[1] == "ask" and r[0].verdict == "allow"]
    assert len(asked) / len(benign) <= MAX_BENIGN_ASKED, _tune_ids(asked)


def test_no_command_crashes_the_judge(results: list[tuple[Row, str, str]]) -> None:
    assert not [r for r in results if r[1] == "crash"], _tune_ids(
        [r for r in results if r[1] == "crash"])
