"""Fixtures shared by the gate tests (policy enforcer, scopes, verifiers): decks built from the
embedded default config plus a body of TOML, in a tmp project.

A conftest imports the fixtures it needs: ``from tests.default_deck_fixtures import …``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory, made the current directory; the config lives in it."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def audit_log(tmp_path: Path) -> Callable[[], list[dict[str, Any]]]:
    """The tool_call records written so far."""
    path = tmp_path / "audit.jsonl"

    def read() -> list[dict[str, Any]]:
        if not path.exists():
            return []
        records = [json.loads(line) for line in path.read_text().splitlines()]
        return [r for r in records if r["kind"] == "tool_call"]

    return read


@pytest.fixture
async def make_deck(project: Path, tmp_path: Path) -> AsyncIterator[Callable[..., Deck]]:
    """Build a deck from the embedded default config plus ``body``; closed after the test."""
    decks: list[Deck] = []

    def make(body: str = "", extra_plugins: dict[str, object] | None = None,
             **kw: Any) -> Deck:
        path = project / "tooldeck.toml"
        audit = tmp_path / "audit.jsonl"
        path.write_text(f'{embedded_default_text()}\n[tools.audit]\npath = "{audit}"\n{body}')
        deck = Deck.from_config(path, extra_plugins=extra_plugins or {}, **kw)
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()
