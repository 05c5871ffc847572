"""A project directory with a ``skills/`` folder, and decks built on it."""

from __future__ import annotations

import json
import textwrap
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tooldeck.deck import Deck

MakeDeck = Callable[..., Deck]

SAY = """\
---
name: greet
description: Greets people by name.
allowed-tools: [bash]
tools:
  - name: say
    description: Print a greeting, one NUL-terminated word per argument.
    tool: bash
    params:
      command: printf '%s\\0' hello {who}
    args:
      - name: who
        description: whom to greet
---
Greet with `skill_greet__say`.
"""

BASH_ALLOWED = """
[[tools.permissions.bash]]
pattern = "*"
action = "allow"
"""

SAY_ALLOWED = """
[[tools.permissions.skill_greet__say]]
pattern = "*"
action = "allow"
"""

TRUSTED_GREET = """
[tools.trust]
sources = { "skill:greet" = "verified" }
"""


def write_skill(root: Path, name: str, text: str) -> Path:
    """Write ``root/skills/<name>/SKILL.md`` (dedented) and return its path."""
    path = root / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


async def _no_wait() -> None:
    """The settle interval, driven by the test: nothing to wait for."""


@pytest.fixture
async def make_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[MakeDeck]:
    """Build decks on ``tmp_path/tooldeck.toml`` (the project directory is the cwd)."""
    monkeypatch.chdir(tmp_path)
    decks: list[Deck] = []

    def make(toml: str = "") -> Deck:
        config = tmp_path / "tooldeck.toml"
        config.write_text("[tools.skills]\nuser_dir = false\n" + toml, encoding="utf-8")
        audit = json.dumps(str(tmp_path / "audit.jsonl"))  # a TOML string
        deck = Deck.from_config(config, environ={"TOOLDECK_TOOLS_AUDIT_PATH": audit},
                                settle_wait=_no_wait)
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()
