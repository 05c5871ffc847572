"""Loader of the filter corpus: every output with its answer key, and its fixed half.

The split lives here and nowhere else: an output is ``tune`` when the first byte of the
SHA-256 of its path relative to ``outputs/`` (e.g. ``git/status-mixed.txt``) is even, else
``held-back``. Rules may be written and tuned only on ``tune`` outputs; held-back outputs are
looked at only through aggregate numbers.

A fact is kept when it is a substring of one ``\\n``-separated line of the text the model
receives, after removing ANSI escapes with :data:`ANSI` (the regex the answer keys were
checked with).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

OUTPUTS = Path(__file__).resolve().parent / "outputs"
TUNE = "tune"
HELD_BACK = "held-back"
ANSI = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]"
)


OPENED: frozenset[str] = frozenset({"dpkg/list-huge.txt"})
"""Held-back outputs a rule was measured against while it was written, tune from then on:
the ``dpkg-table`` rule's two designs were compared on this listing's lost facts (2026-11-29)."""


def half_of(relative: str) -> str:
    """The half an output belongs to (by a hash of its path, unless :data:`OPENED`).

    :param relative: the ``.txt`` path relative to ``outputs/``, with ``/`` separators.
    :returns: :data:`TUNE` or :data:`HELD_BACK`.
    """
    if relative in OPENED:
        return TUNE
    return TUNE if hashlib.sha256(relative.encode()).digest()[0] % 2 == 0 else HELD_BACK


@dataclass(frozen=True)
class Case:
    """One corpus output and its answer key."""

    relative: str
    command: str
    exit_code: int | None
    facts: tuple[str, ...]
    text: str
    half: str

    @property
    def tool(self) -> str:
        """The tool directory the output sits in."""
        return self.relative.split("/", 1)[0]


def load_cases(half: str | None = None) -> Iterator[Case]:
    """Every case, sorted by path; only one half when ``half`` is given.

    :param half: :data:`TUNE`, :data:`HELD_BACK` or ``None`` for both.
    :returns: the cases.
    """
    for path in sorted(OUTPUTS.glob("*/*.txt")):
        relative = path.relative_to(OUTPUTS).as_posix()
        case_half = half_of(relative)
        if half is not None and case_half != half:
            continue
        key = json.loads(path.with_suffix(".json").read_text("utf-8"))
        yield Case(
            relative=relative,
            command=key["command"],
            exit_code=key.get("exit_code"),
            facts=tuple(key.get("facts", ())),
            text=path.read_bytes().decode("utf-8", "replace"),
            half=case_half,
        )


def lost_facts(case: Case, received: str) -> list[str]:
    """The facts of ``case`` that are not a substring of any line of ``received``.

    :param case: the case.
    :param received: the text the model receives.
    :returns: the missing facts, in key order.
    """
    lines = ANSI.sub("", received).split("\n")
    return [fact for fact in case.facts if not any(fact in line for line in lines)]
