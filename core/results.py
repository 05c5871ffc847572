"""How a call ended: :class:`ToolResult`, what the deck returns and the audit record describes."""

from __future__ import annotations

import attrs

from tooldeck.errors import ToolError
from tooldeck.models import Decision, ToolCall, ToolOutput

__all__ = ["ToolResult"]


@attrs.frozen
class ToolResult:
    """How a call ended: an output or an error, with the decision that governed it.

    :param call: the call (TAFC fields stripped).
    :param output: the tool's output on success.
    :param error: the classified error on failure.
    :param decision: the combined gate decision, when the call got that far.
    :param duration_ms: time spent in the pipeline.
    :param approved_by: who confirmed an ``ask``, when someone did.
    :param approval_id: the pending approval an ``ask`` became (``confirm=DEFER``), or the
        approval a resumed call ran under.
    """

    call: ToolCall
    output: ToolOutput | None = None
    error: ToolError | None = None
    decision: Decision | None = None
    duration_ms: float = 0.0
    approved_by: str | None = None
    approval_id: str | None = None

    @property
    def ok(self) -> bool:
        """True when the tool ran and returned an output."""
        return self.error is None

    @property
    def text(self) -> str:
        """What the model is given: the output's summary, or the ``[tool_error]`` block."""
        if self.error is not None:
            return self.error.feedback()
        assert self.output is not None
        return self.output.summary
