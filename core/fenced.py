"""Legacy fenced blocks: ```` ```<tag> ```` blocks in model text become tool calls.

A tool declares its tag with ``invocation="fenced:<tag>"`` (``bash``, ``scrape``).

=====================  ==================================================================
rule                   behaviour
=====================  ==================================================================
opening                the marker ```` ``` ```` + tag; the next character must not be a
                       letter, digit, ``_`` or ``-`` (```` ```bashrc ```` is not a bash block,
                       ```` ```bash  ```` is)
content                up to the next ```` ``` ````, trimmed; an empty block is skipped
unterminated           a block without a closing fence ends the extraction for that tag
parameters             a tool whose only required parameter is its ``input_param`` gets the
                       content as that parameter (```` ```bash ```` → ``command``); any other
                       tool's content must be a JSON object of its parameters (text that is
                       not is passed on as is, and the deck refuses it with
                       ``invalid_parameters``)
order                  calls come in the order their blocks appear in the text
=====================  ==================================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tooldeck.adapters import parse_arguments
from tooldeck.models import ToolCall, ToolDef

__all__ = ["extract_fenced_blocks", "fenced_calls"]

_FENCE = "```"


def _blocks(text: str, tag: str) -> list[tuple[int, str]]:
    marker = _FENCE + tag
    blocks: list[tuple[int, str]] = []
    position = 0
    while (start := text.find(marker, position)) >= 0:
        after = start + len(marker)
        following = text[after : after + 1]
        if following and (following.isalnum() or following in "_-"):
            position = after
            continue
        end = text.find(_FENCE, after)
        if end < 0:
            break
        blocks.append((start, text[after:end].strip()))
        position = end + len(_FENCE)
    return blocks


def extract_fenced_blocks(text: str, tag: str) -> list[str]:
    """The contents of every ```` ```<tag> ```` block, in order.

    :param text: model output.
    :param tag: the fence tag, e.g. ``bash``.
    :returns: each block's content, trimmed.
    """
    return [content for _start, content in _blocks(text, tag)]


def _params(tool: ToolDef, content: str) -> Any:
    schema = tool.json_schema()
    if tool.input_param is not None and schema.get("required") == [tool.input_param]:
        return {tool.input_param: content}
    return parse_arguments(content)


def fenced_calls(text: str, tools: Iterable[ToolDef], *, caller_id: str | None = None,
                 turn: int | None = None) -> list[ToolCall]:
    """The calls that the fenced blocks of ``text`` make to the fenced ``tools``.

    :param text: a model reply.
    :param tools: the tools offered; those without a fence tag are ignored.
    :param caller_id: set on every call.
    :param turn: set on every call.
    :returns: one call per non-empty block, in text order.
    """
    found: list[tuple[int, ToolCall]] = []
    for tool in tools:
        tag = tool.fenced_tag
        if tag is None:
            continue
        for start, content in _blocks(text, tag):
            if content:
                found.append((start, ToolCall(tool.id, _params(tool, content),
                                              caller_id=caller_id, turn=turn)))
    return [call for _start, call in sorted(found, key=lambda item: item[0])]
