"""``memory_search`` by meaning, when a plugin supplies an embedder (``tooldeck_embedder``).

The schema filter's embedder hook serves memory too: with an embedder, a search ranks the
scope's newest notes (at most :data:`CANDIDATES`) by cosine similarity to the query, and a
note's vector is computed once per deck (kept in its session state, keyed by note id and the
embedder). Without one, ``memory_search`` ranks with SQLite's FTS5 (BM25), which needs no
model. An embedder that fails falls back to FTS5 for that search, so a search never fails for
want of a model.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tooldeck.schema_filter import Embed, cosine
from tooldeck.state import StashKey
from tooldeck.storage_api import MemoryBackend, Note

__all__ = ["CANDIDATES", "VECTORS", "VectorCache", "semantic_search"]

CANDIDATES = 500
"""The newest notes of a scope a semantic search compares (older ones: FTS5 only)."""


class VectorCache:
    """Note vectors already computed, by embedder and note id (one per deck).

    Embedders are compared by equality, so the same bound method fetched twice is one.
    """

    def __init__(self) -> None:
        self._vectors: dict[tuple[Embed, int], Sequence[float]] = {}

    def missing(self, embed: Embed, notes: Sequence[Note]) -> list[Note]:
        """The notes whose vector ``embed`` has not given yet."""
        return [note for note in notes if (embed, note.id) not in self._vectors]

    def put(self, embed: Embed, note: Note, vector: Sequence[float]) -> None:
        """Remember one note's vector."""
        self._vectors[(embed, note.id)] = vector

    def get(self, embed: Embed, note: Note) -> Sequence[float]:
        """A note's vector (empty when unknown: it then scores 0)."""
        return self._vectors.get((embed, note.id), ())


VECTORS: StashKey[VectorCache] = StashKey("memory.vectors")


async def semantic_search(embed: Embed, store: MemoryBackend, scope: str, query: str,
                          limit: int, cache: VectorCache) -> list[Note]:
    """The notes of ``scope`` closest in meaning to ``query``, best first.

    :param embed: the embedder.
    :param store: the note store.
    :param scope: whose notes.
    :param query: what to look for.
    :param limit: most notes returned.
    :param cache: vectors computed earlier in this deck.
    :returns: the notes with a positive similarity; FTS5's answer if the embedder fails.
    """
    notes = store.recent(scope, CANDIDATES)
    if not notes:
        return []
    try:
        todo = cache.missing(embed, notes)
        vectors = await embed([query, *(note.content for note in todo)])
        if len(vectors) != len(todo) + 1:
            raise ValueError(f"{len(vectors)} vectors for {len(todo) + 1} texts")
    except Exception as exc:  # ranking by words still answers the search
        print(f"tooldeck: memory_search embedder failed, ranking by words: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return store.search(scope, query, limit)
    for note, vector in zip(todo, vectors[1:], strict=True):
        cache.put(embed, note, vector)
    scored = [(cosine(vectors[0], cache.get(embed, note)), note) for note in notes]
    ranked = sorted((pair for pair in scored if pair[0] > 0), key=lambda pair: -pair[0])
    return [note for _, note in ranked[:limit]]
