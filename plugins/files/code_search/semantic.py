"""The semantic layer of ``search_code``: definitions ranked by meaning through a plugin's embedder.

With an embedder supplied through ``tooldeck_embedder`` (the hook the schema filter and
``memory_search`` use; nothing is downloaded by default), a ``query`` is also compared with
every definition tree-sitter finds (at most :data:`CANDIDATES`): the query and each
definition's first lines are embedded, and definitions whose cosine similarity reaches
:data:`MIN_SIMILARITY` join the results with the source ``semantic`` and the similarity as their
score. A definition's vector is computed once per deck while its snippet is unchanged. An
embedder that fails leaves the structural and grep results as they were.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import attrs

from tooldeck.plugins.files.code_search.search import CodeMatch
from tooldeck.schema_filter import Embed, cosine
from tooldeck.state import StashKey

__all__ = ["CANDIDATES", "MIN_SIMILARITY", "VECTORS", "VectorCache", "rank"]

CANDIDATES = 2000
"""Definitions compared with a query at most."""

MIN_SIMILARITY = 0.3
"""Below this, a definition is not shown as a semantic result."""


class VectorCache:
    """Definition vectors already computed, by embedder and definition text (one per deck)."""

    def __init__(self) -> None:
        self._vectors: dict[tuple[Embed, str, int, str], Sequence[float]] = {}

    @staticmethod
    def _key(embed: Embed, match: CodeMatch) -> tuple[Embed, str, int, str]:
        return (embed, match.path, match.line_start, match.snippet)

    def missing(self, embed: Embed, matches: Sequence[CodeMatch]) -> list[CodeMatch]:
        """The definitions whose vector ``embed`` has not given yet."""
        return [m for m in matches if self._key(embed, m) not in self._vectors]

    def put(self, embed: Embed, match: CodeMatch, vector: Sequence[float]) -> None:
        """Remember one definition's vector."""
        self._vectors[self._key(embed, match)] = vector

    def get(self, embed: Embed, match: CodeMatch) -> Sequence[float]:
        """A definition's vector (empty when unknown: it then scores 0)."""
        return self._vectors.get(self._key(embed, match), ())


VECTORS: StashKey[VectorCache] = StashKey("search_code.vectors")


async def rank(embed: Embed, query: str, candidates: Sequence[CodeMatch],
               cache: VectorCache) -> list[CodeMatch]:
    """The candidates similar enough to ``query``, scored by similarity, best first.

    :param embed: the embedder.
    :param query: the free-text query.
    :param candidates: definitions from :func:`~.search.definitions`.
    :param cache: vectors computed earlier in this deck.
    :returns: the semantic results; none when the embedder fails.
    """
    if not candidates:
        return []
    try:
        todo = cache.missing(embed, candidates)
        vectors = await embed([query, *(m.snippet for m in todo)])
        if len(vectors) != len(todo) + 1:
            raise ValueError(f"{len(vectors)} vectors for {len(todo) + 1} texts")
    except Exception as exc:  # the structural and grep layers still answer
        print(f"tooldeck: search_code embedder failed, no semantic results: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return []
    for match, vector in zip(todo, vectors[1:], strict=True):
        cache.put(embed, match, vector)
    scored = [(cosine(vectors[0], cache.get(embed, m)), m) for m in candidates]
    kept = [attrs.evolve(m, score=round(score, 2)) for score, m in scored
            if score >= MIN_SIMILARITY]
    return sorted(kept, key=lambda m: -m.score)
