"""The trust gate: what each trust level denies (Zeph's TrustGate, §7.3).

=====================  ============  =========================================================
rule                   level         denies
=====================  ============  =========================================================
``blocked``            blocked       every call: ``all tools blocked (trust=blocked)``
``quarantine-name``    quarantined   bash, write, edit, delete_path, move_path, copy_path,
                                     create_directory, web_scrape, fetch, memory_save:
                                     ``<tool> denied (trust=quarantined)``
``quarantine-suffix``  quarantined   an id ending in ``_`` + one of those names
                                     (``shell_bash``, ``fs_delete_path``; not
                                     ``filesystem_write_file``)
``quarantine-mcp``     quarantined   every tool an MCP server provides (``mcp_`` ids, ``mcp:``
                                     sources)
``quarantine-effect``  quarantined   a tool that declares the ``write``, ``exec``, ``delete``
                                     or ``network`` capability (tooldeck's own ``shell_undo``,
                                     say; Zeph goes by name only)
=====================  ============  =========================================================

``trusted`` and ``verified`` deny nothing. The gate never allows: when no rule fires it
abstains, so the other gates (permissions, the shell gate…) still decide, and an ``ask`` stays
an ``ask`` whatever the level. A denial is not confirmable: confirming a call never lifts it.
The level judged is the runtime's combined one (:meth:`tooldeck.runtime.Runtime.trust_level`),
so another plugin's answer (the anomaly detector's) can only make it more severe. Levels are
ordered, and each rule denies at its level and every more severe one: a call allowed at a
level is allowed at every less severe level.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from tooldeck import hookimpl
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.trust_gate.levels import (
    TrustView,
    call_view,
    caller_view,
    is_mcp_tool,
    source_view,
)
from tooldeck.plugins.trust_gate.settings import TrustSettings
from tooldeck.runtime import Runtime
from tooldeck.trust_levels import TrustLevel
from tooldeck.trust_state import Override, Subject, TrustStateError, session_trust_state

__all__ = ["QUARANTINE_DENIED", "TrustGate", "denial"]

QUARANTINE_DENIED = frozenset({
    "bash", "write", "edit", "delete_path", "move_path", "copy_path", "create_directory",
    "web_scrape", "fetch", "memory_save",
})
"""Zeph's tools that a quarantined source or caller may not use (also as ``_<name>`` suffix)."""

_EFFECTS = frozenset({"write", "execute", "state", "network"})


def _rule_quarantine_name(tool: ToolDef) -> bool:
    return tool.id in QUARANTINE_DENIED


def _rule_quarantine_suffix(tool: ToolDef) -> bool:
    return any(tool.id.endswith("_" + name) for name in QUARANTINE_DENIED)


def _rule_quarantine_mcp(tool: ToolDef) -> bool:
    return is_mcp_tool(tool)


def _rule_quarantine_effect(tool: ToolDef) -> bool:
    return bool(tool.effective_capabilities & _EFFECTS)


_QUARANTINE_RULES = (
    ("quarantine-name", _rule_quarantine_name),
    ("quarantine-suffix", _rule_quarantine_suffix),
    ("quarantine-mcp", _rule_quarantine_mcp),
    ("quarantine-effect", _rule_quarantine_effect),
)


def denial(level: TrustLevel, tool: ToolDef) -> tuple[str, str] | None:
    """Which rule denies ``tool`` at ``level``, with the message for the model.

    :param level: the call's combined trust level.
    :param tool: the called tool.
    :returns: ``(rule, message)``, or ``None`` when trust denies nothing.
    """
    if level >= TrustLevel.BLOCKED:
        return "blocked", "all tools blocked (trust=blocked)"
    if level >= TrustLevel.QUARANTINED:
        for name, rule in _QUARANTINE_RULES:
            if rule(tool):
                return name, f"{tool.id} denied (trust=quarantined)"
    return None


class TrustGate:
    """Answers ``tooldeck_trust_level`` from ``[tools.trust]`` and the run-time rows; denies.

    :param settings: ``[tools.trust]``.
    """

    name = "gate"

    def __init__(self, settings: TrustSettings) -> None:
        self.settings = settings
        self._reported: set[str] = set()
        self._views = _Views(settings, {})

    def _unreadable(self, exc: TrustStateError) -> TrustView:
        message = str(exc)
        if message not in self._reported:  # once per runtime, not once per call
            self._reported.add(message)
            print(f"tooldeck: trust state unreadable, every call is blocked: {message}",
                  file=sys.stderr)
        return TrustView(TrustLevel.BLOCKED, "trust state unreadable: {}", (message,))

    def view(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> TrustView:
        """The level this plugin gives ``call``, and where it came from.

        ``blocked`` when the run-time state cannot be read.
        """
        try:
            rows = session_trust_state(runtime).overrides()
        except TrustStateError as exc:
            return self._unreadable(exc)
        known = self._views.rows
        if rows is not known and rows != known:  # changed (replaced, never mutated in place)
            self._views = _Views(self.settings, rows)
        return self._views.call(call, tool)

    @hookimpl
    def tooldeck_trust_level(self, call: ToolCall, tool: ToolDef,
                             runtime: Runtime) -> TrustLevel:
        """The level from the tool's source and the caller (see :mod:`.levels`)."""
        return self.view(call, tool, runtime).level

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef,
                            runtime: Runtime) -> Decision | None:
        """Deny what the call's combined trust level denies; otherwise abstain."""
        level = runtime.trust_level(call, tool)
        denied = denial(level, tool)
        if denied is None:
            return None
        rule, message = denied
        own = self.view(call, tool, runtime)
        why = own.why if own.level == level else "another plugin's trust level answer"
        return Decision(Verdict.DENY, message, gate="trust_gate", rule=f"{rule} ({why})")

    @hookimpl
    def tooldeck_tool_hidden(self, tool: ToolDef, runtime: Runtime) -> bool:
        """Hide a tool its source's level always denies (no caller can lift a source's level)."""
        try:
            rows = session_trust_state(runtime).overrides()
        except TrustStateError:
            return False  # hiding is cosmetic; every call is denied anyway
        return denial(source_view(self.settings, rows, tool).level, tool) is not None


_MAX_CALLERS = 4096
"""Caller levels kept per state version (a host may make up a caller id per call)."""


class _Views:
    """The levels of one version of the trust state, each worked out once.

    A level depends only on the settings, the run-time rows and the tool (its source) or the
    caller id; the gate asks for the rows on every call, and a new version of them starts a
    new ``_Views``.

    :param settings: ``[tools.trust]``.
    :param rows: one version of the run-time rows.
    """

    def __init__(self, settings: TrustSettings, rows: Mapping[Subject, Override]) -> None:
        self.settings = settings
        self.rows = rows
        self._sources: dict[str, tuple[ToolDef, TrustView]] = {}
        self._callers: dict[str | None, TrustView] = {}

    def call(self, call: ToolCall, tool: ToolDef) -> TrustView:
        """The level of ``call`` to ``tool``: see :mod:`~tooldeck.plugins.trust_gate.levels`."""
        known = self._sources.get(tool.id)
        if known is None or known[0] is not tool:
            known = self._sources[tool.id] = (tool, source_view(self.settings, self.rows, tool))
        source = known[1]
        caller_id = call.caller_id
        caller = (self._callers.get(caller_id)
                  if caller_id is None or type(caller_id) is str else None)
        if caller is None:
            caller = caller_view(self.settings, self.rows, caller_id)
            if (caller_id is None or type(caller_id) is str) and \
                    len(self._callers) < _MAX_CALLERS:
                self._callers[caller_id] = caller
        return call_view(source, caller)
