"""The ``mcp_client`` executor: run a deck call as ``tools/call`` on the tool's server.

Results are never cached (a server's tool may change state or answer differently each time).
A result the server marks ``isError`` is a ``permanent_failure`` carrying the server's text;
transport failures and timeouts are classified by :mod:`.connection`.
"""

from __future__ import annotations

import json
from typing import Any

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolOutput
from tooldeck.plugins.mcp_client.pool import ServerPool
from tooldeck.plugins.mcp_client.tools import EXECUTOR, remote_name, server_of
from tooldeck.runtime import CallContext

__all__ = ["McpExecutor", "result_output"]


def _block_text(block: Any) -> str:
    kind = getattr(block, "type", "")
    if kind == "text":
        return str(block.text)
    if kind in ("image", "audio"):
        size = len(getattr(block, "data", "") or "") * 3 // 4
        return f"[{kind}: {getattr(block, 'mime_type', '?')}, about {size} bytes]"
    if kind == "resource_link":
        return f"[resource link: {getattr(block, 'uri', '?')}]"
    if kind == "resource":
        resource = block.resource
        text = getattr(resource, "text", None)
        return str(text) if text is not None else f"[resource: {resource.uri}]"
    return f"[{kind or 'unknown'} content]"


def result_output(tool_id: str, server: str, remote: str, result: Any) -> ToolOutput:
    """A deck output from a ``CallToolResult``.

    :param tool_id: the deck's tool id.
    :param server: the server's name.
    :param remote: the tool's name on the server.
    :param result: the SDK's ``CallToolResult``.
    :returns: the output; its summary is the text content, one block per paragraph.
    :raises ToolError: ``permanent_failure`` when the server says the call failed.
    """
    parts = [_block_text(block) for block in result.content or ()]
    structured = getattr(result, "structured_content", None)
    if not parts and structured is not None:
        parts = [json.dumps(structured, ensure_ascii=False, default=str)]
    text = "\n\n".join(parts)
    if getattr(result, "is_error", False):
        raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                        f"mcp server {server!r}: {remote} failed: {text or '(no message)'}")
    raw: dict[str, Any] = {"server": server, "tool": remote}
    if structured is not None:
        raw["structured_content"] = structured
    return ToolOutput(tool_name=tool_id, summary=text, raw_response=raw)


class McpExecutor:
    """Runs MCP tools on the servers of one runtime's pool.

    :param pool: the runtime's servers.
    """

    name = EXECUTOR
    retryable = False  # a tool call may change state on the server: never repeated

    def __init__(self, pool: ServerPool) -> None:
        self.pool = pool

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Call the tool on its server with the validated arguments."""
        server = server_of(ctx.tool)
        if server is None:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"{ctx.tool.id} is not an MCP tool (source {ctx.tool.source!r})")
        remote = remote_name(ctx.tool)
        result = await self.pool.call(server, remote, ctx.params.model_dump())
        return result_output(ctx.tool.id, server, remote, result)

    async def aclose(self) -> None:
        """Stop the runtime's servers."""
        await self.pool.aclose()
