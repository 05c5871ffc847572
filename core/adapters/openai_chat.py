"""OpenAI chat completions: ``choices[0].message.tool_calls`` in, ``role: tool`` messages out.

Also the format of every "OpenAI-compatible" server (vLLM, llama.cpp, Ollama, LM Studio…).
The assistant message appended to the conversation keeps only ``role``, ``content`` and
``tool_calls`` (the request format accepts no response-only fields such as ``refusal: null``
or ``annotations``); a tool call without an id is given tooldeck's call id, in both the
appended message and its result, so the pair stays matched.
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

__all__ = ["OpenAIChat"]


def _message(response: Mapping[str, Any]) -> Mapping[str, Any]:
    choices = response.get("choices") if isinstance(response, Mapping) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        raise AdapterError("not a chat completion: no choices[0]")
    message = choices[0].get("message")
    if not isinstance(message, Mapping):
        raise AdapterError("not a chat completion: choices[0] has no message")
    return message


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "".join(part["text"] for part in content
                       if isinstance(part, Mapping) and isinstance(part.get("text"), str))
    return ""


class OpenAIChat:
    """The OpenAI chat-completions adapter (stateless; one instance serves any loop)."""

    name = "openai_chat"

    def tool_specs(self, tools: Sequence[ToolDef],
                   tafc: TafcConfig | None = None) -> list[dict[str, Any]]:
        """``[{"type": "function", "function": {name, description, parameters}}]``.

        :param tools: the tools to offer.
        :param tafc: the TAFC settings, to add the reasoning field where due.
        """
        return [{"type": "function",
                 "function": {"name": t.id, "description": t.description,
                              "parameters": tool_schema(t, tafc)}} for t in tools]

    def parse(self, response: Mapping[str, Any], *, caller_id: str | None = None,
              turn: int | None = None) -> ModelReply:
        """Read ``choices[0].message``: its text and every entry of ``tool_calls``.

        :param response: the chat completion, as JSON.
        :param caller_id: set on every call.
        :param turn: set on every call.
        :raises AdapterError: the response has no ``choices[0].message``.
        """
        message = _message(response)
        raw_calls = message.get("tool_calls") or []
        if not isinstance(raw_calls, list):
            raise AdapterError("tool_calls is not a list")
        calls: list[ProviderCall] = []
        echoed: list[dict[str, Any]] = []
        for raw in raw_calls:
            entry = raw if isinstance(raw, Mapping) else {}
            function = entry.get("function")
            function = function if isinstance(function, Mapping) else {}
            name, arguments = function.get("name"), function.get("arguments")
            call = ToolCall(cast(str, name), parse_arguments(arguments), caller_id=caller_id,
                            turn=turn, model=model_of(response))
            pid = read_provider_id(entry.get("id")) or call.call_id
            calls.append(ProviderCall(call, pid))
            echoed.append({"id": pid, "type": "function",
                           "function": {"name": name if isinstance(name, str) else str(name),
                                        "arguments": echo_arguments(arguments)}})
        text = _text(message.get("content"))
        appended: dict[str, Any] = {"role": "assistant", "content": text or None}
        if echoed:
            appended["tool_calls"] = echoed
        return ModelReply((appended,), text, tuple(calls))

    def result_messages(
        self, results: Sequence[tuple[ProviderCall, ToolResult]]
    ) -> list[dict[str, Any]]:
        """One ``{"role": "tool", "tool_call_id", "content"}`` message per result.

        The format has no error flag: an error's ``[tool_error]`` block says so in the text.
        """
        return [{"role": "tool", "tool_call_id": pc.provider_id or pc.call.call_id,
                 "content": result.text} for pc, result in results]

    def allowed_tools_choice(self, tool_ids: Sequence[str]) -> dict[str, Any] | None:
        """``{"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": […]}}``."""
        return {"type": "allowed_tools", "allowed_tools": {
            "mode": "auto",
            "tools": [{"type": "function", "function": {"name": name}} for name in tool_ids]}}

    def user_message(self, text: str) -> dict[str, Any]:
        """``{"role": "user", "content": text}``."""
        return {"role": "user", "content": text}
