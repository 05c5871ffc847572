"""Pieces shared by the CLI commands: exit codes, output, opening a deck (all light to import)."""

from __future__ import annotations

import json
import sys
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tooldeck.deck import Deck, ToolResult

__all__ = ["EXIT_CONFIG", "EXIT_OK", "EXIT_TOOL", "emit", "open_deck", "result_json"]

EXIT_OK = 0
EXIT_TOOL = 1
EXIT_CONFIG = 2


def emit(data: Any, text: str, *, stream: IO[str] | None = None) -> None:
    """Print ``data`` as JSON when it is not ``None``, else ``text``."""
    out = stream if stream is not None else sys.stdout
    if data is not None:
        print(json.dumps(data, indent=2, ensure_ascii=False, default=str), file=out)
    else:
        print(text, file=out)


def open_deck(config: str | None) -> Deck:
    """A deck from ``--config`` or the lookup order.

    :raises tooldeck.errors.ConfigError: the configuration cannot be used.
    """
    from tooldeck.deck import Deck

    return Deck.from_config(config)


def result_json(result: ToolResult) -> dict[str, Any]:
    """A call result as the ``--json`` output of ``tooldeck call``."""
    decision = result.decision
    return {
        "ok": result.ok,
        "text": result.text,
        "category": result.error.category.label if result.error else None,
        "retryable": result.error.retryable if result.error else None,
        "decision": None if decision is None else {
            "verdict": decision.verdict.value, "reason": decision.reason,
            **decision.provenance(),
        },
        "approved_by": result.approved_by,
        "raw_response": dict(result.output.raw_response or {}) if result.output else None,
        "duration_ms": round(result.duration_ms, 3),
    }
