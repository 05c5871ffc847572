"""Message adapters: a provider's response in, :class:`~tooldeck.models.ToolCall` out, and back.

Each adapter turns one model response (the provider's JSON, as a plain dict) into a
:class:`ModelReply` — the messages to append to the conversation, the reply's text, and its
tool calls — and turns finished :class:`~tooldeck.deck.ToolResult` objects into that
provider's tool-result messages. Everything is plain dicts: no provider SDK is imported.

=====================  =========================================  ==============================
module                 format                                     error results
=====================  =========================================  ==============================
``openai_chat``        OpenAI chat completions (``tool_calls``)   ``[tool_error]`` text only
``openai_responses``   OpenAI Responses API (``function_call``)   ``[tool_error]`` text only
``anthropic``          Anthropic messages (``tool_use`` blocks)   ``is_error: true`` on the block
=====================  =========================================  ==============================

A call's arguments are untrusted model text. Arguments that are not valid JSON become a call
whose parameters are that text, and arguments that are JSON but not an object become a call
with that value: the deck answers both with ``invalid_parameters`` (see
:mod:`tooldeck.call_shape`) and audits them; a tool name that is not a string is passed on as
well (``tool_not_found``). Nothing here raises for them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from tooldeck.models import ToolCall

if TYPE_CHECKING:
    from tooldeck.config import TafcConfig
    from tooldeck.deck import ToolResult
    from tooldeck.models import ToolDef

__all__ = [
    "Adapter",
    "AdapterError",
    "ModelReply",
    "ProviderCall",
    "adapter_for",
    "model_of",
    "parse_arguments",
]


class AdapterError(ValueError):
    """A response that is not of the adapter's format (no choices, no content list…)."""


@attrs.frozen
class ProviderCall:
    """One tool call of a model reply.

    :param call: the call for the deck; its ``call_id`` is tooldeck's own (a fresh UUID).
    :param provider_id: the provider's id of the call (``call_…``, ``toolu_…``), which the
        tool-result message must quote; ``None`` for a call read from a fenced block in text.
    """

    call: ToolCall
    provider_id: str | None = None


@attrs.frozen
class ModelReply:
    """What one model response means to the loop.

    :param messages: the messages (or Responses API items) to append to the conversation.
    :param text: the reply's text, joined; empty when it had none.
    :param calls: the structured tool calls, in the order the model made them.
    """

    messages: tuple[dict[str, Any], ...]
    text: str
    calls: tuple[ProviderCall, ...] = ()


class Adapter(Protocol):
    """What the tool loop needs from a provider format."""

    name: str

    def tool_specs(self, tools: Sequence[ToolDef],
                   tafc: TafcConfig | None = None) -> list[dict[str, Any]]:
        """The ``tools`` list of a request, in this format."""
        ...

    def parse(self, response: Mapping[str, Any], *, caller_id: str | None = None,
              turn: int | None = None) -> ModelReply:
        """Read one model response; raises :class:`AdapterError` when it is not this format."""
        ...

    def result_messages(
        self, results: Sequence[tuple[ProviderCall, ToolResult]]
    ) -> list[dict[str, Any]]:
        """The messages that answer the structured calls of one reply, in call order."""
        ...

    def user_message(self, text: str) -> dict[str, Any]:
        """A plain user message (the loop answers fenced blocks in text with one)."""
        ...

    def allowed_tools_choice(self, tool_ids: Sequence[str]) -> dict[str, Any] | None:
        """A ``tool_choice`` letting the model call only ``tool_ids``, or ``None``.

        The request still lists every tool, so the provider's prompt cache keeps the tool
        list; ``None`` means the format has no such mode.
        """
        ...


def model_of(response: Mapping[str, Any]) -> str | None:
    """The ``model`` a provider's response names (all three formats carry one), or ``None``."""
    model = response.get("model")
    return model if isinstance(model, str) and model else None


def parse_arguments(arguments: object) -> Any:
    """A call's ``arguments`` string as the deck should see it.

    :param arguments: the arguments as the provider sent them.
    :returns: the decoded JSON value; ``{}`` for an empty or missing string; the text itself
        when it is not JSON (the deck refuses non-objects with ``invalid_parameters``).
    """
    if arguments is None:
        return {}
    if not isinstance(arguments, str):
        return arguments  # already decoded by a lenient server; the deck checks its shape
    if not arguments.strip():
        return {}
    try:
        return json.loads(arguments)
    except (ValueError, RecursionError):  # bad JSON, a number too long, nested too deep
        return arguments


def echo_arguments(arguments: object) -> str:
    """A call's arguments as a JSON string again, for the copy of the call in the history.

    :param arguments: the arguments as the provider sent them.
    :returns: the string as sent; other values encoded as JSON (``"{}"`` for none).
    """
    if isinstance(arguments, str):
        return arguments
    if arguments is None:
        return "{}"
    try:
        return json.dumps(arguments)
    except (TypeError, ValueError, RecursionError):
        return "{}"


def read_provider_id(value: object) -> str | None:
    """The provider's call id when it is a non-empty string, else ``None``."""
    return value if isinstance(value, str) and value else None


def adapter_for(name: str) -> Adapter:
    """The adapter named ``openai_chat``, ``openai_responses`` or ``anthropic``.

    :raises ValueError: an unknown name.
    """
    from tooldeck.adapters.anthropic import AnthropicMessages
    from tooldeck.adapters.openai_chat import OpenAIChat
    from tooldeck.adapters.openai_responses import OpenAIResponses

    adapters: dict[str, Adapter] = {a.name: a for a in
                                    (OpenAIChat(), OpenAIResponses(), AnthropicMessages())}
    try:
        return adapters[name]
    except KeyError:
        raise ValueError(f"unknown adapter {name!r}; expected one of "
                         f"{', '.join(sorted(adapters))}") from None
