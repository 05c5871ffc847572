"""``[tools.policy]``: the declarative policy enforcer's configuration, validated."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from tooldeck.capabilities import CAPABILITIES, normalise, unknown
from tooldeck.config import PathSetting, StrictModel

__all__ = ["MAX_ARGS_MATCH_BYTES", "MAX_RULES", "SECTION", "PolicyRule", "PolicySettings"]

SECTION = "tools.policy"

MAX_RULES = 256
"""The most rules one policy may hold (inline or in its file)."""

MAX_ARGS_MATCH_BYTES = 1024
"""The longest ``args_match`` regular expression, in UTF-8 bytes."""

Effect = Literal["allow", "deny"]
Trust = Literal["trusted", "verified", "quarantined", "blocked"]


class PolicyRule(StrictModel):
    """One rule: an effect and the conditions that must all hold for it to fire."""

    effect: Effect = Field(description="allow or deny; any matching deny wins.")
    tool: str = Field(min_length=1, max_length=256,
                      description="Glob on the tool name (trimmed, lowercased; bash and sh "
                      "are spelt shell).")
    paths: tuple[str, ...] = Field(
        (), description="Globs on the paths and URLs the call names; a deny rule fires when "
        "any of them matches, an allow rule only when every one does.")
    env: tuple[str, ...] = Field(
        (), description="Environment variable names that must all be set for the rule to fire.")
    trust_level: Trust | None = Field(
        None, description="allow: fires for callers at most this untrusted; deny: fires for "
        "callers at least this untrusted.")
    args_match: str | None = Field(
        None, min_length=1, description="RE2 regular expression searched in every string "
        "parameter value (nested ones too).")
    capabilities: tuple[str, ...] = Field(
        (), description="Tool capabilities (read, write, execute, network, state): a deny rule "
        "fires when the tool may do any of them, an allow rule only when it declares all of "
        "them. A tool declaring none is denied by every such deny rule and allowed by none.")

    @field_validator("capabilities")
    @classmethod
    def _known_capabilities(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """Normalise the names (``exec`` is ``execute``) and refuse names outside the vocabulary."""
        strange = unknown(value)
        if strange:
            raise ValueError(f"unknown capabilities {sorted(strange)}: expected some of "
                             f"{sorted(CAPABILITIES)}")
        return tuple(sorted(normalise(value)))


class PolicySettings(StrictModel):
    """``[tools.policy]``: deny-wins rules judged on every call while enabled."""

    enabled: bool = Field(False, description="Judge every call by these rules.")
    default_effect: Effect = Field(
        "deny", description="What a call no rule matches gets (deny: only what a rule allows "
        "runs).")
    rules: tuple[PolicyRule, ...] = Field((), description="The rules (at most 256).")
    policy_file: PathSetting | None = Field(
        None, description="A TOML file with a rules array that replaces the inline rules; "
        "relative to the configuration file's directory, and it must lie below it.")
