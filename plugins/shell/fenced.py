"""Legacy fenced blocks: ```` ```bash ```` blocks in model text become ``bash`` calls.

The extraction rules (```` ```bashrc ```` is not a bash block…) are those of
:mod:`tooldeck.fenced`; the tool loop (:mod:`tooldeck.loop`) applies them to every fenced tool.
"""

from __future__ import annotations

from tooldeck.fenced import extract_fenced_blocks
from tooldeck.models import ToolCall

__all__ = ["calls_from_text", "extract_fenced_blocks"]


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
