"""The policy gate: judges every call by the compiled rules; the model sees no rule detail."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tooldeck import hookimpl
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.policy_enforcer.paths import call_paths
from tooldeck.plugins.policy_enforcer.rules import (
    CompiledPolicyRule,
    Facts,
    judge,
    string_values,
)
from tooldeck.runtime import Runtime

__all__ = ["DENIED", "PolicyGate"]

DENIED = "Tool call denied by policy"
"""What the model is told on a deny: which rule fired stays in the audit record."""


class PolicyGate:
    """Votes deny on a call the policy denies, allow when an allow rule fires.

    A call allowed only by ``default_effect = "allow"`` gets no vote: the policy has no
    opinion on it and the other gates decide (with none voting, the core asks). The
    decision's ``rule`` holds the trace (``rule[3] deny: tool=bash matched shell; …``) and its
    ``source`` the file the rules came from; its ``reason`` is the generic :data:`DENIED`.

    :param rules: the compiled rules.
    :param default_effect: ``allow`` or ``deny``.
    :param source: the file the rules came from.
    :param policy_file: the policy file they were read from, if any.
    """

    name = "declarative_policy"

    def __init__(self, rules: Sequence[CompiledPolicyRule], default_effect: str,
                 source: str, policy_file: Path | None = None) -> None:
        self.rules = tuple(rules)
        self.policy_file = policy_file
        self.default_effect = default_effect
        self.source = source
        self._needs_trust = any(r.trust is not None for r in self.rules)
        self._needs_paths = any(r.path_globs for r in self.rules)
        self._needs_strings = any(r.args_regex is not None for r in self.rules)

    def facts(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> Facts:
        """Gather what the rules are judged on for ``call``."""
        params = call.params
        return Facts(
            tool=tool,
            paths=call_paths(params) if self._needs_paths else (),
            strings=tuple(string_values(dict(params))) if self._needs_strings else (),
            trust=runtime.trust_level(call, tool) if self._needs_trust else None,
            environ=frozenset(os.environ),
        )

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef,
                            runtime: Runtime) -> Decision | None:
        """Deny (generic message, trace in ``rule``), allow on an allow rule, else abstain."""
        result = judge(self.rules, self.default_effect, self.facts(call, tool, runtime))
        if result.effect == "deny":
            return Decision(Verdict.DENY, DENIED, "policy_enforcer", result.trace, self.source)
        if result.by_default:
            return None
        return Decision(Verdict.ALLOW, f"allowed by policy ({result.trace})", "policy_enforcer",
                        result.trace, self.source)

    @hookimpl
    def tooldeck_tool_hidden(self, tool: ToolDef) -> bool:
        """Hide a tool every call of which is denied whatever its parameters.

        That is: a deny rule that only names the tool (and capabilities) fires on it, or the
        default denies and no allow rule names it.
        """
        named = [r for r in self.rules if r.matches_tool(tool)]
        if any(r.deny and r.static for r in named):
            return True
        return self.default_effect == "deny" and not any(not r.deny for r in named)
