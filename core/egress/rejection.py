"""The value a failed rule produces, and the exception that carries it out of the guard."""

from __future__ import annotations

import attrs

from tooldeck.errors import ErrorCategory, ToolError

__all__ = ["PolicyViolation", "Rejection"]


@attrs.frozen
class Rejection:
    """A rule that refused a URL, host or address.

    :param rule: the rule's identifier, as listed in the rule table of its module.
    :param detail: what the rule saw, for a human.
    """

    rule: str
    detail: str

    @property
    def message(self) -> str:
        """The one-line explanation naming the rule, e.g. ``blocked by rule 'scheme': ...``."""
        return f"blocked by rule '{self.rule}': {self.detail}"


class PolicyViolation(ToolError):
    """A ``policy_blocked`` tool error raised when a guard rule refuses a request.

    :param rejection: the rule that fired and what it saw.
    """

    def __init__(self, rejection: Rejection) -> None:
        super().__init__(ErrorCategory.POLICY_BLOCKED, rejection.message)
        self.rejection = rejection
