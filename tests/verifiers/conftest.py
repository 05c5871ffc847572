"""Fixtures for the verifier tests: decks built from config text in a tmp project."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.default_deck_fixtures import audit_log, make_deck, project
from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck

__all__ = ["audit_log", "make_deck", "project", "shared_deck", "shared_project"]


@pytest.fixture(scope="module")
def shared_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One project directory for the module, made the current directory while it runs."""
    root = tmp_path_factory.mktemp("shared") / "project"
    root.mkdir()
    before = os.getcwd()
    os.chdir(root)
    yield root
    os.chdir(before)


@pytest.fixture(scope="module")
def shared_deck(shared_project: Path) -> Iterator[Callable[[str], Deck]]:
    """Decks shared by the module's judge-only tests, one per config body (building is slow)."""
    decks: dict[str, Deck] = {}

    def get(body: str = "") -> Deck:
        if body not in decks:
            path = shared_project / f"tooldeck-{len(decks)}.toml"
            audit = shared_project / "audit.jsonl"
            path.write_text(f'{embedded_default_text()}\n[tools.audit]\npath = "{audit}"\n'
                            f"{body}")
            decks[body] = Deck.from_config(path, extra_plugins={})
        return decks[body]

    yield get
    for deck in decks.values():
        deck.close()
