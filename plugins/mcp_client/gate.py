"""The ``mcp_client.trust`` gate: an MCP server's trust level decides whether its tools run.

=====================  ===================================================================
rule                   behaviour
=====================  ===================================================================
blocked                an MCP tool whose trust is ``blocked`` is denied, confirmed or not
                       (the plugin does not even start a blocked server; this covers tools
                       marked blocked in any other way)
quarantined            every tool of a ``trust = "quarantined"`` server (the default) is
                       denied; the message says how to opt in (``trust = "verified"``)
verified / trusted     the gate abstains: permission rules and the other gates decide (a tool
                       without permission rules asks)
unknown level          an MCP tool whose trust is missing or not a known level is denied
not MCP                tools whose ``source`` is not ``mcp:<server>`` are not judged
hidden                 tools this gate always denies are left out of the catalog
=====================  ===================================================================
"""

from __future__ import annotations

from tooldeck import hookimpl
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.mcp_client.tools import server_of

__all__ = ["TrustGate"]

_GATE = "mcp_client"
_RUNS = frozenset({"verified", "trusted"})


class TrustGate:
    """Deny the tools of blocked and quarantined servers."""

    name = "trust"

    def verdict(self, tool: ToolDef) -> Decision | None:
        """The gate's decision on any call to ``tool``; ``None`` to abstain."""
        server = server_of(tool)
        if server is None:
            return None
        if tool.trust in _RUNS:
            return None
        if tool.trust == "blocked":
            return Decision(Verdict.DENY,
                            f"{tool.id}: mcp server {server!r} is blocked (trust = \"blocked\")",
                            _GATE, "trust.blocked")
        if tool.trust == "quarantined":
            return Decision(
                Verdict.DENY,
                f"{tool.id}: mcp server {server!r} is quarantined (the default trust); to use "
                f"its tools, set trust = \"verified\" in its [[mcp.servers]] table "
                f"(name = {server!r}) and give them permission rules",
                _GATE, "trust.quarantined")
        return Decision(Verdict.DENY,
                        f"{tool.id}: mcp server {server!r} has no known trust level "
                        f"({tool.trust!r})", _GATE, "trust.unknown")

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef) -> Decision | None:
        """Deny calls to tools of blocked or quarantined servers."""
        return self.verdict(tool)

    @hookimpl
    def tooldeck_tool_hidden(self, tool: ToolDef) -> bool:
        """Hide the tools this gate always denies."""
        return self.verdict(tool) is not None
