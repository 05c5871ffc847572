"""Legacy fenced blocks: ```` ```bash ```` blocks in model text become ``bash`` calls.

=====================  ==================================================================
rule                   behaviour
=====================  ==================================================================
opening                the marker ```` ``` ```` + tag; the next character must not be a
                       letter, digit, ``_`` or ``-`` (```` ```bashrc ```` is not a bash block,
                       ```` ```bash  ```` is)
content                up to the next ```` ``` ````, trimmed
unterminated           a block without a closing fence ends the extraction
=====================  ==================================================================
"""

from __future__ import annotations

from tooldeck.models import ToolCall

__all__ = ["calls_from_text", "extract_fenced_blocks"]

_FENCE = "```"


def extract_fenced_blocks(text: str, tag: str) -> list[str]:
    """The contents of every ```` ```<tag> ```` block, in order.

    :param text: model output.
    :param tag: the fence tag, e.g. ``bash``.
    :returns: each block's content, trimmed.
    """
    marker = _FENCE + tag
    blocks: list[str] = []
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
        blocks.append(text[after:end].strip())
        position = end + len(_FENCE)
    return blocks


def calls_from_text(
    text: str, *, caller_id: str | None = None, turn: int | None = None
) -> list[ToolCall]:
    """Turn the ```` ```bash ```` blocks of model text into ``bash`` calls.

    :param text: model output.
    :param caller_id: recorded on each call.
    :param turn: the turn of the model response ``text`` is, recorded on each call.
    :returns: one call per non-empty block, in order; run them through the deck as usual.
    """
    return [
        ToolCall("bash", {"command": block}, caller_id=caller_id, turn=turn)
        for block in extract_fenced_blocks(text, "bash") if block
    ]
