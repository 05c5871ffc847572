r"""Built-in gate ``permissions``: per-tool ordered glob rules from ``[tools.permissions]``.

=========================  ==============================================================
rule                       behaviour
=========================  ==============================================================
autonomy full              every call is allowed (``[agent] autonomy = "full"``)
autonomy readonly          read-only tools are allowed unless a ``deny`` rule matches; every
                           other tool is denied, and so are tools that use the network
                           unless ``[agent] readonly_network = true`` (then their rules
                           decide, as under supervised)
rule list per tool         ``[[tools.permissions.<tool>]]`` tables, in order; the key is the
                           tool id, compared exactly (``BASH`` is not ``bash``)
glob on the input          each ``pattern`` is a glob matched against the tool's whole input
                           (command for ``bash``, path for file tools, url for web tools),
                           case-insensitively; ``*`` also crosses ``/`` and newlines,
                           ``?`` is one character, ``[…]`` a class, ``\\`` escapes
first match wins           the first rule whose pattern matches decides
no match → ask             a tool with rules that match nothing asks
no rules → ask             a tool without any rule list asks (fail closed)
legacy bash rules          without ``[tools.permissions.bash]``, ``[tools.shell]``
                           ``blocked_commands`` become ``*cmd*`` deny rules and
                           ``confirm_patterns`` (default: Zeph's twelve) ``*pat*`` ask
                           rules, followed by ``*`` allow
fully denied → hidden      a tool whose rules are all ``deny`` is left out of the catalog;
                           under readonly every tool that is not read-only is too (under
                           full nothing is hidden: every permission check allows)
inline examples            a rule's ``match`` examples must be decided by that rule and its
                           ``not_match`` examples must not match it, or the policy is refused
known tool ids             a rule list for a tool id no running plugin defines refuses the
                           policy, naming file, key and the closest tool id (``Bash`` is a
                           typo of ``bash``, never silently ignored); when some installed
                           plugin is not running and no defined tool id is close, the list
                           is kept with a warning (it may be that plugin's); the embedded
                           default config, which nobody typed, is not checked
=========================  ==============================================================
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

import attrs
from pydantic import Field, RootModel

from tooldeck import hookimpl
from tooldeck.config import Settings, embedded_default_text
from tooldeck.errors import ConfigError
from tooldeck.models import BUILTIN, Decision, ToolCall, ToolDef, Verdict
from tooldeck.permission_rules import (
    CompiledRule,
    PermissionRule,
    compile_rules,
    first_match,
    glob_literal,
)
from tooldeck.runtime import Runtime

SECTION = "tools.permissions"
NEAR = 0.75
"""How similar (difflib ratio, ignoring case) a defined tool id must be to count as meant."""

LEGACY_CONFIRM_PATTERNS = (
    "rm ", "git push -f", "git push --force", "drop table", "drop database", "truncate ",
    "$(", "`", "<(", ">(", "<<<", "eval ",
)
"""Zeph's default ``confirm_patterns``, used when ``[tools.shell]`` sets none."""


class PermissionSettings(RootModel[dict[str, tuple[PermissionRule, ...]]]):
    """``[tools.permissions]``: tool id → ordered rules."""

    root: dict[str, tuple[PermissionRule, ...]] = Field(default_factory=dict)


def _command_list(shell_table: Mapping[str, Any], key: str, source: str) -> list[str] | None:
    """``[tools.shell] <key>`` as a list of non-empty strings (``None`` when absent).

    The table may be unvalidated (no enabled plugin owns it), so a string here would otherwise
    be read letter by letter, and an empty entry would match every command.
    """
    value = shell_table.get(key)
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(
            f"{source}: tools.shell.{key}: expected a list of non-empty strings, found "
            f"{value!r}", path=source, key=f"tools.shell.{key}")
    return list(value)


def legacy_bash_rules(
    shell_table: Mapping[str, Any], source: str = "<config>"
) -> tuple[PermissionRule, ...]:
    """Zeph's conversion of ``[tools.shell]`` lists into ``bash`` rules.

    :raises ConfigError: ``blocked_commands`` or ``confirm_patterns`` is not a list of
        non-empty strings.
    """
    blocked = _command_list(shell_table, "blocked_commands", source) or []
    confirm = _command_list(shell_table, "confirm_patterns", source)
    patterns = list(LEGACY_CONFIRM_PATTERNS) if confirm is None else confirm
    return (
        *(PermissionRule(pattern=f"*{glob_literal(c)}*", action="deny") for c in blocked),
        *(PermissionRule(pattern=f"*{glob_literal(p)}*", action="ask") for p in patterns),
        PermissionRule(pattern="*", action="allow"),
    )


def _legacy_provenance(rules: list[CompiledRule], settings: Settings) -> list[CompiledRule]:
    """Name each legacy rule by the ``[tools.shell]`` entry it came from, and where that was.

    The rules are those of :func:`legacy_bash_rules`, in its order: blocked commands, confirm
    patterns (Zeph's defaults when none are set), then the final ``*`` allow.
    """
    table = settings.table("tools.shell")
    blocked = len(table.get("blocked_commands") or ())
    confirm_set = table.get("confirm_patterns") is not None
    named: list[CompiledRule] = []
    for rule in rules[:-1]:
        key = "blocked_commands" if rule.index < blocked else "confirm_patterns"
        index = rule.index if rule.index < blocked else rule.index - blocked
        source = (settings.origin(f"tools.shell.{key}") if key == "blocked_commands"
                  or confirm_set else BUILTIN)
        named.append(attrs.evolve(rule, key=f"tools.shell.{key}[{index}]", line=None,
                                  source=source))
    named.append(attrs.evolve(rules[-1], key="legacy-allow", line=None, source=BUILTIN))
    return named


class PermissionGate:
    """The compiled policy of one runtime; votes on every call."""

    name = "rules"

    def __init__(self, rules: Mapping[str, list[CompiledRule]], autonomy: str, source: str,
                 readonly_network: bool = False, autonomy_source: str = "default"):
        self.rules = rules
        self.autonomy = autonomy
        self.source = source
        self.readonly_network = readonly_network
        self.autonomy_source = autonomy_source
        self._decided: dict[tuple[str, int], tuple[CompiledRule, Decision]] = {}

    def _autonomy(self, verdict: Verdict, reason: str) -> Decision:
        return Decision(verdict, reason, "permissions", "agent.autonomy", self.autonomy_source,
                        pattern=self.autonomy)

    def _network_under_readonly(self, tool: ToolDef) -> bool:
        return self.readonly_network and tool.network_read

    def fully_denied(self, tool_id: str) -> bool:
        """True when the tool has rules and every one of them denies."""
        rules = self.rules.get(tool_id)
        return bool(rules) and all(r.verdict is Verdict.DENY for r in rules or ())

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef) -> Decision:
        """Decide by autonomy level, then by the tool's first matching rule."""
        if self.autonomy == "full":
            return self._autonomy(Verdict.ALLOW, "autonomy is full")
        if self.autonomy == "readonly":
            if self._network_under_readonly(tool):
                return self._supervised(call, tool)
            if tool.network_read:
                return self._autonomy(Verdict.DENY,
                                      f"{tool.id} uses the network (autonomy is readonly; "
                                      "[agent] readonly_network = true lets it run)")
            if not tool.read_only:
                return self._autonomy(Verdict.DENY,
                                      f"{tool.id} is not read-only (autonomy is readonly)")
            # readonly is stricter than supervised: it never lifts a matching deny rule
            denied = first_match(self.rules.get(tool.id, ()), call.input_text(tool))
            if denied is not None and denied.verdict is Verdict.DENY:
                return self._by_rule(tool, denied)
            return self._autonomy(Verdict.ALLOW, f"{tool.id} is read-only")
        return self._supervised(call, tool)

    def _supervised(self, call: ToolCall, tool: ToolDef) -> Decision:
        rules = self.rules.get(tool.id)
        if rules is None:
            return Decision(Verdict.ASK, f"no permission rules for {tool.id}", "permissions",
                            "no-rules")
        text = call.input_text(tool)
        rule = first_match(rules, text)
        if rule is None:
            return Decision(Verdict.ASK, f"no permission rule of {tool.id} matches",
                            "permissions", "no-match", rules[0].source or self.source)
        return self._by_rule(tool, rule)

    def _by_rule(self, tool: ToolDef, rule: CompiledRule) -> Decision:
        """The decision ``rule`` makes for ``tool``: built once, it never changes."""
        known = self._decided.get((tool.id, id(rule)))
        if known is not None and known[0] is rule:
            return known[1]
        decision = Decision(rule.verdict,
                            f"{tool.id} rule {rule.pattern!r} → {rule.verdict.value}",
                            "permissions", rule.key, rule.source or self.source,
                            pattern=rule.pattern, line=rule.line)
        self._decided[(tool.id, id(rule))] = (rule, decision)
        return decision

    @hookimpl
    def tooldeck_tool_hidden(self, tool: ToolDef) -> bool:
        """Hide what can never run: fully denied tools, and changing tools under readonly."""
        if self.autonomy == "full":
            return False
        if (self.autonomy == "readonly" and not tool.read_only
                and not self._network_under_readonly(tool)):
            return True
        return self.fully_denied(tool.id)


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.permissions]``."""
    register(SECTION, PermissionSettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Compile the rules (checking inline examples) into this runtime's gate."""
    doc = settings.document
    source = doc.label
    configured = settings.get(PermissionSettings).root
    compiled = {tool: compile_rules(tool, rules, source, text=doc.text)
                for tool, rules in configured.items()}
    if "bash" not in compiled:
        legacy = legacy_bash_rules(settings.table("tools.shell"), source)
        compiled["bash"] = _legacy_provenance(compile_rules("bash", legacy, source), settings)
    agent = settings.core.agent
    register(PermissionGate(compiled, agent.autonomy, doc.provenance, agent.readonly_network,
                            settings.origin("agent.autonomy")))


def closest_tool(tool_id: str, known: Iterable[str]) -> tuple[str | None, bool]:
    """The defined tool id closest to ``tool_id`` and whether it is near enough to be meant.

    An id equal but for case is always meant; otherwise the difflib ratio of the lowercased
    ids decides (at least :data:`NEAR`).
    """
    by_lower = {name.lower(): name for name in sorted(known, reverse=True)}
    wanted = tool_id.lower()
    if wanted in by_lower:
        return by_lower[wanted], True
    best = difflib.get_close_matches(wanted, list(by_lower), n=1, cutoff=0.0)
    if not best:
        return None, False
    ratio = difflib.SequenceMatcher(None, wanted, best[0]).ratio()
    return by_lower[best[0]], ratio >= NEAR


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Rule "known tool ids": refuse a rule list for a tool id no running plugin defines.

    :raises ConfigError: naming the file, ``tools.permissions.<id>`` and the closest id.
    """
    settings = runtime.settings
    known = runtime.declared_tools
    if settings.document.path is None and settings.document.text == embedded_default_text():
        return
    idle = sorted(p.name for p in runtime.plugins if p.state != "enabled")
    for tool_id in settings.get(PermissionSettings).root:
        if tool_id in known:
            continue
        key = f"{SECTION}.{tool_id}"
        where = settings.sources.get(key, settings.document.label)
        closest, meant = closest_tool(tool_id, known)
        if idle and not meant:
            runtime.warn(f"{where}: {key}: no running plugin defines tool {tool_id!r}; the rules "
                         f"are kept for the plugins not running ({', '.join(idle)})")
            continue
        if meant:
            hint = f"did you mean {closest!r}? Tool ids are case-sensitive"
        elif closest is not None:
            hint = f"the closest defined tool id is {closest!r}"
        else:
            hint = "no running plugin defines any tool"
        raise ConfigError(
            f"{where}: {key}: unknown tool {tool_id!r}: no installed plugin defines it ({hint}; "
            "rule: known tool ids)", path=where, key=key)
