r"""Built-in gate ``permissions``: per-tool ordered glob rules from ``[tools.permissions]``.

=========================  ==============================================================
rule                       behaviour
=========================  ==============================================================
autonomy full              every call is allowed (``[agent] autonomy = "full"``)
autonomy readonly          read-only tools are allowed unless a ``deny`` rule matches; every
                           other tool is denied
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
=========================  ==============================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import attrs
import re2
from pydantic import BaseModel, ConfigDict, Field, RootModel

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.errors import ConfigError
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict

SECTION = "tools.permissions"
MAX_PATTERN = 1024

LEGACY_CONFIRM_PATTERNS = (
    "rm ", "git push -f", "git push --force", "drop table", "drop database", "truncate ",
    "$(", "`", "<(", ">(", "<<<", "eval ",
)
"""Zeph's default ``confirm_patterns``, used when ``[tools.shell]`` sets none."""


class PermissionRule(BaseModel):
    """One ``[[tools.permissions.<tool>]]`` table."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str = Field(min_length=1, max_length=MAX_PATTERN)
    action: Literal["allow", "ask", "deny"]
    match: tuple[str, ...] = ()
    not_match: tuple[str, ...] = ()


class PermissionSettings(RootModel[dict[str, tuple[PermissionRule, ...]]]):
    """``[tools.permissions]``: tool id → ordered rules."""

    root: dict[str, tuple[PermissionRule, ...]] = Field(default_factory=dict)


def glob_to_regex(pattern: str) -> str:
    """Translate a permission glob to an RE2 pattern matching the whole input.

    :raises ValueError: an unterminated ``[`` class or a trailing backslash.
    """
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "\\":
            if i + 1 == n:
                raise ValueError("trailing backslash")
            i += 1
            out.append(re2.escape(pattern[i]))
        elif c == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^") else i + 1)
            if end == -1:
                raise ValueError(f"unterminated character class at position {i}")
            body = pattern[i + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            escaped = "".join("\\" + ch if ch in "\\^[]" else ch for ch in body)
            out.append(f"[{'^' if negate else ''}{escaped}]")
            i = end
        else:
            out.append(re2.escape(c))
        i += 1
    return "(?is)^" + "".join(out) + "$"


@attrs.frozen
class CompiledRule:
    """A rule ready to match: its glob compiled to a linear-time matcher."""

    pattern: str
    verdict: Verdict
    matcher: Any
    index: int

    def matches(self, text: str) -> bool:
        """True when the glob matches the whole ``text`` (case-insensitively)."""
        return bool(self.matcher.search(text.lower()))


class StarGlob:
    """A glob whose only metacharacter is ``*``, matched by finding its literal parts in order.

    Most rules look like ``git *`` or ``*sudo*``; matching them with ``str`` methods is linear
    and avoids a regex call on every tool call. Taking each middle part at its leftmost
    occurrence is exact for ``*``-only globs.
    """

    def __init__(self, pattern: str) -> None:
        self.parts = pattern.lower().split("*")

    def search(self, text: str) -> bool:
        """True when the (already lowercased) ``text`` matches the whole glob."""
        parts = self.parts
        if len(parts) == 1:
            return text == parts[0]
        first, last = parts[0], parts[-1]
        if len(text) < len(first) + len(last) or not (
            text.startswith(first) and text.endswith(last)
        ):
            return False
        pos, end = len(first), len(text) - len(last)
        for middle in parts[1:-1]:
            found = text.find(middle, pos, end)
            if found < 0:
                return False
            pos = found + len(middle)
        return True


def compile_glob(pattern: str, options: Any) -> Any:
    """A matcher for ``pattern``: :class:`StarGlob` when it only uses ``*``, else RE2.

    :raises ValueError: an invalid glob.
    """
    if not any(ch in pattern for ch in "?[\\"):
        return StarGlob(pattern)
    return re2.compile(glob_to_regex(pattern.lower()), options)


def compile_rules(tool: str, rules: Sequence[PermissionRule], source: str) -> list[CompiledRule]:
    """Compile and self-test one tool's rules.

    :raises ConfigError: an invalid glob, or an inline example that fails; the message names
        the file, the tool, the rule and the example.
    """
    compiled: list[CompiledRule] = []
    options = re2.Options()
    options.max_mem = 1 << 20
    for i, rule in enumerate(rules):
        key = f"{SECTION}.{tool}[{i}]"
        try:
            matcher = compile_glob(rule.pattern, options)
        except (ValueError, re2.error) as exc:
            raise ConfigError(f"{source}: {key}: invalid pattern {rule.pattern!r}: {exc}",
                              path=source, key=key) from None
        compiled.append(CompiledRule(rule.pattern, Verdict(rule.action), matcher, i))
    for i, rule in enumerate(rules):
        key = f"{SECTION}.{tool}[{i}]"
        for example in rule.match:
            decider = first_match(compiled, example)
            if decider is None or decider.index != i:
                by = "no rule" if decider is None else (
                    f"rule [{decider.index}] {decider.pattern!r} first")
                raise ConfigError(
                    f"{source}: {key}: example {example!r} should be decided by rule "
                    f"{rule.pattern!r} but is matched by {by}", path=source, key=key)
        for example in rule.not_match:
            if compiled[i].matches(example):
                raise ConfigError(
                    f"{source}: {key}: example {example!r} in not_match is matched by rule "
                    f"{rule.pattern!r}", path=source, key=key)
    return compiled


def first_match(rules: Sequence[CompiledRule], text: str) -> CompiledRule | None:
    """The first rule whose glob matches ``text``, or ``None``."""
    for rule in rules:
        if rule.matches(text):
            return rule
    return None


_GLOB_LITERAL = {"*": "[*]", "?": "[?]", "[": "[[]", "\\": "\\\\"}


def glob_literal(text: str) -> str:
    """``text`` as a glob that matches exactly it (metacharacters escaped)."""
    return "".join(_GLOB_LITERAL.get(ch, ch) for ch in text)


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


class PermissionGate:
    """The compiled policy of one runtime; votes on every call."""

    name = "rules"

    def __init__(self, rules: Mapping[str, list[CompiledRule]], autonomy: str, source: str):
        self.rules = rules
        self.autonomy = autonomy
        self.source = source

    def fully_denied(self, tool_id: str) -> bool:
        """True when the tool has rules and every one of them denies."""
        rules = self.rules.get(tool_id)
        return bool(rules) and all(r.verdict is Verdict.DENY for r in rules or ())

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef) -> Decision:
        """Decide by autonomy level, then by the tool's first matching rule."""
        if self.autonomy == "full":
            return Decision(Verdict.ALLOW, "autonomy is full", "permissions", "autonomy")
        if self.autonomy == "readonly":
            if not tool.read_only:
                return Decision(Verdict.DENY,
                                f"{tool.id} is not read-only (autonomy is readonly)",
                                "permissions", "autonomy")
            # readonly is stricter than supervised: it never lifts a matching deny rule
            denied = first_match(self.rules.get(tool.id, ()), call.input_text(tool))
            if denied is not None and denied.verdict is Verdict.DENY:
                return self._by_rule(tool, denied)
            return Decision(Verdict.ALLOW, f"{tool.id} is read-only", "permissions",
                            "autonomy")
        rules = self.rules.get(tool.id)
        if rules is None:
            return Decision(Verdict.ASK, f"no permission rules for {tool.id}", "permissions",
                            None, self.source)
        text = call.input_text(tool)
        rule = first_match(rules, text)
        if rule is None:
            return Decision(Verdict.ASK, f"no permission rule of {tool.id} matches",
                            "permissions", None, self.source)
        return self._by_rule(tool, rule)

    def _by_rule(self, tool: ToolDef, rule: CompiledRule) -> Decision:
        return Decision(rule.verdict, f"{tool.id} rule {rule.pattern!r} → {rule.verdict.value}",
                        "permissions", rule.pattern, self.source)

    @hookimpl
    def tooldeck_tool_hidden(self, tool: ToolDef) -> bool:
        """Hide what can never run: fully denied tools, and changing tools under readonly."""
        if self.autonomy == "full":
            return False
        if self.autonomy == "readonly" and not tool.read_only:
            return True
        return self.fully_denied(tool.id)


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.permissions]``."""
    register(SECTION, PermissionSettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Compile the rules (checking inline examples) into this runtime's gate."""
    source = settings.document.label
    configured = settings.get(PermissionSettings).root
    by_tool: dict[str, Sequence[PermissionRule]] = dict(configured)
    if "bash" not in by_tool:
        by_tool["bash"] = legacy_bash_rules(settings.table("tools.shell"), source)
    compiled = {tool: compile_rules(tool, rules, source) for tool, rules in by_tool.items()}
    register(PermissionGate(compiled, settings.core.agent.autonomy, source))
