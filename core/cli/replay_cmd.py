"""``tooldeck replay AUDIT.jsonl [--config NEW.toml] [--json]``: what a policy change would do.

Exit codes: 0 when no recorded call would be loosened, 1 when some would be (for the CI of a
policy repository), 2 for a usage or configuration error (an unreadable log, a record of a
newer schema).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tooldeck.cli_api import EXIT_CONFIG, EXIT_OK, EXIT_TOOL, emit
from tooldeck.replay import Change, ReplayReport, replay

__all__ = ["run"]

_NO_AUDIT = {"TOOLDECK_TOOLS_AUDIT_ENABLED": "false"}
"""Replay writes nothing: its deck is built with the audit sink off."""


def _where(side: Mapping[str, Any]) -> str:
    rule = side.get("rule")
    parts = [f"{side.get('gate', '?')}" + (f" rule {rule}" if rule else "")]
    if side.get("pattern") is not None:
        parts.append(f"pattern {side['pattern']!r}")
    if side.get("segment") is not None:
        parts.append(f"segment {side['segment']!r}")
    source = str(side.get("source", "builtin"))
    if side.get("line") is not None:
        source += f":{side['line']}"
    parts.append(f"from {source}")
    if side.get("policy"):
        parts.append(f"policy {side['policy']}")
    return ", ".join(parts)


def _text(change: Change) -> str:
    kind = "LOOSENED" if change.loosened else "tightened"
    cut = " (input was cut in the record)" if change.cut else ""
    return (f"line {change.line}: {change.tool} {change.command!r}{cut}\n"
            f"  {change.before['verdict']} -> {change.after['verdict']}  [{kind}]\n"
            f"  before: {_where(change.before)}\n"
            f"  after:  {_where(change.after)}")


def _summary(report: ReplayReport) -> str:
    tightened = len(report.changes) - report.loosened
    return (f"{report.replayed} calls replayed under policy {report.policy}: "
            f"{len(report.changes)} changed ({report.loosened} loosened, {tightened} "
            f"tightened); {report.skipped} records skipped")


def run(audit: str, config: str | None, as_json: bool) -> int:
    """Replay ``audit`` under ``config`` (or the lookup order); returns the exit code."""
    from tooldeck.deck import Deck

    path = Path(audit)
    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError as exc:
        emit({"error": "usage", "message": f"{audit}: {exc.strerror}"} if as_json else None,
             f"tooldeck replay: {audit}: cannot read: {exc.strerror}")
        return EXIT_CONFIG
    deck = Deck.from_config(config, environ={**os.environ, **_NO_AUDIT})
    try:
        limit = deck.runtime.settings.core.audit.max_value_chars
        report = replay(text.splitlines(), deck.runtime, max_value_chars=limit)
    finally:
        asyncio.run(deck.aclose())
    if as_json:
        emit({"replayed": report.replayed, "skipped": report.skipped,
              "policy": report.policy, "loosened": report.loosened,
              "changes": [change.as_json() for change in report.changes]}, "")
    else:
        for change in report.changes:
            print(_text(change))
        print(_summary(report))
    return EXIT_TOOL if report.loosened else EXIT_OK
