"""The OpenAI Responses API: ``function_call`` output items in, ``function_call_output`` out.

The items of a response's ``output`` are appended to the conversation as they came (the
Responses API accepts its own output items as input), except that ``function_call`` items
are rebuilt from their known fields, so a call without a ``call_id`` gets tooldeck's call id
in both the item and its result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from tooldeck.adapters import (
    AdapterError,
    ModelReply,
    ProviderCall,
    echo_arguments,
    model_of,
    parse_arguments,
    read_provider_id,
)
from tooldeck.catalog import tool_schema
from tooldeck.models import ToolCall

if TYPE_CHECKING:
    from tooldeck.config import TafcConfig
    from tooldeck.deck import ToolResult
    from tooldeck.models import ToolDef

__all__ = ["OpenAIResponses"]


def _message_text(item: Mapping[str, Any]) -> str:
    content = item.get("content")
    if not isinstance(content, list):
        return content if isinstance(content, str) else ""
    return "".join(part["text"] for part in content
                   if isinstance(part, Mapping) and part.get("type") == "output_text"
                   and isinstance(part.get("text"), str))


class OpenAIResponses:
    """The OpenAI Responses API adapter (stateless)."""

    name = "openai_responses"

    def tool_specs(self, tools: Sequence[ToolDef],
                   tafc: TafcConfig | None = None) -> list[dict[str, Any]]:
        """``[{"type": "function", "name", "description", "parameters", "strict": false}]``.

        :param tools: the tools to offer.
        :param tafc: the TAFC settings, to add the reasoning field where due.
        """
        return [{"type": "function", "name": t.id, "description": t.description,
                 "parameters": tool_schema(t, tafc), "strict": False} for t in tools]

    def parse(self, response: Mapping[str, Any], *, caller_id: str | None = None,
              turn: int | None = None) -> ModelReply:
        """Read ``output``: ``message`` items give the text, ``function_call`` items the calls.

        :param response: the response object, as JSON.
        :param caller_id: set on every call.
        :param turn: set on every call.
        :raises AdapterError: the response has no ``output`` list.
        """
        output = response.get("output") if isinstance(response, Mapping) else None
        if not isinstance(output, list):
            raise AdapterError("not a Responses API response: no output list")
        items: list[dict[str, Any]] = []
        texts: list[str] = []
        calls: list[ProviderCall] = []
        for item in output:
            if not isinstance(item, Mapping):
                continue
            if item.get("type") == "function_call":
                name, arguments = item.get("name"), item.get("arguments")
                call = ToolCall(cast(str, name), parse_arguments(arguments), caller_id=caller_id,
                                turn=turn, model=model_of(response))
                pid = read_provider_id(item.get("call_id")) or call.call_id
                calls.append(ProviderCall(call, pid))
                items.append({"type": "function_call", "call_id": pid,
                              "name": name if isinstance(name, str) else str(name),
                              "arguments": echo_arguments(arguments)})
                continue
            if item.get("type") == "message":
                texts.append(_message_text(item))
            items.append(dict(item))
        return ModelReply(tuple(items), "".join(texts), tuple(calls))

    def result_messages(
        self, results: Sequence[tuple[ProviderCall, ToolResult]]
    ) -> list[dict[str, Any]]:
        """One ``{"type": "function_call_output", "call_id", "output"}`` item per result.

        The format has no error flag: an error's ``[tool_error]`` block says so in the text.
        """
        return [{"type": "function_call_output", "call_id": pc.provider_id or pc.call.call_id,
                 "output": result.text} for pc, result in results]

    def allowed_tools_choice(self, tool_ids: Sequence[str]) -> dict[str, Any] | None:
        """``{"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", …}]}``."""
        return {"type": "allowed_tools", "mode": "auto",
                "tools": [{"type": "function", "name": name} for name in tool_ids]}

    def user_message(self, text: str) -> dict[str, Any]:
        """``{"role": "user", "content": text}`` (an easy input message)."""
        return {"role": "user", "content": text}
