"""The built-in embedder of the schema filter: TF-IDF over the tool descriptions, no model.

Words are lowercase runs of letters and digits (a tool id's ``_`` splits it into words, and
the whole id counts as a word too), less common English function words (:data:`STOPWORDS`).
Each text becomes a sparse vector of ``tf * idf`` weights (``tf = 1 + log(count)``,
``idf = 1 + log((1 + N) / (1 + df))`` over the N tool documents), scaled to length 1, so the
dot product of two vectors is their cosine. A query word no tool uses carries no weight.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

__all__ = ["STOPWORDS", "LexicalIndex", "SparseVector", "sparse_cosine", "words"]

SparseVector = Mapping[str, float]
"""A sparse vector: weight by word, of length 1 (or empty)."""

STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "has", "have",
    "how", "i", "in", "into", "is", "it", "its", "me", "my", "no", "not", "of", "on", "one",
    "or", "our", "please", "so", "that", "the", "their", "them", "then", "there", "this", "to",
    "us", "was", "we", "what", "when", "which", "with", "you", "your",
})
"""Words too common to say anything about which tool fits."""

_WORD = re.compile(r"[a-z0-9]+")
_ID = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+")


def words(text: str) -> list[str]:
    """The words of ``text``: lowercase ASCII letter-and-digit runs, plus ``a_b`` ids whole."""
    lowered = text.lower()
    return [w for w in _WORD.findall(lowered) if w not in STOPWORDS] + _ID.findall(lowered)


def sparse_cosine(a: SparseVector, b: SparseVector) -> float:
    """The cosine of two unit-length sparse vectors (0 when either is empty)."""
    if len(a) > len(b):
        a, b = b, a
    # in a's order, so equal inputs give bit-equal scores in every process (string hashes vary)
    return sum([weight * b[word] for word, weight in a.items() if word in b])


class LexicalIndex:
    """TF-IDF vectors for a fixed set of documents, and for queries in the same space.

    :param documents: the texts that define the vocabulary and its weights.
    """

    def __init__(self, documents: Sequence[str]) -> None:
        counts = [Counter(words(doc)) for doc in documents]
        df: Counter[str] = Counter()
        for count in counts:
            df.update(count.keys())
        n = len(documents)
        self._idf = {word: 1.0 + math.log((1 + n) / (1 + d)) for word, d in df.items()}
        self.vectors: list[SparseVector] = [self._vector(c) for c in counts]
        """One vector per document, in order."""

    def _vector(self, count: Mapping[str, int]) -> SparseVector:
        weights = {w: (1.0 + math.log(c)) * self._idf[w]
                   for w, c in count.items() if w in self._idf}
        norm = math.sqrt(sum(v * v for v in weights.values()))
        return {w: v / norm for w, v in weights.items()} if norm else {}

    def embed(self, text: str) -> SparseVector:
        """The vector of ``text`` in this index's space."""
        return self._vector(Counter(words(text)))
