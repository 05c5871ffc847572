"""Fixtures for the risk chain tests: decks built from config text in a tmp project."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory, made the current directory."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.fixture
async def make_deck(project: Path, tmp_path: Path) -> AsyncIterator[Callable[..., Deck]]:
    """Build a deck from the embedded default config plus ``body``; closed after the test."""
    decks: list[Deck] = []

    def make(body: str = "") -> Deck:
        path = tmp_path / "conf" / "tooldeck.toml"
        path.parent.mkdir(exist_ok=True)
        audit = tmp_path / "audit.jsonl"
        path.write_text(f'{embedded_default_text()}\n[tools.audit]\npath = "{audit}"\n{body}')
        deck = Deck.from_config(path, extra_plugins={})
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()
