"""The ``search_code`` tool as the model sees it, and its executor."""

from __future__ import annotations

import asyncio

import pydantic
from pydantic import Field

from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.code_search.search import definitions, merge, render, search_code
from tooldeck.plugins.files.code_search.semantic import CANDIDATES, VECTORS, VectorCache, rank
from tooldeck.runtime import CallContext
from tooldeck.workdir import working_directory

__all__ = ["EXECUTOR", "SEARCH_CODE", "SearchCodeExecutor", "SearchCodeParams"]

EXECUTOR = "search_code"


class SearchCodeParams(pydantic.BaseModel):
    """Parameters of ``search_code``."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    query: str | None = Field(None, description="Text to look for when no symbol is known "
                              "(also by meaning, when an embedder is configured).")
    symbol: str | None = Field(None, description="A name or part of one (any case): finds "
                               "its definitions in Python, JS/TS, Rust, Go, Java, C/C++, Bash.")
    file_pattern: str | None = Field(None, description="Only files matching this glob, "
                                     "e.g. **/*.py or src/**.")
    include_references: bool = Field(False, description="Also list uses of the symbol.")
    max_results: int = Field(10, ge=0, le=10_000,
                             description="Most results (clamped to 1..50, as Zeph does).")


SEARCH_CODE = ToolDef(
    id="search_code",
    description="Find where code is defined (by symbol name, structurally) or mentioned; "
    "results as path:lines with a snippet, ranked.",
    params=SearchCodeParams,
    executor=EXECUTOR,
    capabilities=frozenset({"read"}),
    input_param="symbol",
)
"""The tool; permission rules see ``symbol``."""


class SearchCodeExecutor:
    """Runs ``search_code`` inside the file tools' sandbox, in a worker thread.

    :param sandbox: the ``[tools.file]`` sandbox.
    :param max_file_bytes: ``[tools.file] max_read_bytes``.
    """

    name = EXECUTOR

    def __init__(self, sandbox: PathSandbox, max_file_bytes: int) -> None:
        self.sandbox = sandbox
        self.max_file_bytes = max_file_bytes

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Search; errors are raised as ToolError."""
        params = ctx.params
        assert isinstance(params, SearchCodeParams)
        cwd = working_directory(ctx.runtime, call.caller_id)
        sandbox = self.sandbox.with_cwd(cwd) if cwd is not None else self.sandbox
        matches = await asyncio.to_thread(
            search_code, sandbox, query=params.query, symbol=params.symbol,
            file_pattern=params.file_pattern, include_references=params.include_references,
            max_results=params.max_results, max_file_bytes=self.max_file_bytes)
        embed = ctx.runtime.hooks.embedder(ctx.runtime) if params.query else None
        if embed is not None and params.query:
            candidates = await asyncio.to_thread(
                definitions, sandbox, file_pattern=params.file_pattern,
                max_file_bytes=self.max_file_bytes, limit=CANDIDATES)
            cache = ctx.runtime.session.setdefault(VECTORS, VectorCache)
            semantic = await rank(embed, params.query.strip(), candidates, cache)
            matches = merge([*matches, *semantic], max(1, min(50, params.max_results)))
        raw = {"results": [
            {"file": m.shown, "line_start": m.line_start, "line_end": m.line_end,
             "snippet": m.snippet, "source": m.source, "score": m.score} for m in matches]}
        return ToolOutput(tool_name=call.tool_id, summary=render(matches), raw_response=raw,
                          locations=tuple(dict.fromkeys(m.path for m in matches)))
