"""The memory plugin: notes saved, ranked, scoped, capped, redacted, and kept across decks."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck import hookimpl
from tooldeck.config import parse_document
from tooldeck.deck import Deck, ToolResult
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.plugins.memory.store import MemoryStore, search_terms

MakeDeck = Callable[..., Deck]
ALLOW = "".join(f'[[tools.permissions.{tool}]]\npattern = "*"\naction = "allow"\n'
                for tool in ("memory_save", "memory_search"))


@pytest.fixture
async def make_deck(tmp_path: Path) -> AsyncIterator[MakeDeck]:
    decks: list[Deck] = []

    def make(extra: str = "") -> Deck:
        text = (f"[tools.memory]\npath = {json.dumps(str(tmp_path / 'memory.sqlite3'))}\n"
                f"{extra}\n{ALLOW}")
        deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()


async def save(deck: Deck, content: str, tags: list[str] | None = None,
               caller: str | None = None) -> ToolResult:
    params: dict[str, object] = {"content": content}
    if tags is not None:
        params["tags"] = tags
    return await deck.call(ToolCall("memory_save", params, caller_id=caller))


async def search(deck: Deck, query: str, limit: int = 5, caller: str | None = None) -> str:
    result = await deck.call(ToolCall("memory_search", {"query": query, "limit": limit},
                                      caller_id=caller))
    assert result.output is not None, result.text
    return result.output.summary


async def test_a_saved_note_is_found_best_match_first(make_deck: MakeDeck) -> None:
    deck = make_deck()
    assert (await save(deck, "the CI runs on Python 3.11", ["ci"])).ok
    assert (await save(deck, "the user prefers tabs over spaces")).ok
    assert (await save(deck, "Python version pinned because the CI image is old")).ok
    found = (await search(deck, "which python version does CI use")).split("\n")
    assert len(found) == 2
    assert "pinned because the CI image" in found[0]  # python, version, ci: three words match
    assert "[ci]: the CI runs on Python 3.11" in found[1]
    assert await search(deck, "kubernetes") == "no notes match"


async def test_notes_survive_the_deck(make_deck: MakeDeck) -> None:
    first = make_deck()
    await save(first, "deploys go through the staging cluster first")
    await first.aclose()
    assert "staging cluster" in await search(make_deck(), "staging")


async def test_callers_do_not_see_each_others_notes(make_deck: MakeDeck) -> None:
    deck = make_deck()
    await save(deck, "alice's project uses poetry", caller="alice")
    await save(deck, "bob's project uses uv", caller="bob")
    assert "poetry" in await search(deck, "project", caller="alice")
    assert "uv" not in await search(deck, "project", caller="alice")
    assert await search(deck, "project") == "no notes match"  # the default scope is apart too


async def test_a_secret_is_redacted_before_it_is_stored(make_deck: MakeDeck,
                                                        tmp_path: Path) -> None:
    deck = make_deck()
    token = "ghp_" + "a1B2c3D4e5" * 4
    await save(deck, f"the deploy token is {token}")
    assert token not in await search(deck, "deploy token")
    await deck.aclose()
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("memory.sqlite3*"))
    assert token.encode() not in stored


async def test_limits_refuse_rather_than_cut(make_deck: MakeDeck) -> None:
    deck = make_deck("max_note_chars = 20\nmax_results = 3\n")
    long_note = await save(deck, "x" * 21)
    assert long_note.error is not None
    assert long_note.error.category is ErrorCategory.INVALID_PARAMETERS
    assert "limit is 20" in long_note.error.message
    result = await deck.call(ToolCall("memory_search", {"query": "x", "limit": 4}))
    assert result.error is not None and "maximum of 3" in result.error.message


async def test_the_oldest_notes_go_past_the_cap(make_deck: MakeDeck) -> None:
    deck = make_deck("max_notes = 3\n")
    for i in range(5):
        await save(deck, f"note number {i} about caching")
    found = await search(deck, "caching", limit=10)
    assert [f"note number {i}" in found for i in range(5)] == [False, False, True, True, True]


async def test_disabled_memory_leaves_the_catalog(make_deck: MakeDeck) -> None:
    deck = make_deck("enabled = false\n")
    assert "memory_save" not in deck.runtime.tools
    result = await save(deck, "anything")
    assert result.error is not None


def test_the_database_is_private(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "sub" / "memory.sqlite3")
    store.close()
    assert stat.S_IMODE(os.stat(tmp_path / "sub" / "memory.sqlite3").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(tmp_path / "sub").st_mode) == 0o700


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.text(max_size=80))
def test_no_query_can_fail_or_escape_its_scope(tmp_path_factory: pytest.TempPathFactory,
                                               query: str) -> None:
    """FTS5 syntax in a query (quotes, NEAR, *, column filters) is only ever plain words."""
    path = tmp_path_factory.getbasetemp() / "fuzz.sqlite3"
    store = MemoryStore(path)
    try:
        if not store.count("other"):
            store.save("other", "secret plans of another caller NEAR x*", (), keep=10)
        found = store.search("mine", query, 5)
        assert found == []
        terms = search_terms(query)
        assert terms is None or all(t.startswith('"') and t.endswith('"')
                                    for t in terms.split(" OR "))
    finally:
        store.close()


class _Concepts:
    """A plugin embedder mapping words to concepts, so synonyms share a vector axis."""

    AXES = {"car": 0, "automobile": 0, "vehicle": 0, "deploy": 1, "release": 1, "ship": 1,
            "database": 2, "postgres": 2}

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.texts: list[str] = []

    async def embed(self, texts: Any) -> list[list[float]]:
        if self.fail:
            raise RuntimeError("embedding service down")
        self.texts += list(texts)
        vectors = []
        for text in texts:
            vector = [0.0, 0.0, 0.0]
            for word in text.lower().replace(".", " ").split():
                if word in self.AXES:
                    vector[self.AXES[word]] += 1.0
            vectors.append(vector)
        return vectors

    @hookimpl
    def tooldeck_embedder(self) -> Any:
        return self.embed


async def test_an_embedder_plugin_makes_the_search_semantic(tmp_path: Path) -> None:
    concepts = _Concepts()
    text = (f"[tools.memory]\npath = {json.dumps(str(tmp_path / 'memory.sqlite3'))}\n{ALLOW}")
    deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"),
                            extra_plugins={"concepts": concepts})
    try:
        await save(deck, "we ship every friday after the tests pass")
        await save(deck, "the automobile fleet data lives in postgres")
        found = await search(deck, "when do we release")  # no word in common with the note
        assert found.split("\n")[0].endswith("we ship every friday after the tests pass")
        assert "automobile" not in found  # no shared concept: not listed
        await search(deck, "release again")
        assert concepts.texts.count("we ship every friday after the tests pass") == 1  # cached
    finally:
        await deck.aclose()


async def test_a_failing_embedder_falls_back_to_words(tmp_path: Path) -> None:
    text = (f"[tools.memory]\npath = {json.dumps(str(tmp_path / 'memory.sqlite3'))}\n{ALLOW}")
    deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"),
                            extra_plugins={"concepts": _Concepts(fail=True)})
    try:
        await save(deck, "the staging cluster runs on arm64")
        assert "arm64" in await search(deck, "staging")
    finally:
        await deck.aclose()
