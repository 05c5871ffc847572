"""Reload classification of [tools.policy] and its policy file: tightenings really tighten."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.generation import FileVersion
from tooldeck.models import ToolDef
from tooldeck.plugins.policy_enforcer.paths import call_paths
from tooldeck.plugins.policy_enforcer.rules import Facts, compile_policy, judge, string_values
from tooldeck.plugins.policy_enforcer.settings import PolicySettings
from tooldeck.policy_change import classify
from tooldeck.trust_levels import TrustLevel

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIG = Path("/etc/tooldeck.toml")
POLICY = Path("/etc/policy.toml")


def rule_toml(table: str, rules: list[dict[str, Any]]) -> str:
    out = []
    for rule in rules:
        out.append(f"[[{table}]]")
        out.extend(f"{k} = {v!r}".replace("'", '"') for k, v in rule.items())
    return "\n".join(out) + "\n"


def policy_toml(enabled: bool | None, default: str | None, rules: list[dict[str, Any]]) -> str:
    head = "[tools.policy]\n"
    if enabled is not None:
        head += f"enabled = {str(enabled).lower()}\n"
    if default is not None:
        head += f'default_effect = "{default}"\n'
    return head + rule_toml("tools.policy.rules", rules)


def loosened(old: str, new: str, kind: str = "config", path: Path = CONFIG) -> tuple[str, ...]:
    return classify({path: FileVersion(path, old.encode(), kind)},
                     {path: FileVersion(path, new.encode(), kind)}).loosened


DENY = {"effect": "deny", "tool": "bash"}
ALLOW = {"effect": "allow", "tool": "read"}


@pytest.mark.parametrize(("old", "new", "tightens"), [
    (policy_toml(None, None, []), policy_toml(True, None, []), True),
    (policy_toml(True, None, []), policy_toml(False, None, []), False),
    (policy_toml(True, "allow", []), policy_toml(True, "deny", []), True),
    (policy_toml(True, None, []), policy_toml(True, "allow", []), False),
    (policy_toml(True, None, [ALLOW]), policy_toml(True, None, [DENY, ALLOW]), True),
    (policy_toml(True, None, [DENY, ALLOW]), policy_toml(True, None, [ALLOW]), False),
    (policy_toml(True, None, [DENY, ALLOW]), policy_toml(True, None, [DENY]), True),
    (policy_toml(True, None, [DENY]), policy_toml(True, None, [DENY, ALLOW]), False),
    (policy_toml(True, None, [DENY]), policy_toml(True, None, [{**DENY, "tool": "x"}]), False),
    ("", '[tools.policy]\npolicy_file = "p.toml"\n', False),
])
def test_config_keys(old: str, new: str, tightens: bool) -> None:
    assert (loosened(old, new) == ()) is tightens


def test_policy_file_rules() -> None:
    old = rule_toml("rules", [ALLOW])
    assert loosened(old, rule_toml("rules", [ALLOW, DENY]), "policy", POLICY) == ()
    assert loosened(rule_toml("rules", [DENY]), old, "policy", POLICY) == (
        f"{POLICY}: rules",)
    assert loosened(old, "rules = [", "policy", POLICY) == (f"{POLICY}: (whole file)",)


class Params(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="allow")


TOOLS = [ToolDef(id=t, description="", params=Params, executor="x", capabilities=c)
         for t, c in [("bash", ("exec",)), ("read", ("read",)), ("fetch", ("read", "network"))]]
CALLS = [{"command": "cat /etc/passwd"}, {"path": "/tmp/a"}, {"path": "/etc/x"}, {},
         {"url": "https://e.com/sudo"}]

rules_st = st.lists(st.fixed_dictionaries(
    {"effect": st.sampled_from(["allow", "deny"]), "tool": st.sampled_from(["*", "bash", "re*"])},
    optional={"paths": st.sampled_from([["/etc/*"], ["/tmp/*"], ["*"]]),
              "args_match": st.sampled_from(["sudo", "a"]),
              "trust_level": st.sampled_from(["verified", "quarantined"]),
              "capabilities": st.sampled_from([["read"], ["exec", "network"]])}),
    max_size=4)


def verdicts(text: str) -> list[int]:
    """For each tool, call and trust level: 1 when the policy denies, 0 when it lets the call on."""
    section = tomllib.loads(text).get("tools", {}).get("policy", {})
    policy = PolicySettings.model_validate(section)
    compiled = compile_policy(policy.rules, "p", "rules", cwd="/work")
    out = []
    for tool in TOOLS:
        for params in CALLS:
            for trust in TrustLevel:
                if not policy.enabled:
                    out.append(0)
                    continue
                facts = Facts(tool, call_paths(params, cwd="/work"),
                              tuple(string_values(params)), trust, frozenset())
                out.append(int(judge(compiled, policy.default_effect, facts).effect == "deny"))
    return out


@settings(max_examples=150, deadline=None)
@given(st.booleans(), st.sampled_from([None, "allow", "deny"]), rules_st,
       st.booleans(), st.sampled_from([None, "allow", "deny"]), rules_st)
def test_a_tightening_never_turns_a_deny_into_an_allow(
    e1: bool, d1: str | None, r1: list[dict[str, Any]],
    e2: bool, d2: str | None, r2: list[dict[str, Any]],
) -> None:
    old, new = policy_toml(e1, d1, r1), policy_toml(e2, d2, r2)
    if loosened(old, new):
        return
    before, after = verdicts(old), verdicts(new)
    assert all(b <= a for b, a in zip(before, after, strict=True))


@settings(max_examples=150, deadline=None)
@given(st.booleans(), st.sampled_from([None, "allow", "deny"]), rules_st, rules_st,
       st.data())
def test_added_denies_and_dropped_allows_are_tightenings(
    enabled: bool, default: str | None, old_rules: list[dict[str, Any]],
    extra: list[dict[str, Any]], data: st.DataObject,
) -> None:
    kept = [r for r in old_rules if r["effect"] == "deny" or data.draw(st.booleans())]
    added = [{**r, "effect": "deny"} for r in extra]
    new_rules = data.draw(st.permutations(kept + added))
    new_enabled = enabled or data.draw(st.booleans())
    new_default = "deny" if default == "deny" or data.draw(st.booleans()) else default
    old = policy_toml(enabled, default, old_rules)
    new = policy_toml(new_enabled, new_default, new_rules)
    assert loosened(old, new) == ()
    before, after = verdicts(old), verdicts(new)
    assert all(b <= a for b, a in zip(before, after, strict=True))
