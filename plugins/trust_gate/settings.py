"""``[tools.trust]``: the trust level of each tool source and caller, validated."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field, PlainSerializer

from tooldeck.config import StrictModel
from tooldeck.trust_levels import TrustLevel, parse_trust_level
from tooldeck.trust_state import MAX_NAME_CHARS, SOURCE_NAME

__all__ = ["SECTION", "LevelSetting", "TrustSettings"]

SECTION = "tools.trust"


def _level(value: object) -> TrustLevel:
    if isinstance(value, TrustLevel):
        return value
    if isinstance(value, str):
        return parse_trust_level(value)
    raise ValueError("expected the name of a trust level: trusted, verified, quarantined or "
                     "blocked")


def _source_name(value: object) -> object:
    if isinstance(value, str) and not SOURCE_NAME.match(value):
        raise ValueError(f"{value!r} is not a tool source: expected builtin, mcp:<server> or "
                         "skill:<name>")
    return value


LevelSetting = Annotated[TrustLevel, BeforeValidator(_level), PlainSerializer(str)]
"""A trust level written as its name (``"quarantined"``, any case)."""

SourceName = Annotated[str, BeforeValidator(_source_name)]
CallerName = Annotated[str, Field(max_length=MAX_NAME_CHARS)]


class TrustSettings(StrictModel):
    """``[tools.trust]``: how far each tool source and each caller is trusted."""

    sources: dict[SourceName, LevelSetting] = Field(
        default_factory=dict,
        description="Level per tool source: builtin (tooldeck's own and other plugins' "
        "tools; trusted when not listed), mcp:<server>, skill:<name>.",
    )
    default: LevelSetting = Field(
        TrustLevel.QUARANTINED,
        description="Level of an MCP server or skill that sources does not list (and that "
        "declares no trust of its own).",
    )
    callers: dict[CallerName, LevelSetting] = Field(
        default_factory=dict,
        description="Level per caller id ('' is calls without one); callers not listed add "
        "no restriction.",
    )
