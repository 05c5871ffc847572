"""``tooldeck approvals list | approve | deny``: resolve deferred ``ask`` decisions.

::

    tooldeck approvals list                      # pending, not expired
    tooldeck approvals list --all                # every kept approval
    tooldeck approvals approve ID                # this exact call
    tooldeck approvals approve ID --scope command   # + the same command again, this caller
    tooldeck approvals approve ID --scope rule      # + what the same ask rule catches
    tooldeck approvals deny ID --reason "not now"

The store is the one of the configuration (``--config`` or the lookup order; see
``[tools.approvals]``), shared by every process of the user. Approving does not run the
call: the deck that deferred it resumes it (``await deck.resume(ID)``). Approvals and
denials are audited (``approval.approved`` / ``approval.denied``). Exit codes: 0 done,
1 the approval cannot be resolved (unknown, expired, resolved already), 2 a usage or
configuration error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tooldeck.cli_api import common_options, operator_name, utc_stamp

__all__ = ["ApprovalsCommand", "approvals_command"]

EXIT_OK, EXIT_FAILED = 0, 1


class ApprovalsCommand:
    """``tooldeck approvals``: list, approve and deny pending approvals."""

    help = "list, approve or deny deferred calls (pending approvals)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare ``list``, ``approve`` and ``deny``."""
        common = common_options()
        actions = parser.add_subparsers(dest="approvals_action", metavar="ACTION",
                                        required=True)
        listing = actions.add_parser("list", parents=[common],
                                     help="pending approvals (--all: every kept one)")
        listing.add_argument("--all", action="store_true", help="resolved and expired too")
        approve = actions.add_parser("approve", parents=[common], help="approve one")
        approve.add_argument("id", help="the approval id")
        approve.add_argument("--scope", choices=("call", "command", "rule"), default="call",
                             help="call: this exact call (default); command: also the same "
                             "tool and parameters for this caller; rule: also what the same "
                             "ask rule catches for this caller (both for grant_ttl_secs)")
        deny = actions.add_parser("deny", parents=[common], help="deny one")
        deny.add_argument("id", help="the approval id")
        deny.add_argument("--reason", default="", help="why (given to the model)")

    def run(self, args: argparse.Namespace) -> int:
        """Open the deck of the configuration, then list, approve or deny."""
        from tooldeck.approvals import ApprovalError
        from tooldeck.cli_api import config_error, open_deck
        from tooldeck.errors import ConfigError

        as_json = bool(getattr(args, "json", False))
        try:
            deck = open_deck(getattr(args, "config", None))
        except ConfigError as exc:
            return config_error(exc, as_json)
        try:
            if args.approvals_action == "list":
                return _list(deck, bool(args.all), as_json)
            return _resolve(deck, args, as_json)
        except ApprovalError as exc:
            from tooldeck.cli_api import emit

            emit({"error": "approval", "message": str(exc)} if as_json else None,
                 f"tooldeck approvals: {exc}", stream=sys.stderr)
            return EXIT_FAILED
        finally:
            deck.close()


def _list(deck: Any, everything: bool, as_json: bool) -> int:
    from tooldeck.cli_api import emit
    from tooldeck.safe_json import safe_repr

    records = deck.approvals.records() if everything else deck.approvals.pending()
    lines = []
    for record in records:
        rule = record.decision.get("rule") or record.decision.get("gate")
        lines.append(f"{record.id}  {record.status}  {record.tool}: "
                     f"{safe_repr(record.display, 120)}  caller {safe_repr(record.caller_id)}"
                     f"  ask by {rule}  expires {utc_stamp(record.expires)}")
    emit([r.public() for r in records] if as_json else None,
         "\n".join(lines) or "no pending approvals")
    return EXIT_OK


def _resolve(deck: Any, args: argparse.Namespace, as_json: bool) -> int:
    from tooldeck.audit import runtime_event
    from tooldeck.cli_api import emit

    who = operator_name()
    if args.approvals_action == "approve":
        record = deck.approvals.approve(args.id, by=who, scope=args.scope)
        text = f"approved {record.id} ({record.tool}, scope {record.scope})"
    else:
        record = deck.approvals.deny(args.id, by=who, reason=args.reason)
        text = f"denied {record.id} ({record.tool})"
    runtime = deck.runtime
    runtime.hooks.audit(runtime_event(f"approval.{record.status}", {
        "approval_id": record.id, "tool": record.tool, "by": who, "scope": record.scope,
        "reason": record.reason}), runtime)
    emit(record.public() if as_json else None, text)
    return EXIT_OK


approvals_command = ApprovalsCommand()
"""The ``tooldeck.commands`` entry point."""
