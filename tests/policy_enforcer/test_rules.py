"""zeph-test-cases §5.3 (PolicyEnforcer), row by row, on the compiled rules."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

from tooldeck.errors import ConfigError
from tooldeck.models import ToolDef
from tooldeck.plugins.policy_enforcer.paths import call_paths
from tooldeck.plugins.policy_enforcer.rules import (
    Facts,
    Judgement,
    compile_policy,
    judge,
    string_values,
)
from tooldeck.plugins.policy_enforcer.settings import PolicyRule
from tooldeck.trust_levels import TrustLevel


class Params(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="allow")


def tool(name: str, *caps: str) -> ToolDef:
    return ToolDef(id=name, description="", params=Params, executor="x", capabilities=caps)


def decide(rules: list[dict[str, Any]], tool_id: str, params: dict[str, Any], *,
           default: str = "deny", trust: TrustLevel | None = TrustLevel.TRUSTED,
           caps: tuple[str, ...] = (), environ: frozenset[str] = frozenset()) -> Judgement:
    compiled = compile_policy([PolicyRule(**r) for r in rules], "policy.toml", "rules",
                              cwd="/work")
    facts = Facts(tool(tool_id, *caps), call_paths(params, cwd="/work"),
                  tuple(string_values(params)), trust, environ)
    return judge(compiled, default, facts)


def test_zeph_deny_paths_normalised() -> None:
    """Row 1: deny /etc/* catches file_path /tmp/../etc/passwd."""
    got = decide([{"effect": "deny", "tool": "*", "paths": ["/etc/*"]}], "read",
                 {"file_path": "/tmp/../etc/passwd"}, default="allow")
    assert got.effect == "deny"
    assert got.trace == "rule[0] deny: tool=read matched *; path=/etc/passwd matched /etc/*"


def test_zeph_deny_dot_segment() -> None:
    """Row 2: /etc/./shadow is /etc/shadow."""
    got = decide([{"effect": "deny", "tool": "*", "paths": ["/etc/*"]}], "read",
                 {"path": "/etc/./shadow"}, default="allow")
    assert got.effect == "deny"


@pytest.mark.parametrize("called", ["shell", "SHELL", " Shell ", "bash", "sh"])
def test_zeph_tool_name_normalised(called: str) -> None:
    """Row 3 and the alias row: rule Shell applies to shell, SHELL, bash, sh."""
    got = decide([{"effect": "deny", "tool": "Shell"}], called.strip(), {}, default="allow")
    assert got.effect == "deny"


@pytest.mark.parametrize("rule_tool", ["sh", "bash", "shell", "SH", "Bash"])
def test_zeph_rule_aliases_match_bash(rule_tool: str) -> None:
    """Alias row: a rule written sh, bash or shell matches a call to bash."""
    got = decide([{"effect": "deny", "tool": rule_tool}], "bash", {"command": "ls"},
                 default="allow")
    assert got.effect == "deny"


def test_zeph_specific_deny_beats_broad_allow() -> None:
    """Row 4: allow /tmp/* + deny /tmp/secret.sh → deny."""
    rules = [{"effect": "allow", "tool": "*", "paths": ["/tmp/*"]},
             {"effect": "deny", "tool": "*", "paths": ["/tmp/secret.sh"]}]
    assert decide(rules, "read", {"path": "/tmp/secret.sh"}).effect == "deny"
    assert decide(rules, "read", {"path": "/tmp/other"}).effect == "allow"


@pytest.mark.parametrize("order", [1, -1])
def test_zeph_deny_wins_in_either_order(order: int) -> None:
    """Row 5."""
    rules = [{"effect": "allow", "tool": "bash"}, {"effect": "deny", "tool": "bash"}][::order]
    got = decide(rules, "bash", {"command": "ls"})
    assert got.effect == "deny" and "deny" in got.trace


@pytest.mark.parametrize("default", ["deny", "allow"])
def test_zeph_default_effect(default: str) -> None:
    """Row 6: nothing matches → the default, with Zeph's trace."""
    got = decide([{"effect": "deny", "tool": "write"}], "read", {"path": "/a"}, default=default)
    assert got == Judgement(default, f"default: {default} (no matching rules)", True)


@pytest.mark.parametrize(("trust", "effect"), [
    (TrustLevel.TRUSTED, "allow"), (TrustLevel.VERIFIED, "allow"),
    (TrustLevel.QUARANTINED, "deny"), (TrustLevel.BLOCKED, "deny"),
])
def test_zeph_allow_with_trust_level(trust: TrustLevel, effect: str) -> None:
    """Row 7: allow with trust_level verified: trusted → allow, quarantined → default deny."""
    got = decide([{"effect": "allow", "tool": "*", "trust_level": "verified"}], "read", {},
                 trust=trust)
    assert got.effect == effect


@pytest.mark.parametrize(("trust", "effect"), [
    (TrustLevel.TRUSTED, "allow"), (TrustLevel.VERIFIED, "allow"),
    (TrustLevel.QUARANTINED, "deny"), (TrustLevel.BLOCKED, "deny"),
])
def test_deny_with_trust_level_covers_the_less_trusted(trust: TrustLevel, effect: str) -> None:
    """tooldeck deviates for deny rules: they fire from their level on down the trust scale.

    Zeph's "severity ≤ the rule's" would let a quarantined caller escape a deny meant for
    verified ones; the less trusted side always gets the stricter outcome here.
    """
    got = decide([{"effect": "deny", "tool": "*", "trust_level": "quarantined"}], "read", {},
                 default="allow", trust=trust)
    assert got.effect == effect


def test_unknown_trust_counts_as_blocked() -> None:
    got = decide([{"effect": "allow", "tool": "*", "trust_level": "blocked"},
                  {"effect": "deny", "tool": "*", "trust_level": "quarantined"}], "read", {},
                 trust=None)
    assert got.effect == "deny"


def test_zeph_rule_limit() -> None:
    """Row 8: 256 rules compile, 257 are refused with Zeph's text."""
    rule = PolicyRule(effect="deny", tool="x")
    assert len(compile_policy([rule] * 256, "p.toml", "rules")) == 256
    with pytest.raises(ConfigError, match="too many rules: 257 exceeds maximum of 256"):
        compile_policy([rule] * 257, "p.toml", "rules")


def test_zeph_args_match() -> None:
    """Row 10: args_match .*sudo.* matches a command containing sudo."""
    rules = [{"effect": "deny", "tool": "*", "args_match": ".*sudo.*"}]
    assert decide(rules, "bash", {"command": "echo x && sudo rm -rf /"},
                  default="allow").effect == "deny"
    assert decide(rules, "bash", {"command": "ls"}, default="allow").effect == "allow"


def test_args_match_reaches_nested_strings() -> None:
    rules = [{"effect": "deny", "tool": "*", "args_match": "DROP TABLE"}]
    params = {"batch": [{"sql": "x"}, {"sql": "DROP TABLE users"}]}
    assert decide(rules, "db", params, default="allow").effect == "deny"


def test_args_match_length_limit() -> None:
    ok = "a" * 1024
    compile_policy([PolicyRule(effect="deny", tool="*", args_match=ok)], "p", "rules")
    with pytest.raises(ConfigError, match=r"rules\[0\]\.args_match: regex is 1026 bytes; the "
                                          "maximum is 1024"):
        compile_policy([PolicyRule(effect="deny", tool="*", args_match="é" * 513)], "p",
                       "rules")


@pytest.mark.parametrize("regex", [r"(a)\1", r"(?=x)y", r"(?<!a)b", "[unclosed"])
def test_args_match_refuses_what_re2_cannot_run(regex: str) -> None:
    """Backreferences and lookaround need backtracking: refused, naming the rule."""
    with pytest.raises(ConfigError, match=r"p: rules\[0\]\.args_match: .* is not an RE2 "):
        compile_policy([PolicyRule(effect="deny", tool="*", args_match=regex)], "p", "rules")


def test_args_match_is_linear_on_a_catastrophic_pattern() -> None:
    """(a+)+$ on a long non-match backtracks exponentially in re; RE2 answers at once."""
    rules = [{"effect": "deny", "tool": "*", "args_match": "(a+)+$"}]
    assert decide(rules, "x", {"s": "a" * 50_000 + "!"}, default="allow").effect == "allow"


def test_zeph_shell_rules_leave_other_tools_alone() -> None:
    """Last row: shell-only rules, web_scrape unaffected."""
    rules = [{"effect": "deny", "tool": "shell"}, {"effect": "allow", "tool": "web_scrape"}]
    assert decide(rules, "web_scrape", {"url": "https://e.com"}).effect == "allow"


def test_env_names_must_all_be_set() -> None:
    rules = [{"effect": "deny", "tool": "*", "env": ["CI", "DEPLOY"]}]
    assert decide(rules, "bash", {}, default="allow", environ=frozenset({"CI"})).effect == "allow"
    assert decide(rules, "bash", {}, default="allow",
                  environ=frozenset({"CI", "DEPLOY", "X"})).effect == "deny"


def test_capabilities_any_for_deny_all_for_allow() -> None:
    deny = [{"effect": "deny", "tool": "*", "capabilities": ["network", "exec"]}]
    assert decide(deny, "fetch", {}, default="allow", caps=("network", "read")).effect == "deny"
    assert decide(deny, "read", {}, default="allow", caps=("read",)).effect == "allow"
    allow = [{"effect": "allow", "tool": "*", "capabilities": ["read", "network"]}]
    assert decide(allow, "fetch", {}, caps=("network", "read")).effect == "allow"
    assert decide(allow, "read", {}, caps=("read",)).effect == "deny"


def test_allow_paths_need_every_path_to_match() -> None:
    """An allow rule on /tmp/* does not vouch for a copy that also names /etc."""
    rules = [{"effect": "allow", "tool": "*", "paths": ["/tmp/*"]}]
    assert decide(rules, "copy_path", {"source": "/tmp/a", "destination": "/tmp/b"}
                  ).effect == "allow"
    assert decide(rules, "copy_path", {"source": "/tmp/a", "destination": "/etc/cron.d/x"}
                  ).effect == "deny"
    assert decide(rules, "read", {}).effect == "deny"  # names no path at all


def test_relative_path_globs_are_taken_from_the_working_directory() -> None:
    rules = [{"effect": "deny", "tool": "*", "paths": ["secrets/*"]}]
    assert decide(rules, "read", {"path": "/work/secrets/k"}, default="allow").effect == "deny"
    assert decide(rules, "read", {"path": "./secrets/../secrets/k"},
                  default="allow").effect == "deny"


def test_path_globs_ignore_case() -> None:
    rules = [{"effect": "deny", "tool": "*", "paths": ["/etc/*"]}]
    assert decide(rules, "read", {"path": "/ETC/passwd"}, default="allow").effect == "deny"


def test_invalid_glob_names_the_rule() -> None:
    with pytest.raises(ConfigError, match=r"p: rules\[0\]\.paths: invalid glob '/\[a'"):
        compile_policy([PolicyRule(effect="deny", tool="*", paths=["/[a"])], "p", "rules")


@pytest.mark.parametrize("called", ["bash", "bash_status"])
def test_a_glob_over_the_raw_name_still_matches_the_aliased_tool(called: str) -> None:
    """``bash*`` must not miss ``bash`` because bash is spelt shell for rules."""
    got = decide([{"effect": "deny", "tool": "bash*"}], called, {}, default="allow")
    assert got.effect == "deny"


def test_a_tool_declaring_no_capability_is_denied_by_every_capability_deny() -> None:
    """Fail closed: a tool that says nothing about what it does may do anything."""
    for capability in ("read", "write", "execute", "network", "state"):
        deny = [{"effect": "deny", "tool": "*", "capabilities": [capability]}]
        assert decide(deny, "mystery", {}, default="allow").effect == "deny", capability


def test_a_tool_declaring_no_capability_is_allowed_by_no_capability_allow() -> None:
    allow = [{"effect": "allow", "tool": "*", "capabilities": ["read"]}]
    assert decide(allow, "mystery", {}).effect == "deny"


def test_old_capability_spellings_mean_the_new_ones() -> None:
    """``exec`` on either side is ``execute``; ``delete`` is ``write``."""
    deny = [{"effect": "deny", "tool": "*", "capabilities": ["exec"]}]
    assert decide(deny, "bash", {}, default="allow", caps=("execute",)).effect == "deny"
    deny = [{"effect": "deny", "tool": "*", "capabilities": ["execute"]}]
    assert decide(deny, "bash", {}, default="allow", caps=("exec",)).effect == "deny"
    deny = [{"effect": "deny", "tool": "*", "capabilities": ["write"]}]
    assert decide(deny, "rm", {}, default="allow", caps=("delete",)).effect == "deny"


def test_an_unknown_capability_in_a_rule_is_refused() -> None:
    """A typo would otherwise make a deny rule that never fires."""
    with pytest.raises(pydantic.ValidationError, match="unknown capabilities"):
        PolicyRule.model_validate({"effect": "deny", "tool": "*", "capabilities": ["netwrok"]})
