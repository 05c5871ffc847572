"""The built-in strategy types and registries holding them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck.filters.builtin_types import BUILTIN_STRATEGY_HOMES, builtin_strategy_type
from tooldeck.filters.strategy import Strategy, StrategyRegistry

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["BUILTIN_STRATEGY_TYPES", "default_strategy_registry"]


def _all_builtin_types() -> Sequence[type[Strategy[Any]]]:
    types = [builtin_strategy_type(name) for name in BUILTIN_STRATEGY_HOMES]
    return tuple(t for t in types if t is not None)


BUILTIN_STRATEGY_TYPES: tuple[type[Strategy[Any]], ...] = tuple(_all_builtin_types())
"""The built-in strategy types (nine, plus ``fallback``), in documentation order."""


def default_strategy_registry() -> StrategyRegistry:
    """A new registry with the built-in strategy types registered (owner ``builtin``).

    :returns: the registry; add third-party types with :meth:`StrategyRegistry.register`.
    """
    registry = StrategyRegistry()
    for strategy_type in BUILTIN_STRATEGY_TYPES:
        registry.register(strategy_type, owner="builtin")
    return registry
