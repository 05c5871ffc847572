"""What a verifier says about a call: allow, warn (allowed, audited) or block."""

from __future__ import annotations

import enum
from typing import Protocol

import attrs

from tooldeck.models import ToolCall, ToolDef
from tooldeck.runtime import Runtime

__all__ = ["Outcome", "Verdict", "Verifier"]


class Verdict(str, enum.Enum):
    """A verifier's verdict."""

    ALLOW = "allow"
    WARN = "warn"
    BLOCK = "block"


@attrs.frozen
class Outcome:
    """A verifier's verdict and its message (empty for allow).

    :param verdict: allow, warn or block.
    :param message: for warn and block, what was found (``[<Verifier>] …``).
    """

    verdict: Verdict
    message: str = ""

    @classmethod
    def allow(cls) -> Outcome:
        """Nothing found."""
        return _ALLOW

    @classmethod
    def warn(cls, message: str) -> Outcome:
        """Allowed, with an audited warning."""
        return cls(Verdict.WARN, message)

    @classmethod
    def block(cls, message: str) -> Outcome:
        """Refused."""
        return cls(Verdict.BLOCK, message)


_ALLOW = Outcome(Verdict.ALLOW)


class Verifier(Protocol):
    """One pre-execution check: ``name`` (as in the config and the audit) and ``verify``."""

    name: str

    def verify(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> Outcome:
        """Judge ``call`` (parameters validated) on ``runtime``."""
        ...
