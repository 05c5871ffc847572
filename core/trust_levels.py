"""Trust levels of tool sources and callers: one ordered scale every gate reads.

A tool comes from a source (tooldeck's own plugins, an MCP server, a skill) and a call comes
from a caller (a session, a scheduled task); each may carry a trust level. Levels are ordered
by severity; combining two keeps the more severe::

    trusted (0) < verified (1) < quarantined (2) < blocked (3)

Plugins answer :func:`tooldeck.hookspecs.tooldeck_trust_level` for a call; the runtime
combines every answer with :func:`most_severe`. When no plugin answers, the call is
``trusted``: without a trust plugin there is no trust axis, and the other gates decide alone.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

__all__ = ["TrustLevel", "most_severe", "parse_trust_level"]


class TrustLevel(enum.IntEnum):
    """How far a tool source or caller is trusted; a higher value is more severe."""

    TRUSTED = 0
    """No trust-based restriction; the permission policy still applies."""
    VERIFIED = 1
    """Behaves as ``trusted`` at the trust gate; policy rules may distinguish the two."""
    QUARANTINED = 2
    """Read-only tools only: anything that writes, executes or reaches the network is denied."""
    BLOCKED = 3
    """Every tool is denied, confirmed calls included."""

    def __str__(self) -> str:
        return self.name.lower()


def parse_trust_level(text: str) -> TrustLevel:
    """The level named by ``text`` (case-insensitive, surrounding spaces ignored).

    :param text: ``trusted``, ``verified``, ``quarantined`` or ``blocked``.
    :returns: the level.
    :raises ValueError: for any other text, listing the accepted names.
    """
    try:
        return TrustLevel[text.strip().upper()]
    except KeyError:
        names = ", ".join(str(level) for level in TrustLevel)
        raise ValueError(f"unknown trust level {text!r}; expected: {names}") from None


def most_severe(
    levels: Iterable[TrustLevel], default: TrustLevel = TrustLevel.TRUSTED
) -> TrustLevel:
    """The most severe of ``levels``, or ``default`` when there are none.

    :param levels: the levels to combine.
    :param default: what an empty input means.
    :returns: the highest level.
    """
    return max(levels, default=default)
