"""Where the built-in strategy types live, and importing one by name (cheap to import)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tooldeck.filters.strategy import Strategy, StrategyRegistry

__all__ = ["BUILTIN_STRATEGY_HOMES", "builtin_strategy_type", "lazy_strategy_registry"]

BUILTIN_STRATEGY_HOMES: dict[str, tuple[str, str]] = {
    "strip_noise": ("strip_noise", "StripNoise"),
    "truncate": ("truncate", "Truncate"),
    "keep_matching": ("keep_matching", "KeepMatching"),
    "strip_annotated": ("strip_annotated", "StripAnnotated"),
    "test_summary": ("test_summary", "TestSummary"),
    "group_by_rule": ("group_by_rule", "GroupByRule"),
    "git_status": ("git_status", "GitStatus"),
    "git_diff": ("git_diff", "GitDiff"),
    "dedup": ("dedup", "Dedup"),
    "fallback": ("fallback", "Fallback"),
}
"""The built-in strategy types by name, in documentation order: (module, class)."""


def builtin_strategy_type(name: str) -> type[Strategy[Any]] | None:
    """Import the built-in strategy type ``name``.

    :param name: a strategy type name.
    :returns: the class, or ``None`` when ``name`` is not a built-in type.
    """
    home = BUILTIN_STRATEGY_HOMES.get(name)
    if home is None:
        return None
    strategy_type: type[Strategy[Any]] = getattr(
        importlib.import_module(f"tooldeck.filters.{home[0]}"), home[1]
    )
    return strategy_type


def lazy_strategy_registry() -> StrategyRegistry:
    """A registry that imports a built-in strategy type the first time a rule names it.

    :returns: the registry (the same names as ``default_strategy_registry()``).
    """
    from tooldeck.filters.strategy import StrategyRegistry

    return StrategyRegistry(loader=builtin_strategy_type, loadable=BUILTIN_STRATEGY_HOMES)
