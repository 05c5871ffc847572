"""The ``memory_save`` and ``memory_search`` tools and the executor that serves both."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING

import pydantic
from pydantic import Field

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.plugins.memory.semantic import VECTORS, VectorCache, semantic_search
from tooldeck.secrets import redact
from tooldeck.storage_api import MemoryBackend, Note

if TYPE_CHECKING:
    from tooldeck.plugins.memory.settings import MemorySettings
    from tooldeck.runtime import CallContext, Runtime

__all__ = [
    "EXECUTOR",
    "MEMORY_SAVE",
    "MEMORY_SEARCH",
    "MemoryExecutor",
    "MemorySaveParams",
    "MemorySearchParams",
    "scope_of",
]

EXECUTOR = "memory"
DEFAULT_SCOPE = "default"

StoreFor = Callable[["Runtime"], MemoryBackend]
"""Finds the store a runtime's calls use."""


class MemorySaveParams(pydantic.BaseModel):
    """Parameters of ``memory_save``."""

    model_config = pydantic.ConfigDict(extra="forbid")

    content: str = Field(min_length=1, description="The note to remember, in plain words.")
    tags: list[str] = Field(
        default_factory=list, max_length=16,
        description="Optional keywords to find the note by.",
    )


class MemorySearchParams(pydantic.BaseModel):
    """Parameters of ``memory_search``."""

    model_config = pydantic.ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=1000, description="Words to look for.")
    limit: int = Field(5, ge=1, le=200, description="Most notes to return.")


MEMORY_SAVE = ToolDef(
    id="memory_save",
    description="Remember a short note for later sessions (facts about the project, the "
    "user's preferences, decisions taken). Returns the note's id.",
    params=MemorySaveParams,
    executor=EXECUTOR,
    capabilities={"state"},
    input_param="content",
)
MEMORY_SEARCH = ToolDef(
    id="memory_search",
    description="Find notes saved earlier with memory_save, best match first.",
    params=MemorySearchParams,
    executor=EXECUTOR,
    capabilities={"read"},
    input_param="query",
)


def scope_of(call: ToolCall) -> str:
    """The scope a call's notes live in: its caller's, else the user's ``default`` one."""
    return f"caller:{call.caller_id}" if call.caller_id else DEFAULT_SCOPE


def _listing(notes: list[Note]) -> str:
    lines = []
    for note in notes:
        created = datetime.datetime.fromtimestamp(note.created, datetime.timezone.utc)
        day = created.strftime("%Y-%m-%d")
        tags = f" [{', '.join(note.tags)}]" if note.tags else ""
        lines.append(f"#{note.id} ({day}){tags}: {note.content}")
    return "\n".join(lines)


class MemoryExecutor:
    """Save and search notes in the caller's scope.

    :param store_for: finds the store for a runtime.
    :param settings: the ``[tools.memory]`` limits.
    """

    name = EXECUTOR

    def __init__(self, store_for: StoreFor, settings: MemorySettings) -> None:
        self._store_for = store_for
        self._settings = settings

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Run ``memory_save`` or ``memory_search``.

        :raises ToolError: ``invalid_parameters`` for a note over ``max_note_chars`` or a
            limit over ``max_results``.
        """
        store = self._store_for(ctx.runtime)
        params = ctx.params
        if isinstance(params, MemorySaveParams):
            return self._save(call, store, params)
        assert isinstance(params, MemorySearchParams)
        return await self._search(call, store, params, ctx)

    def _save(self, call: ToolCall, store: MemoryBackend, params: MemorySaveParams) -> ToolOutput:
        limit = self._settings.max_note_chars
        if len(params.content) > limit:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            f"note is {len(params.content)} characters; the limit is {limit}: "
                            "save the essentials, or several shorter notes")
        tags = tuple(dict.fromkeys(tag.strip() for tag in params.tags if tag.strip()))
        ident = store.save(scope_of(call), redact(params.content), tags,
                           keep=self._settings.max_notes)
        return ToolOutput(call.tool_id, f"saved note #{ident}", {"id": ident})

    @staticmethod
    def _vectors(runtime: Runtime) -> VectorCache:
        return runtime.session.setdefault(VECTORS, VectorCache)

    async def _search(
        self, call: ToolCall, store: MemoryBackend, params: MemorySearchParams, ctx: CallContext
    ) -> ToolOutput:
        most = self._settings.max_results
        if params.limit > most:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            f"limit {params.limit} is over the maximum of {most}")
        embed = ctx.runtime.hooks.embedder(ctx.runtime)
        if embed is None:
            notes = store.search(scope_of(call), params.query, params.limit)
        else:
            notes = await semantic_search(embed, store, scope_of(call), params.query,
                                          params.limit, self._vectors(ctx.runtime))
        if not notes:
            return ToolOutput(call.tool_id, "no notes match", {"notes": []})
        raw = {"notes": [{"id": n.id, "created": n.created, "tags": list(n.tags),
                          "content": n.content} for n in notes]}
        return ToolOutput(call.tool_id, _listing(notes), raw)
