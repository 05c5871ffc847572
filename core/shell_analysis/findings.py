"""The result type shared by the command-class rules: a verdict, the class and a reason."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from tooldeck.shell_analysis.model import Segment

__all__ = ["ASK", "DENY", "Finding", "argv_finding", "worst"]

DENY = "deny"
"""The finding's command must not run."""

ASK = "ask"
"""The finding's command needs a human yes."""


@attrs.frozen
class Finding:
    """Why one command class fired.

    :param verdict: :data:`DENY` or :data:`ASK`.
    :param rule: the class, e.g. ``escalation`` or ``routine-destructive``.
    :param detail: one sentence for the audit log.
    """

    verdict: str
    rule: str
    detail: str


def worst(findings: list[Finding]) -> Finding | None:
    """Pick the strictest finding (the first deny, else the first ask).

    :param findings: findings in source order.
    :returns: the strictest one, or ``None`` when there is none.
    """
    for finding in findings:
        if finding.verdict == DENY:
            return finding
    return findings[0] if findings else None


def argv_finding(segment: Segment, verdict: str, rule: str,
                 why: Callable[[str, Sequence[str]], str | None]) -> Finding | None:
    """The finding of a rule that judges a segment's program and arguments by a reason.

    :param segment: one analysed segment.
    :param verdict: :data:`DENY` or :data:`ASK`, when ``why`` gives a reason.
    :param rule: the class named in the finding.
    :param why: the program's name and its arguments → what the command does, or ``None``.
    :returns: the finding (``"'<segment>': <reason>"``), or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    reason = why(head, args)
    return None if reason is None else Finding(verdict, rule, f"{segment.text!r}: {reason}")
