"""The ``compress_context`` tool: summarise the loop's older messages into its knowledge block."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pydantic
from pydantic import Field

from tooldeck.context_compression import (
    COMPRESS_CONTEXT,
    active_request,
    summarizing,
    summarizing_now,
    transcript,
)
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.plugins.compress_context.settings import CompressContextSettings
from tooldeck.safe_json import safe_repr

if TYPE_CHECKING:
    from tooldeck.runtime import CallContext

__all__ = ["COMPRESS_CONTEXT_TOOL", "EXECUTOR", "CompressContextExecutor",
           "CompressContextParams"]

EXECUTOR = "compress_context"
_UNCHANGED = "the conversation is unchanged"


class CompressContextParams(pydantic.BaseModel):
    """Parameters of ``compress_context``."""

    model_config = pydantic.ConfigDict(extra="forbid")

    focus: str | None = Field(
        None, max_length=2000,
        description="What the summary must keep above all (optional).",
    )


COMPRESS_CONTEXT_TOOL = ToolDef(
    id=COMPRESS_CONTEXT,
    description="Summarise the conversation so far into your knowledge block and drop the "
    "messages it covers, to free context space. The summary is appended to the knowledge "
    "block (earlier summaries stay); this call and its results are kept.",
    params=CompressContextParams,
    executor=EXECUTOR,
    capabilities={"network"},
)


class CompressContextExecutor:
    """Write a summary of the active loop round's compressible messages (see the module)."""

    name = EXECUTOR

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Have the summariser summarise the messages and leave the summary to the loop.

        :raises ToolError: ``permanent_failure`` inside a summary, outside a tool loop or
            without a summariser; ``invalid_parameters`` when there is nothing to compress
            or this round already compressed; the summariser's own error when it fails.
            In every failing case the conversation stays as it was.
        """
        params = ctx.params
        assert isinstance(params, CompressContextParams)
        if summarizing_now():
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            "compress_context cannot run while a summary is being written")
        request = active_request()
        if request is None:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            "compress_context works only inside a tooldeck tool loop, "
                            "which owns the conversation")
        if request.summary is not None:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            "the conversation was already compressed in this round")
        if not request.messages:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            "nothing to compress: no messages before this reply besides the "
                            "system prompt and the knowledge block")
        summarize = ctx.runtime.hooks.summarizer(ctx.runtime)
        if summarize is None:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            "no summariser is configured ([tools.summarizer] or a "
                            "tooldeck_summarizer plugin)")
        instructions = ctx.runtime.settings.get(CompressContextSettings).instructions
        if params.focus:
            instructions = f"{instructions}\n\nKeep above all: {params.focus}"
        text = transcript(request.messages)
        with summarizing():
            try:
                summary = await summarize(text, instructions)
            except ToolError as exc:
                raise ToolError(exc.category, f"the summariser failed, {_UNCHANGED}: "
                                f"{exc.message}") from exc
            except Exception as exc:  # any failure of a plugin's summariser: nothing lost
                raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                                f"the summariser failed, {_UNCHANGED}: {type(exc).__name__}: "
                                f"{safe_repr(str(exc), 300)}") from exc
        if not isinstance(summary, str) or not summary.strip():
            raise ToolError(ErrorCategory.SERVER_ERROR,
                            f"the summariser returned no summary, {_UNCHANGED}")
        request.summary = summary.strip()
        return ToolOutput(
            call.tool_id,
            f"compressed {len(request.messages)} messages ({len(text):,} characters) into a "
            f"{len(request.summary):,}-character summary, appended to the knowledge block",
            raw_response={"messages": len(request.messages), "input_chars": len(text),
                          "summary_chars": len(request.summary)},
        )
