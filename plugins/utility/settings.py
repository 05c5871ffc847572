"""``[tools.utility]``: the utility gate's switch, weights, threshold and lists, validated."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from tooldeck.config import StrictModel

__all__ = ["DEFAULT_EXEMPT_TOOLS", "SECTION", "UtilitySettings"]

SECTION = "tools.utility"

DEFAULT_EXEMPT_TOOLS = ("invoke_skill", "load_skill")
"""Zeph's exempt tools: skill orchestration is never reduced to a score (a gate that skipped
them would stall a skill-driven turn)."""

Weight = Annotated[float, Field(ge=0, allow_inf_nan=False)]
"""A score weight: a finite number, at least 0."""


class UtilitySettings(StrictModel):
    """``[tools.utility]``: score each call of a user turn and skip the ones not worth making."""

    enabled: bool = Field(False, description="Score every non-exempt call made inside a user "
                          "turn (the tool loop, Deck.turn) and skip those the rules say not "
                          "to run.")
    threshold: float = Field(0.1, allow_inf_nan=False, description="The score a call needs "
                             "to run (rules 7, 9 and 10).")
    gain_weight: Weight = Field(1.0, description="Weight of the tool's expected gain.")
    cost_weight: Weight = Field(0.5, description="Weight of the share of the token budget "
                                "the conversation uses.")
    redundancy_weight: Weight = Field(0.3, description="Weight of the penalty for a call "
                                      "already made this turn (same tool and parameters).")
    uncertainty_bonus: Weight = Field(0.2, description="Weight of the bonus for calls early "
                                      "in the turn (1 - calls made / 10).")
    exempt_tools: tuple[str, ...] = Field(DEFAULT_EXEMPT_TOOLS, description="Tools never "
                                          "scored (compared case-insensitively).")
    high_gain_tools: tuple[str, ...] = Field((), description="Tools given the gain of direct "
                                             "actions, 0.75 (compared case-insensitively; "
                                             "e.g. MCP tools the gain table cannot name).")
    utility_window: int = Field(0, ge=0, description="End the turn after this many calls in "
                                "a row the gate did not let run; 0 never ends it.")
