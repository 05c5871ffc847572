"""A caller's recent outcomes, and the alert their failure rate raises (Zeph §9.6).

=========================  ===================================================================
rule                       behaviour
=========================  ===================================================================
outcomes                   success, error or blocked; a blocked call counts as a failure
window                     the newest ``window_size`` outcomes of the caller
too few                    fewer than 3 outcomes raise nothing
critical                   failures / outcomes ≥ ``critical_threshold`` (0.8):
                           ``error rate 80% (8/10) exceeds critical threshold``
warning                    otherwise ≥ ``error_threshold`` (0.5):
                           ``error rate 50% (5/10) exceeds warning threshold``
=========================  ===================================================================

Which audit record is which outcome:

=========================================  ===========================================
``result.type`` (``error_category``)       outcome
=========================================  ===========================================
``success``                                success
``blocked``, ``quota_blocked``             blocked
``error``, ``timeout``, ``rollback``       error (a rolled-back command failed)
``error`` (``confirmation_required``,      none: the user's answer, not the caller's
``cancelled``)                             doing, is not counted
anything else                              error (fail closed)
=========================================  ===========================================
"""

from __future__ import annotations

import collections
import enum
from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["MIN_SAMPLES", "Alert", "Outcome", "Severity", "Window", "outcome_of"]

MIN_SAMPLES = 3
"""Fewer outcomes than this raise no alert."""

_NOT_COUNTED = frozenset({"confirmation_required", "cancelled"})


class Outcome(enum.Enum):
    """How one call ended, as the detector counts it."""

    SUCCESS = "success"
    ERROR = "error"
    BLOCKED = "blocked"


class Severity(enum.Enum):
    """How bad a failure rate is."""

    WARNING = "warning"
    CRITICAL = "critical"


@attrs.frozen
class Alert:
    """A failure rate over a threshold.

    :param severity: warning or critical.
    :param failures: errors and blocked calls in the window.
    :param total: outcomes in the window.
    """

    severity: Severity
    failures: int
    total: int

    @property
    def rate(self) -> float:
        """Failures per outcome, 0 to 1."""
        return self.failures / self.total

    @property
    def message(self) -> str:
        """Zeph's wording: ``error rate 80% (8/10) exceeds critical threshold``."""
        return (f"error rate {self.rate * 100:.0f}% ({self.failures}/{self.total}) exceeds "
                f"{self.severity.value} threshold")


def outcome_of(fields: Mapping[str, Any]) -> Outcome | None:
    """The outcome a ``tool_call`` audit record reports, or ``None`` when it does not count.

    :param fields: the record's fields.
    """
    result = fields.get("result")
    kind = result.get("type") if isinstance(result, Mapping) else None
    if kind == "success":
        return Outcome.SUCCESS
    if kind in ("blocked", "quota_blocked"):
        return Outcome.BLOCKED
    if fields.get("error_category") in _NOT_COUNTED:
        return None
    return Outcome.ERROR


class Window:
    """The newest outcomes of one caller.

    :param size: how many are kept.
    """

    def __init__(self, size: int) -> None:
        self._outcomes: collections.deque[Outcome] = collections.deque(maxlen=size)

    @property
    def size(self) -> int:
        """How many outcomes are kept."""
        return self._outcomes.maxlen or 0

    def resize(self, size: int) -> None:
        """Keep ``size`` outcomes from now on (the newest ones stay)."""
        if size != self.size:
            self._outcomes = collections.deque(self._outcomes, maxlen=size)

    def record(self, outcome: Outcome) -> None:
        """Add the newest outcome, forgetting the oldest beyond the size."""
        self._outcomes.append(outcome)

    def alert(self, error_threshold: float, critical_threshold: float) -> Alert | None:
        """The alert the window raises now, if any.

        :param error_threshold: the warning rate.
        :param critical_threshold: the critical rate.
        """
        total = len(self._outcomes)
        if total < MIN_SAMPLES:
            return None
        failures = sum(outcome is not Outcome.SUCCESS for outcome in self._outcomes)
        # int / int is correctly rounded: 8 / 10 is the same float as the literal 0.8
        rate = failures / total
        if rate >= critical_threshold:
            return Alert(Severity.CRITICAL, failures, total)
        if rate >= error_threshold:
            return Alert(Severity.WARNING, failures, total)
        return None
