"""Shared fixtures for the filter tests: a fresh registry and the built-in rules per test."""

from __future__ import annotations

import functools

import pytest

from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.registry import default_strategy_registry
from tooldeck.filters.rules import Rule, builtin_rules
from tooldeck.filters.strategy import StrategyRegistry


@functools.lru_cache(maxsize=1)
def _builtin() -> tuple[Rule, ...]:
    loaded = builtin_rules(default_strategy_registry())
    assert loaded.warnings == ()
    return loaded.rules


@pytest.fixture
def registry() -> StrategyRegistry:
    return default_strategy_registry()


@pytest.fixture
def rules() -> tuple[Rule, ...]:
    return _builtin()


@pytest.fixture
def engine(rules: tuple[Rule, ...]) -> FilterEngine:
    return FilterEngine(rules)
