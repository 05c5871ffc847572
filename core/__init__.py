"""tooldeck: typed, governed tools for LLM agents.

``from tooldeck import hookimpl`` is the one marker plugins need. It is created on first use,
so that commands which never load a plugin (``tooldeck filter``) do not pay for pluggy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["__version__", "hookimpl", "hookspec"]

if TYPE_CHECKING:
    import pluggy

    hookspec: pluggy.HookspecMarker
    """Marker for tooldeck hook specifications (used by :mod:`tooldeck.hookspecs`)."""

    hookimpl: pluggy.HookimplMarker
    """Marker plugins use on their hook implementations: ``from tooldeck import hookimpl``."""

_markers: dict[str, Any] = {}


def __getattr__(name: str) -> Any:
    if name not in ("hookimpl", "hookspec"):
        raise AttributeError(f"module 'tooldeck' has no attribute {name!r}")
    if not _markers:
        import pluggy

        _markers["hookspec"] = pluggy.HookspecMarker("tooldeck")
        _markers["hookimpl"] = pluggy.HookimplMarker("tooldeck")
    return _markers[name]
