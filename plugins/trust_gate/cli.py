"""``tooldeck trust list | set | reset``: run-time trust levels of callers and tool sources.

::

    tooldeck trust list                         # run-time rows, then [tools.trust]
    tooldeck trust set nightly-job quarantined  # a caller
    tooldeck trust set --source mcp:github verified --reason "reviewed"
    tooldeck trust reset nightly-job            # lifts an anomaly block too
    tooldeck trust reset ''                     # the caller of calls without a caller id

Changes go to the user's trust state, which every deck of the user reads at its next call,
and are audited (``trust.set`` / ``trust.reset``) in the audit log of the configuration
(``--config`` or the lookup order). Not to be confused with ``tooldeck config trust``, which
trusts a project's configuration file. Exit codes: 0 done, 1 nothing to reset or the trust
state cannot be used, 2 a usage or configuration error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tooldeck.cli_api import common_options, operator_name, utc_stamp

__all__ = ["TrustCommand", "trust_command"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class TrustCommand:
    """``tooldeck trust``: list, set and reset run-time trust levels."""

    help = "list, set or reset the run-time trust level of a caller or tool source"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare ``list``, ``set`` and ``reset``."""
        common = common_options()
        actions = parser.add_subparsers(dest="trust_action", metavar="ACTION", required=True)
        actions.add_parser("list", parents=[common],
                           help="run-time levels (with who set them) and [tools.trust]")
        change = actions.add_parser("set", parents=[common],
                                    help="set the level of a caller (or --source)")
        change.add_argument("name", help="caller id, or with --source a tool source")
        change.add_argument("level", help="trusted, verified, quarantined or blocked")
        change.add_argument("--source", action="store_true",
                            help="NAME is a tool source: builtin, mcp:<server>, skill:<name>")
        change.add_argument("--reason", default="", help="why (kept with the level)")
        reset = actions.add_parser("reset", parents=[common],
                                   help="drop a run-time level (an anomaly block included)")
        reset.add_argument("name", help="caller id ('' for calls without one), or a source")
        reset.add_argument("--source", action="store_true", help="NAME is a tool source")

    def run(self, args: argparse.Namespace) -> int:
        """Open the deck of the configuration, then list, set or reset."""
        from tooldeck.cli_api import open_deck
        from tooldeck.trust_levels import parse_trust_level
        from tooldeck.trust_state import Subject, TrustStateError

        try:  # usage errors first: no deck is built for them
            subject = None
            if args.trust_action != "list":
                subject = (Subject.source(args.name) if args.source
                           else Subject.caller(args.name))
            level = parse_trust_level(args.level) if args.trust_action == "set" else None
        except ValueError as exc:
            print(f"tooldeck trust: {exc}", file=sys.stderr)
            return EXIT_USAGE
        deck = open_deck(getattr(args, "config", None))
        try:
            as_json = bool(getattr(args, "json", False))
            if subject is None:
                return _list(deck, as_json)
            if level is not None:
                return _set(deck, subject, level, args.reason, as_json)
            return _reset(deck, subject, as_json)
        except TrustStateError as exc:
            print(f"tooldeck trust: {exc}", file=sys.stderr)
            return EXIT_FAILED
        finally:
            deck.close()


def _row_json(row: Any) -> dict[str, Any]:
    from tooldeck.safe_json import safe_text

    return {"subject": row.subject.kind, "name": safe_text(row.subject.name),
            "level": str(row.level), "by": row.by, "reason": row.reason, "at": utc_stamp(row.at)}


def _list(deck: Any, as_json: bool) -> int:
    from tooldeck.cli_api import emit
    from tooldeck.plugins.trust_gate.api import trust_overrides
    from tooldeck.plugins.trust_gate.settings import TrustSettings
    from tooldeck.safe_json import safe_repr

    rows = sorted(trust_overrides(deck).values(),
                  key=lambda r: (r.subject.kind, r.subject.name))
    try:
        settings: TrustSettings | None = deck.runtime.settings.get(TrustSettings)
    except KeyError:  # the trust_gate plugin is disabled
        settings = None
    configured = None if settings is None else settings.model_dump(mode="json")
    lines = [f"{row.subject.kind} {safe_repr(row.subject.name, 60)}: {row.level} "
             f"(set by {row.by} at {utc_stamp(row.at)}{': ' + row.reason if row.reason else ''})"
             for row in rows] or ["no run-time trust levels"]
    if settings is None:
        lines.append("[tools.trust]: the trust_gate plugin is disabled")
    else:
        lines.append(f"[tools.trust] default (MCP servers, skills): {settings.default}")
        lines += [f"[tools.trust] source {name!r}: {level}"
                  for name, level in sorted(settings.sources.items())]
        lines += [f"[tools.trust] caller {safe_repr(name, 60)}: {level}"
                  for name, level in sorted(settings.callers.items())]
    emit({"state": [_row_json(r) for r in rows], "config": configured} if as_json else None,
         "\n".join(lines))
    return EXIT_OK


def _set(deck: Any, subject: Any, parsed: Any, reason: str, as_json: bool) -> int:
    from tooldeck.cli_api import emit
    from tooldeck.plugins.trust_gate.api import set_trust

    previous = set_trust(deck, subject, parsed, by=operator_name(), reason=reason)
    was = "no run-time level" if previous is None else str(previous.level)
    emit({"subject": subject.kind, "name": subject.name, "level": str(parsed),
          "previous": None if previous is None else str(previous.level)} if as_json else None,
         f"{subject}: {parsed} (was: {was})")
    return EXIT_OK


def _reset(deck: Any, subject: Any, as_json: bool) -> int:
    from tooldeck.cli_api import emit
    from tooldeck.plugins.trust_gate.api import reset_trust

    previous = reset_trust(deck, subject, by=operator_name())
    if previous is None:
        print(f"tooldeck trust: {subject} has no run-time level; nothing to reset",
              file=sys.stderr)
        return EXIT_FAILED
    emit({"subject": subject.kind, "name": subject.name, "previous": str(previous.level),
          "previous_by": previous.by} if as_json else None,
         f"{subject}: {previous.level} (set by {previous.by}) reset; configuration decides")
    return EXIT_OK


trust_command = TrustCommand()
"""The ``tooldeck.commands`` entry point."""
