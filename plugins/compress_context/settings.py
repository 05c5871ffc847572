"""``[tools.compress_context]``: whether the model may compress its conversation, and how."""

from __future__ import annotations

from pydantic import Field

from tooldeck.config import StrictModel

__all__ = ["DEFAULT_INSTRUCTIONS", "SECTION", "CompressContextSettings"]

SECTION = "tools.compress_context"

DEFAULT_INSTRUCTIONS = (
    "Summarise this part of an agent's conversation so that the agent can carry on without "
    "it. Keep the user's requests, decisions made, facts learnt (file paths, names, numbers, "
    "commands and their outcomes), errors met and work still open. Drop pleasantries and "
    "repetition. Write plain text, no preamble."
)


class CompressContextSettings(StrictModel):
    """``[tools.compress_context]``: the ``compress_context`` tool."""

    enabled: bool = Field(
        True, description="Offer compress_context (it is hidden anyway while no summariser "
        "is configured).",
    )
    instructions: str = Field(
        DEFAULT_INSTRUCTIONS, min_length=1, max_length=8000,
        description="What the summariser is told a summary must keep; the model's own "
        "`focus` is added after it.",
    )
