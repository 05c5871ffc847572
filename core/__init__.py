"""tooldeck: typed, governed tools for LLM agents."""

from __future__ import annotations

import pluggy

__version__ = "0.1.0"

hookspec = pluggy.HookspecMarker("tooldeck")
"""Marker for tooldeck hook specifications (used by :mod:`tooldeck.hookspecs`)."""

hookimpl = pluggy.HookimplMarker("tooldeck")
"""Marker plugins use on their hook implementations: ``from tooldeck import hookimpl``."""

__all__ = ["__version__", "hookimpl", "hookspec"]
