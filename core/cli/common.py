"""Pieces shared by the CLI commands: exit codes, output, opening a deck (all light to import)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tooldeck.deck import Deck, ToolResult

__all__ = [
    "EXIT_CONFIG", "EXIT_OK", "EXIT_TOOL", "emit", "open_deck", "result_json", "save_raw",
]

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
    """A deck from ``--config`` or the lookup order; broken plugins are named on stderr.

    :raises tooldeck.errors.ConfigError: the configuration cannot be used.
    """
    from tooldeck.deck import Deck

    deck = Deck.from_config(config)
    for warning in deck.runtime.warnings:
        if warning.startswith(("plugin ", "untrusted ")):  # named once per command
            print(f"tooldeck: warning: {warning}", file=sys.stderr)
    return deck


def save_raw(result: ToolResult) -> Path | None:
    """Keep a call's unfiltered, unredacted output in a file only its owner can read.

    The file is ``<data dir>/raw/<call id>.json`` (mode 0600, its folder 0700) holding the
    tool's ``raw_response``. JSON output never carries that data itself: a program that
    parses ``--json`` and logs it would leak the secrets redaction took out.

    :returns: the file's path, or ``None`` when the call produced no output.
    """
    if result.output is None or not result.output.raw_response:
        return None
    from tooldeck.dirs import data_dir

    folder = data_dir() / "raw"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    path = folder / f"{result.call.call_id}.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as out:
        json.dump(dict(result.output.raw_response), out, ensure_ascii=False, default=str)
    return path


def result_json(result: ToolResult, raw_file: Path | None = None) -> dict[str, Any]:
    """A call result as the ``--json`` output of ``tooldeck call`` and ``tooldeck run``.

    ``text`` is what the model would be given: filtered and redacted. The unfiltered output
    is never inlined; ``raw_file`` names the file :func:`save_raw` wrote, when asked to.
    """
    decision = result.decision
    exit_code = (result.output.exit_code if result.output is not None
                 else result.error.exit_code if result.error is not None else None)
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
        "exit_code": exit_code,
        "raw_file": str(raw_file) if raw_file is not None else None,
        "duration_ms": round(result.duration_ms, 3),
    }
