"""Real captures kept as test fixtures, and the default engine that filters them."""

from __future__ import annotations

import functools
from pathlib import Path

from tooldeck.filters.engine import FilterEngine

FIXTURES = Path(__file__).parent / "fixtures"


@functools.lru_cache(maxsize=1)
def default_engine() -> FilterEngine:
    """The engine of the default settings, built once for every capture test."""
    return FilterEngine.from_settings()


def capture(name: str) -> str:
    """The text of one capture under ``fixtures/`` (``name`` with its suffix)."""
    return (FIXTURES / name).read_text("utf-8")
