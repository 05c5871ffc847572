"""The ``read_overflow`` tool: page through an output the overflow store kept."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pydantic
from pydantic import Field

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolDef, ToolOutput

if TYPE_CHECKING:
    from tooldeck.runtime import CallContext

__all__ = ["EXECUTOR", "READ_OVERFLOW", "OverflowExecutor", "ReadOverflowParams"]

EXECUTOR = "overflow"
MAX_PAGE_LINES = 2000


class ReadOverflowParams(pydantic.BaseModel):
    """Parameters of ``read_overflow``."""

    model_config = pydantic.ConfigDict(extra="forbid")

    id: str = Field(max_length=64, description="The reference, e.g. overflow:3f2a…")
    offset: int = Field(1, ge=1, le=10**9, description="First line to return (1-based).")
    limit: int = Field(500, ge=1, le=MAX_PAGE_LINES, description="Lines to return.")


READ_OVERFLOW = ToolDef(
    id="read_overflow",
    description="Read a long tool output that was shortened for you, by its overflow:<id> "
    "reference, a page of lines at a time.",
    params=ReadOverflowParams,
    executor=EXECUTOR,
    capabilities={"read"},
    input_param="id",
)


class OverflowExecutor:
    """Serve pages of stored outputs to the session that stored them (the core's service)."""

    name = EXECUTOR

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Return lines ``offset`` … ``offset + limit - 1`` of the stored output.

        :raises ToolError: ``invalid_parameters`` for an id that is not found (unknown,
            malformed, expired, or stored by another session: all look the same).
        """
        params = ctx.params
        assert isinstance(params, ReadOverflowParams)
        content = ctx.runtime.services.overflow.get(params.id, caller_id=call.caller_id)
        if content is None:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            f"overflow entry not found: {params.id!r}")
        lines = content.splitlines(keepends=True)
        first = params.offset - 1
        page = "".join(lines[first : first + params.limit])
        last = min(len(lines), first + params.limit)
        more = f"; next: offset={last + 1}" if last < len(lines) else ""
        shown = f"lines {params.offset}-{last}" if page else "no lines"
        footer = f"[{params.id}: {shown} of {len(lines)}{more}]"
        summary = f"{page.rstrip(chr(10))}\n{footer}" if page else footer
        raw = {"id": params.id, "offset": params.offset, "total_lines": len(lines),
               "text": page}
        return ToolOutput(call.tool_id, summary, raw_response=raw)
