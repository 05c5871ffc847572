"""The scope gate: out-of-scope calls are denied and out-of-scope tools hidden."""

from __future__ import annotations

from collections.abc import Mapping

from tooldeck import hookimpl
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.scopes.active import ACTIVE, ActiveScopes
from tooldeck.plugins.scopes.compile import Scope
from tooldeck.plugins.scopes.ids import namespaced_id
from tooldeck.runtime import Runtime

__all__ = ["DENIED", "ScopeGate"]

DENIED = "tool call denied by policy"
"""What the model is told (Zeph's text); the scope and the tool are in the audit's rule."""


class ScopeGate:
    """Denies calls to tools outside the caller's active scope; hides them from the catalog.

    Until :meth:`bind` gave it the compiled scopes (at configure time, when the registry is
    known), it denies every call: fail closed.

    :param default_scope: the scope in force where none was chosen at runtime.
    :param source: the configuration file, for the audit.
    """

    name = "task_scope"

    def __init__(self, default_scope: str, source: str) -> None:
        self.default_scope = default_scope
        self.source = source
        self.scopes: Mapping[str, Scope] = {}

    def bind(self, scopes: Mapping[str, Scope]) -> None:
        """Install the scopes compiled against this runtime's registry."""
        self.scopes = dict(scopes)

    def scope_for(self, runtime: Runtime, caller_id: str | None) -> tuple[str, Scope | None]:
        """The name of the caller's active scope and the scope (``None`` if unknown)."""
        active = runtime.session.setdefault(ACTIVE, ActiveScopes)
        name = active.name_for(caller_id, self.default_scope)
        return name, self.scopes.get(name)

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef,
                            runtime: Runtime) -> Decision | None:
        """Deny a call outside the active scope; abstain otherwise (it vouches for nothing)."""
        name, scope = self.scope_for(runtime, call.caller_id)
        if scope is not None and scope.admits(tool.id):
            return None
        why = "unknown scope" if scope is None else "not in scope"
        return Decision(Verdict.DENY, DENIED, "scopes",
                        f"out_of_scope: {namespaced_id(tool.id)} {why} '{name}'", self.source)

    @hookimpl
    def tooldeck_tool_hidden(self, tool: ToolDef, runtime: Runtime) -> bool:
        """Hide a tool outside the scope of calls without a caller id (the catalog's)."""
        _, scope = self.scope_for(runtime, None)
        return scope is None or not scope.admits(tool.id)
