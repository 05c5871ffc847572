"""The schema filter: which tool schemas to send with a request (``[agent.tool_filter]``).

With many tools, sending every schema costs tokens on every request and blurs the model's
choice. The filter keeps the tools relevant to the user's query, in this order:

=====================  ======================================================================
reason                 rule
=====================  ======================================================================
``always_on``          the tool is listed in ``always_on``
``name_mentioned``     the query names the tool: its id appears, any case, with no ASCII
                       letter, digit or ``_`` right before or after (``read`` is not
                       mentioned in "thread")
``short_description``  the description has fewer than ``min_description_words`` words (too
                       little to rank it by)
``similarity_rank``    among the remaining tools with an embedding, the ``top_k`` most
                       similar to the query (cosine; ``top_k = 0`` keeps them all)
``no_embedding``       the remaining tools that have no embedding
=====================  ======================================================================

Everything else is excluded. The embeddings come from :class:`~tooldeck.lexical.LexicalIndex`
(TF-IDF over the tools' ids and descriptions) unless an embedder is given. The dependency
graph (:mod:`tooldeck.dependencies`) then gates and boosts the result. Filtering is
cosmetic, like hiding: a call to a tool that was not sent still goes through every gate.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from tooldeck.lexical import LexicalIndex, SparseVector, sparse_cosine

if TYPE_CHECKING:
    from tooldeck.config import ToolFilterConfig
    from tooldeck.models import ToolDef

__all__ = [
    "Embed",
    "FilterResult",
    "Inclusion",
    "Reason",
    "SchemaFilter",
    "Vector",
    "cosine",
    "mentions",
    "select",
]

Vector = Sequence[float] | SparseVector
"""An embedding: dense (a list of floats) or sparse (weight by word, from the lexical index)."""

Embed = Callable[[Sequence[str]], Awaitable[Sequence[Sequence[float]]]]
"""``await embed(texts)``: one dense vector per text (an embeddings endpoint, a local model)."""


class Reason(str, enum.Enum):
    """Why a tool was sent."""

    ALWAYS_ON = "always_on"
    NAME_MENTIONED = "name_mentioned"
    SHORT_DESCRIPTION = "short_description"
    SIMILARITY_RANK = "similarity_rank"
    NO_EMBEDDING = "no_embedding"
    DEPENDENCY_MET = "dependency_met"
    PREFERENCE_BOOST = "preference_boost"


@attrs.frozen
class Inclusion:
    """A tool the filter keeps.

    :param tool_id: the tool.
    :param reasons: why, the inclusion rule first.
    :param score: the similarity (after boosts); 1 for rules that are certain, 0 for
        ``no_embedding``.
    """

    tool_id: str
    reasons: tuple[Reason, ...]
    score: float


@attrs.frozen
class FilterResult:
    """What one selection decided.

    :param included: the tools to send, best score first.
    :param excluded: the tools left out, in catalog order.
    :param dependency_exclusions: tools left out by the dependency graph, with the
        requirements they still miss.
    """

    included: tuple[Inclusion, ...]
    excluded: tuple[str, ...] = ()
    dependency_exclusions: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)

    @property
    def tool_ids(self) -> list[str]:
        """The ids of the included tools, in order."""
        return [inclusion.tool_id for inclusion in self.included]


def cosine(a: Vector, b: Vector) -> float:
    """The cosine similarity of two vectors; 0 when either is empty or their lengths differ.

    Dense vectors are compared element by element, sparse ones word by word.
    """
    # exact dicts first: the lexical index's vectors, where an ABC check per pair is the cost
    if type(a) is dict and type(b) is dict:
        return sparse_cosine(a, b)
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return sparse_cosine(a, b)
    if isinstance(a, Mapping) or isinstance(b, Mapping) or not a or len(a) != len(b):
        return 0.0
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def _is_word_char(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


def mentions(query: str, tool_id: str) -> bool:
    """Whether ``query`` names ``tool_id``: any case, not inside a longer word."""
    text, name = query.lower(), tool_id.lower()
    start = text.find(name)
    while start >= 0:
        end = start + len(name)
        before = text[start - 1] if start else ""
        after = text[end] if end < len(text) else ""
        if not (before and _is_word_char(before)) and not (after and _is_word_char(after)):
            return True
        start = text.find(name, start + 1)
    return False


def select(query: str, tools: Sequence[ToolDef], config: ToolFilterConfig,
           vectors: Mapping[str, Vector], query_vector: Vector) -> FilterResult:
    """Apply the rules of the table above.

    :param query: the user's request.
    :param tools: the catalog, in order.
    :param config: ``[agent.tool_filter]``.
    :param vectors: each tool's embedding, by id (a tool without one is ``no_embedding``).
    :param query_vector: the query's embedding.
    """
    included: list[Inclusion] = []
    ranked: list[tuple[float, int, str]] = []
    unembedded: list[str] = []
    for position, tool in enumerate(tools):
        if tool.id in config.always_on:
            included.append(Inclusion(tool.id, (Reason.ALWAYS_ON,), 1.0))
        elif mentions(query, tool.id):
            included.append(Inclusion(tool.id, (Reason.NAME_MENTIONED,), 1.0))
        elif len(tool.description.split()) < config.min_description_words:
            included.append(Inclusion(tool.id, (Reason.SHORT_DESCRIPTION,), 1.0))
        elif tool.id in vectors:
            ranked.append((cosine(query_vector, vectors[tool.id]), position, tool.id))
        else:
            unembedded.append(tool.id)
    ranked.sort(key=lambda item: (-item[0], item[1]))
    keep = ranked if config.top_k == 0 else ranked[: config.top_k]
    included += [Inclusion(tid, (Reason.SIMILARITY_RANK,), score) for score, _p, tid in keep]
    included += [Inclusion(tid, (Reason.NO_EMBEDDING,), 0.0) for tid in unembedded]
    kept = {inclusion.tool_id for inclusion in included}
    return FilterResult(tuple(included), tuple(t.id for t in tools if t.id not in kept))


def _document(tool: ToolDef) -> str:
    return f"{tool.id} {tool.description}"


class SchemaFilter:
    """Selects tools for queries, keeping the tools' embeddings between calls.

    :param config: ``[agent.tool_filter]``.
    :param embed: an embedder for dense vectors; ``None`` uses the lexical index.
    """

    def __init__(self, config: ToolFilterConfig, embed: Embed | None = None) -> None:
        self.config = config
        self.embed = embed
        """The embedder, or ``None`` for the lexical index."""
        self._documents: tuple[str, ...] | None = None
        self._vectors: dict[str, Vector] = {}
        self._index: LexicalIndex | None = None
        self.version = 0
        """Bumped each time the tools' embeddings are computed again."""

    async def _prepare(self, tools: Sequence[ToolDef]) -> None:
        documents = tuple(_document(tool) for tool in tools)
        if documents == self._documents:
            return
        if self.embed is None:
            self._index = LexicalIndex(documents)
            vectors: Sequence[Vector] = self._index.vectors
        else:
            vectors = list(await self.embed(documents))
            if len(vectors) != len(documents):
                raise ValueError(f"the embedder returned {len(vectors)} vectors for "
                                 f"{len(documents)} tools")
        pairs = zip(tools, vectors, strict=True)
        self._vectors = {tool.id: vector for tool, vector in pairs if vector}
        self._documents = documents
        self.version += 1

    async def select(self, query: str, tools: Sequence[ToolDef]) -> FilterResult:
        """The tools to send for ``query`` (see :func:`select`).

        :param query: the user's request.
        :param tools: the catalog the deck offers now.
        """
        await self._prepare(tools)
        if self._index is not None:
            query_vector: Vector = self._index.embed(query)
        else:
            assert self.embed is not None
            (query_vector,) = await self.embed([query])
        return select(query, tools, self.config, self._vectors, query_vector)
