"""``tooldeck stats``: the result cache's hits and misses, counted in the audit log.

The store's own counters live in the memory of the process that runs the deck; this command
runs in another. What it counts instead is the ``cache`` field of the call records
(``hit``, ``miss`` or ``stale``), so the totals cover every call any deck audited to this
file since it began, whichever process made it (a call is audited before it returns).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

__all__ = ["stats_command", "sum_stats"]

_OUTCOMES = {"hit": "hits", "miss": "misses", "stale": "stale"}


def sum_stats(lines: Iterable[str]) -> dict[str, int]:
    """Count the ``cache`` outcomes of the call records among audit lines.

    :param lines: audit log lines (JSON text); unreadable ones are skipped.
    :returns: ``hits``, ``misses`` (the ``stale`` ones included) and ``stale``.
    """
    totals = {"hits": 0, "misses": 0, "stale": 0}
    for line in lines:
        if '"cache"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("kind") != "tool_call":
            continue
        field = _OUTCOMES.get(record.get("cache"))  # type: ignore[arg-type]
        if field is not None:
            totals[field] += 1
            if field == "stale":
                totals["misses"] += 1
    return totals


class Stats:
    """Print the result cache's hit and miss counts from the audit log."""

    help = "result cache hits and misses, summed from the audit log"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """No arguments besides the common ``--config`` and ``--json``."""

    def run(self, args: argparse.Namespace) -> int:
        """Print the totals; exit 2 on a configuration error."""
        from tooldeck.cli_api import open_deck
        from tooldeck.errors import ConfigError

        try:
            runtime = open_deck(getattr(args, "config", None)).runtime
        except ConfigError as exc:
            print(f"tooldeck: configuration error:\n{exc}", file=sys.stderr)
            return 2
        settings = runtime.settings
        path: Path = settings.core.audit.resolved_path(settings.document.directory)
        if runtime.storage.shared or path.exists():
            log = runtime.storage.append_log("audit", path)
            try:
                totals = sum_stats(log.lines())
            finally:
                log.close()
        else:
            totals = sum_stats(())
        where = f"the {runtime.storage.name} audit log" if runtime.storage.shared else str(path)
        looked_up = totals["hits"] + totals["misses"]
        rate = totals["hits"] / looked_up * 100 if looked_up else 0.0
        if getattr(args, "json", False):
            print(json.dumps({"audit_log": where, "result_cache": {
                **totals, "hit_rate_pct": round(rate, 1)}}, indent=2))
        else:
            print(f"result cache ({where}): {totals['hits']} hits, {totals['misses']} misses "
                  f"({rate:.1f}% hit rate), {totals['stale']} of them because a file changed")
        return 0


stats_command = Stats()
"""The object published in entry-point group ``tooldeck.commands`` as ``stats``."""
