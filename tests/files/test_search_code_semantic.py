"""``search_code``'s semantic layer: definitions ranked by meaning through a plugin's embedder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tooldeck import hookimpl
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall

SOURCE = '''def load_settings(path):
    """Read the configuration file."""
    return open(path).read()


def compute_total(items):
    return sum(items)
'''


class Concepts:
    """An embedder mapping words to concepts, so that synonyms share an axis."""

    AXES = {"settings": 0, "configuration": 0, "config": 0, "options": 0,
            "total": 1, "sum": 1, "amount": 1}

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.calls = 0

    async def embed(self, texts: Any) -> list[list[float]]:
        self.calls += 1
        if self.fail:
            raise RuntimeError("embedding service down")
        vectors = []
        for text in texts:
            vector = [0.0, 0.0]
            for word in text.lower().replace("_", " ").replace("(", " ").split():
                if word in self.AXES:
                    vector[self.AXES[word]] += 1.0
            vectors.append(vector)
        return vectors

    @hookimpl
    def tooldeck_embedder(self) -> Any:
        return self.embed


def deck_for(tmp_path: Path, embedder: Concepts | None) -> Deck:
    project = tmp_path / "proj"
    project.mkdir(exist_ok=True)
    (project / "app.py").write_text(SOURCE)
    text = (f"[tools.file]\nallowed_paths = [{json.dumps(str(project))}]\n"
            '[[tools.permissions.search_code]]\npattern = "*"\naction = "allow"\n')
    plugins = {"concepts": embedder} if embedder is not None else None
    return Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"),
                            extra_plugins=plugins)


async def search(deck: Deck, query: str) -> list[dict[str, Any]]:
    result = await deck.call(ToolCall("search_code", {"query": query}))
    assert result.output is not None, result.text
    return list(result.output.raw_response["results"])  # type: ignore[index]


async def test_an_embedder_finds_definitions_by_meaning(tmp_path: Path) -> None:
    concepts = Concepts()
    deck = deck_for(tmp_path, concepts)
    try:
        found = await search(deck, "where are the options read")  # no word of the code
        assert [(r["source"], r["line_start"]) for r in found] == [("semantic", 1)]
        assert 0.3 <= found[0]["score"] <= 1.0
        await search(deck, "options again")
        assert concepts.calls == 2  # the definitions' vectors were computed once
    finally:
        await deck.aclose()


async def test_without_an_embedder_only_words_match(tmp_path: Path) -> None:
    deck = deck_for(tmp_path, None)
    try:
        assert await search(deck, "where are the options read") == []
        assert [r["source"] for r in await search(deck, "configuration")] == ["grep fallback"]
    finally:
        await deck.aclose()


async def test_a_failing_embedder_leaves_the_other_layers(tmp_path: Path) -> None:
    deck = deck_for(tmp_path, Concepts(fail=True))
    try:
        assert [r["source"] for r in await search(deck, "configuration")] == ["grep fallback"]
    finally:
        await deck.aclose()
