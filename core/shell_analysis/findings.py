"""The result type shared by the command-class rules: a verdict, the class and a reason."""

from __future__ import annotations

import attrs

__all__ = ["ASK", "DENY", "Finding", "worst"]

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
