"""The verifier gate: runs the enabled verifiers in order; the first block denies the call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tooldeck import hookimpl
from tooldeck.audit import runtime_event
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.verifiers.outcome import Verdict as Found
from tooldeck.plugins.verifiers.outcome import Verifier
from tooldeck.runtime import Runtime

__all__ = ["VerifierGate"]


class VerifierGate:
    """Asks each verifier about a call: a block denies, a warning is audited, else abstain.

    A block is a deny vote whose ``rule`` is the verifier's name and whose reason is its
    message. A warning never stops the call: it is written to the audit log at once as a
    ``verifier.warn`` event (tool, call id, caller, verifier, message). A verifier that raises
    blocks, naming itself (fail closed).

    :param verifiers: the enabled verifiers, in the order they run.
    :param exempt: verifier name -> tool ids it skips.
    :param skip_own_tools: the destructive, injection and firewall verifiers skip tooldeck's
        own tools (:meth:`tooldeck.runtime.Runtime.is_own_tool`).
    """

    name = "pre_execution"
    _SKIP_OWN = frozenset({"destructive", "injection", "firewall"})

    def __init__(self, verifiers: Sequence[Verifier],
                 exempt: Mapping[str, frozenset[str]] | None = None, *,
                 skip_own_tools: bool = False) -> None:
        self.verifiers = tuple(verifiers)
        self.exempt = dict(exempt or {})
        self.skip_own_tools = skip_own_tools

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef,
                            runtime: Runtime) -> Decision | None:
        """Deny on the first block; audit warnings; otherwise abstain."""
        own = self.skip_own_tools and runtime.is_own_tool(tool)
        for verifier in self.verifiers:
            if tool.id in self.exempt.get(verifier.name, ()):
                continue
            if own and verifier.name in self._SKIP_OWN:
                continue
            try:
                outcome = verifier.verify(call, tool, runtime)
            except Exception as exc:
                return Decision(Verdict.DENY, f"verifier {verifier.name!r} failed: "
                                f"{type(exc).__name__}: {exc}", "verifiers", verifier.name)
            if outcome.verdict is Found.BLOCK:
                return Decision(Verdict.DENY, outcome.message, "verifiers", verifier.name)
            if outcome.verdict is Found.WARN:
                fields = {"tool": call.tool_id, "call_id": call.call_id,
                          "verifier": verifier.name, "message": outcome.message}
                if call.caller_id:
                    fields["caller_id"] = call.caller_id
                runtime.hooks.audit(runtime_event("verifier.warn", fields), runtime)
        return None
