"""``[tools.scopes]``: per-task tool scopes, validated."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tooldeck.config import StrictModel

__all__ = ["GENERAL", "SECTION", "ScopeSettings"]

SECTION = "tools.scopes"

GENERAL = "general"
"""The built-in scope that admits every tool."""


class ScopeSettings(StrictModel):
    """``[tools.scopes]``: which tools each kind of task may see and call."""

    default_scope: str = Field(
        GENERAL, min_length=1, description='The scope in force until one is chosen at '
        'runtime; "general" admits every tool.')
    mode: Literal["strict", "provisional", "permissive"] = Field(
        "provisional", description="Which dead patterns are errors: strict: all; "
        "provisional: builtin: and skill: ones (others warn); permissive: none (all warn).")
    tasks: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Scope name -> namespaced tool-id globs "
        "(builtin:<id>, mcp:<server>/<tool>, skill:<name>/<tool>).")
