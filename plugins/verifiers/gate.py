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

_MAX_TOOLS = 1024
"""Tools whose verifier list is kept (a runtime has far fewer; this bounds odd callers)."""


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
        self._by_tool: dict[str, tuple[ToolDef, tuple[Verifier, ...]]] = {}

    def applicable(self, tool: ToolDef, runtime: Runtime) -> tuple[Verifier, ...]:
        """The verifiers that judge calls to ``tool``, in order (worked out once per tool).

        :param tool: the called tool.
        :param runtime: the runtime this gate belongs to (which tools are tooldeck's own).
        :returns: the enabled verifiers less those exempting the tool, and less the ones that
            skip tooldeck's own tools when it is one.
        """
        known = self._by_tool.get(tool.id)
        if known is not None and known[0] is tool:
            return known[1]
        own = self.skip_own_tools and runtime.is_own_tool(tool)
        chosen = tuple(v for v in self.verifiers
                       if tool.id not in self.exempt.get(v.name, ())
                       and not (own and v.name in self._SKIP_OWN))
        if len(self._by_tool) < _MAX_TOOLS:
            self._by_tool[tool.id] = (tool, chosen)
        return chosen

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef,
                            runtime: Runtime) -> Decision | None:
        """Deny on the first block; audit warnings; otherwise abstain."""
        for verifier in self.applicable(tool, runtime):
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
