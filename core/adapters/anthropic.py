"""Anthropic messages: ``tool_use`` content blocks in, one user message of ``tool_result`` out.

The assistant turn is appended with its content blocks as they came (``thinking`` blocks must
go back unchanged), except that ``tool_use`` blocks are rebuilt from their known fields. All
results of one reply go back in a single user message, one ``tool_result`` block per call in
call order, an error flagged ``"is_error": true``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from tooldeck.adapters import AdapterError, ModelReply, ProviderCall, model_of, read_provider_id
from tooldeck.catalog import tool_schema
from tooldeck.models import ToolCall

if TYPE_CHECKING:
    from tooldeck.config import TafcConfig
    from tooldeck.deck import ToolResult
    from tooldeck.models import ToolDef

__all__ = ["AnthropicMessages"]


class AnthropicMessages:
    """The Anthropic messages adapter (stateless)."""

    name = "anthropic"

    def tool_specs(self, tools: Sequence[ToolDef],
                   tafc: TafcConfig | None = None) -> list[dict[str, Any]]:
        """``[{"name", "description", "input_schema"}]``.

        :param tools: the tools to offer.
        :param tafc: the TAFC settings, to add the reasoning field where due.
        """
        return [{"name": t.id, "description": t.description,
                 "input_schema": tool_schema(t, tafc)} for t in tools]

    def parse(self, response: Mapping[str, Any], *, caller_id: str | None = None,
              turn: int | None = None) -> ModelReply:
        """Read ``content``: ``text`` blocks give the text, ``tool_use`` blocks the calls.

        :param response: the message, as JSON.
        :param caller_id: set on every call.
        :param turn: set on every call.
        :raises AdapterError: the response has no ``content`` list.
        """
        content = response.get("content") if isinstance(response, Mapping) else None
        if not isinstance(content, list):
            raise AdapterError("not an Anthropic message: no content list")
        blocks: list[dict[str, Any]] = []
        texts: list[str] = []
        calls: list[ProviderCall] = []
        for block in content:
            if not isinstance(block, Mapping):
                continue
            if block.get("type") == "tool_use":
                name, params = block.get("name"), block.get("input")
                call = ToolCall(cast(str, name), {} if params is None else params,
                                caller_id=caller_id, turn=turn, model=model_of(response))
                pid = read_provider_id(block.get("id")) or call.call_id
                calls.append(ProviderCall(call, pid))
                blocks.append({"type": "tool_use", "id": pid,
                               "name": name if isinstance(name, str) else str(name),
                               "input": params if isinstance(params, Mapping) else {}})
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            blocks.append(dict(block))
        return ModelReply(({"role": "assistant", "content": blocks},), "".join(texts),
                          tuple(calls))

    def result_messages(
        self, results: Sequence[tuple[ProviderCall, ToolResult]]
    ) -> list[dict[str, Any]]:
        """One user message holding a ``tool_result`` block per result (none when empty)."""
        if not results:
            return []
        blocks: list[dict[str, Any]] = []
        for pc, result in results:
            block: dict[str, Any] = {"type": "tool_result",
                                     "tool_use_id": pc.provider_id or pc.call.call_id,
                                     "content": result.text}
            if not result.ok:
                block["is_error"] = True
            blocks.append(block)
        return [{"role": "user", "content": blocks}]

    def allowed_tools_choice(self, tool_ids: Sequence[str]) -> dict[str, Any] | None:
        """``None``: the messages API cannot restrict a turn to some of the listed tools."""
        return None

    def user_message(self, text: str) -> dict[str, Any]:
        """``{"role": "user", "content": text}``."""
        return {"role": "user", "content": text}
