"""Policy rules compiled and judged: deny wins, then the first allow, then the default.

=====================  ======================================================================
condition              fires when
=====================  ======================================================================
``tool``               the glob matches the tool name; both are trimmed and lowercased, and
                       ``bash`` / ``sh`` are spelt ``shell`` on both sides (the called
                       name also as written: ``bash*`` still matches ``bash``)
``paths``              deny: any path or URL the call names matches any glob; allow: the call
                       names at least one and every one matches some glob
``env``                every listed variable is set in the process environment
``trust_level``        allow: the caller is at most this untrusted; deny: at least this
``args_match``         the RE2 expression is found in some string parameter value
``capabilities``       deny: the tool may do any of them (a tool declaring no capability
                       may do all five); allow: it declares all of them
=====================  ======================================================================

Every condition a rule sets must hold. Globs are case-insensitive and ``*`` crosses ``/``
(as in ``[tools.permissions]``); a relative path glob is taken from the working directory
the deck was built in, and ``~/`` is the home directory. ``args_match`` runs on RE2, so no
expression takes more than linear time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs
import re2

from tooldeck.errors import ConfigError
from tooldeck.models import ToolDef
from tooldeck.permission_rules import compile_glob
from tooldeck.plugins.policy_enforcer.paths import normalize_path
from tooldeck.plugins.policy_enforcer.settings import (
    MAX_ARGS_MATCH_BYTES,
    MAX_RULES,
    PolicyRule,
)
from tooldeck.trust_levels import TrustLevel, parse_trust_level

__all__ = ["CompiledPolicyRule", "Facts", "Judgement", "compile_policy", "judge",
           "normalize_tool", "tool_names"]

_ALIASES = {"bash": "shell", "sh": "shell"}


def normalize_tool(name: str) -> str:
    """A tool name as rules see it: trimmed, lowercased, ``bash`` and ``sh`` spelt ``shell``.

    :param name: a tool id or a rule's tool glob.
    :returns: the normalised name.
    """
    name = name.strip().lower()
    return _ALIASES.get(name, name)


def tool_names(tool_id: str) -> tuple[str, ...]:
    """The names a tool glob is tried on: normalised, and as called (lowercased)."""
    normal, raw = normalize_tool(tool_id), tool_id.strip().lower()
    return (normal,) if normal == raw else (normal, raw)


@attrs.frozen
class Facts:
    """What the rules are judged on, gathered once per call.

    :param tool: the called tool's definition.
    :param paths: the normalised paths and URLs the call names.
    :param strings: every string parameter value.
    :param trust: the caller's trust level, or ``None`` when no rule needs it.
    :param environ: the environment variable names that are set.
    """

    tool: ToolDef
    paths: tuple[str, ...]
    strings: tuple[str, ...]
    trust: TrustLevel | None
    environ: frozenset[str]
    names: tuple[str, ...] = attrs.field()
    _glob_hits: dict[str, bool] = attrs.field(factory=dict, eq=False, repr=False)

    @names.default
    def _names(self) -> tuple[str, ...]:
        return tool_names(self.tool.id)

    def tool_glob_matches(self, pattern: str, glob: Any) -> bool:
        """Whether tool glob ``pattern`` matches this tool (worked out once per pattern)."""
        hit = self._glob_hits.get(pattern)
        if hit is None:
            hit = self._glob_hits[pattern] = any(glob.search(n) for n in self.names)
        return hit


@attrs.frozen
class CompiledPolicyRule:
    """One rule ready to judge calls.

    :param index: its position in the policy (``rule[i]`` in traces).
    :param rule: the rule as written.
    """

    index: int
    rule: PolicyRule
    tool_glob: Any = attrs.field(repr=False)
    path_globs: tuple[Any, ...] = attrs.field(repr=False)
    args_regex: Any = attrs.field(repr=False)
    trust: TrustLevel | None = None

    deny: bool = attrs.field(init=False)
    """True for a deny rule."""

    @deny.default
    def _deny(self) -> bool:
        return self.rule.effect == "deny"

    def matches_tool(self, tool: ToolDef, facts: Facts | None = None) -> bool:
        """True when the tool glob and the capabilities condition hold for ``tool``.

        :param tool: the tool.
        :param facts: the call's facts, whose memo of tool-glob results is used when given.
        """
        if facts is not None:
            named = facts.tool_glob_matches(self.rule.tool, self.tool_glob)
        else:
            named = any(self.tool_glob.search(n) for n in tool_names(tool.id))
        if not named:
            return False
        wanted = self.rule.capabilities
        if not wanted:
            return True
        if self.deny:  # fail closed: a tool that declares nothing may do anything
            return bool(tool.effective_capabilities & set(wanted))
        return set(wanted) <= tool.capabilities  # and is allowed by no capability rule

    @property
    def static(self) -> bool:
        """True when only the tool (name and capabilities) decides whether the rule fires."""
        r = self.rule
        return not (r.paths or r.env or r.trust_level or r.args_match)

    def fires(self, facts: Facts) -> str | None:
        """The trace of why the rule fires on ``facts``, or ``None`` when it does not."""
        r = self.rule
        if not self.matches_tool(facts.tool, facts):
            return None
        why = [f"tool={facts.tool.id} matched {r.tool}"]
        if r.env:
            if not set(r.env) <= facts.environ:
                return None
            why.append(f"env {', '.join(r.env)} set")
        if self.trust is not None:
            trust = facts.trust if facts.trust is not None else TrustLevel.BLOCKED
            if (trust < self.trust) if self.deny else (trust > self.trust):
                return None
            why.append(f"trust={trust} vs {self.trust}")
        if self.path_globs:
            hit = self._paths(facts.paths)
            if hit is None:
                return None
            why.append(hit)
        if self.args_regex is not None:
            found = next((s for s in facts.strings if self.args_regex.search(s)), None)
            if found is None:
                return None
            why.append(f"args matched {r.args_match}")
        if r.capabilities:
            why.append(f"capabilities {', '.join(sorted(r.capabilities))}")
        return f"rule[{self.index}] {r.effect}: " + "; ".join(why)

    def _paths(self, paths: Sequence[str]) -> str | None:
        def glob_for(path: str) -> str | None:
            lowered = path.lower()
            pairs = zip(self.rule.paths, self.path_globs, strict=True)
            return next((pattern for pattern, glob in pairs if glob.search(lowered)), None)

        if self.deny:
            for path in paths:
                pattern = glob_for(path)
                if pattern is not None:
                    return f"path={path} matched {pattern}"
            return None
        if not paths or any(glob_for(p) is None for p in paths):
            return None
        return f"paths {', '.join(paths)} all matched"


@attrs.frozen
class Judgement:
    """The policy's answer for one call.

    :param effect: ``allow`` or ``deny``.
    :param trace: why, for the audit (``rule[i] deny: …`` or ``default: …``).
    :param by_default: True when no rule matched and the default effect decided.
    """

    effect: str
    trace: str
    by_default: bool = False


def judge(rules: Sequence[CompiledPolicyRule], default_effect: str, facts: Facts) -> Judgement:
    """Deny-wins evaluation: any firing deny rule, else the first firing allow, else default.

    :param rules: the compiled rules.
    :param default_effect: ``allow`` or ``deny``.
    :param facts: the call's facts.
    :returns: the judgement with its trace.
    """
    for rule in rules:
        if rule.deny and (trace := rule.fires(facts)) is not None:
            return Judgement("deny", trace)
    for rule in rules:
        if not rule.deny and (trace := rule.fires(facts)) is not None:
            return Judgement("allow", trace)
    return Judgement(default_effect, f"default: {default_effect} (no matching rules)", True)


def _path_pattern(pattern: str, cwd: str) -> str:
    if pattern.startswith("*") or "://" in pattern:
        return pattern
    if pattern == "~" or pattern.startswith("~/"):
        pattern = os.path.expanduser("~") + pattern[1:]
    elif not pattern.startswith("/"):
        pattern = f"{cwd}/{pattern}"
    trailing = "/" if pattern.endswith("/") else ""
    return normalize_path(pattern) + trailing if pattern != "/" else "/"


def compile_policy(rules: Sequence[PolicyRule], source: str, key: str,
                   cwd: str | None = None) -> tuple[CompiledPolicyRule, ...]:
    """Compile rules, enforcing the limits.

    :param rules: the rules as validated.
    :param source: the file they came from, for errors.
    :param key: the dotted key (``tools.policy.rules`` or ``rules`` in a policy file).
    :param cwd: what relative path globs are taken from (default: the working directory).
    :raises ConfigError: more than 256 rules, an invalid glob, an ``args_match`` over 1024
        bytes or one RE2 cannot compile; the message names the file and the rule.
    """
    if len(rules) > MAX_RULES:
        raise ConfigError(f"{source}: {key}: too many rules: {len(rules)} exceeds maximum of "
                          f"{MAX_RULES}", path=source, key=key)
    base = normalize_path(cwd if cwd is not None else os.getcwd())
    options = re2.Options()
    options.max_mem = 1 << 20
    compiled = []
    for i, rule in enumerate(rules):
        where = f"{key}[{i}]"

        def fail(field: str, problem: str, where: str = where) -> ConfigError:
            return ConfigError(f"{source}: {where}.{field}: {problem}", path=source,
                               key=f"{where}.{field}")

        try:
            tool_glob = compile_glob(normalize_tool(rule.tool), options)
        except (ValueError, re2.error) as exc:
            raise fail("tool", f"invalid glob {rule.tool!r}: {exc}") from None
        globs = []
        for pattern in rule.paths:
            try:
                globs.append(compile_glob(_path_pattern(pattern, base).lower(), options))
            except (ValueError, re2.error) as exc:
                raise fail("paths", f"invalid glob {pattern!r}: {exc}") from None
        regex = None
        if rule.args_match is not None:
            size = len(rule.args_match.encode("utf-8"))
            if size > MAX_ARGS_MATCH_BYTES:
                raise fail("args_match", f"regex is {size} bytes; the maximum is "
                           f"{MAX_ARGS_MATCH_BYTES}")
            try:
                regex = re2.compile(rule.args_match, options)
            except re2.error as exc:
                raise fail("args_match", f"{rule.args_match!r} is not an RE2 expression "
                           f"(RE2 runs in linear time: no backreferences or lookaround): "
                           f"{exc}") from None
        trust = parse_trust_level(rule.trust_level) if rule.trust_level else None
        compiled.append(CompiledPolicyRule(i, rule, tool_glob, tuple(globs), regex, trust))
    return tuple(compiled)


def string_values(value: Any, depth: int = 0) -> Iterator[str]:
    """Every string inside ``value`` (mappings and lists descended into, 32 levels at most)."""
    if isinstance(value, str):
        yield value
    elif depth < 32 and isinstance(value, Mapping):
        for item in value.values():
            yield from string_values(item, depth + 1)
    elif depth < 32 and isinstance(value, (list, tuple)):
        for item in value:
            yield from string_values(item, depth + 1)
