"""The tighten/loosen table: whatever it calls a tightening never turns a deny or ask into allow."""

from __future__ import annotations

from pathlib import Path

import pydantic
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tooldeck.generation import FileVersion
from tooldeck.models import ToolCall, ToolDef, Verdict
from tooldeck.permission_rules import PermissionRule, compile_rules
from tooldeck.plugins.permissions import PermissionGate, legacy_bash_rules
from tooldeck.policy_change import classify

CONFIG = Path("/etc/tooldeck.toml")
OVERLAY = Path("/etc/policy.d/10.toml")
RANK = {Verdict.ALLOW: 0, Verdict.ASK: 1, Verdict.DENY: 2}
PATTERNS = ["a*", "*b", "ab", "*", "a?", "b*", "*a*"]
INPUTS = ["", "a", "b", "ab", "ba", "aa", "bb", "abb", "bab"]


def toml_rules(tool: str, rules: list[dict[str, str]]) -> str:
    return "".join(f'[[tools.permissions.{tool}]]\npattern = "{r["pattern"]}"\n'
                   f'action = "{r["action"]}"\n' for r in rules)


def change(old: str, new: str, kind: str = "config", path: Path = CONFIG) -> tuple[str, ...]:
    """What ``new`` loosens relative to ``old``."""
    before = {path: FileVersion(path, old.encode(), kind)}
    after = {path: FileVersion(path, new.encode(), kind)}
    return classify(before, after).loosened


class Params(pydantic.BaseModel):
    text: str


def verdict(rules: list[dict[str, str]] | None, autonomy: str, read_only: bool, text: str,
            tool: str = "echo") -> Verdict:
    compiled = {} if rules is None else {
        tool: compile_rules(tool, [PermissionRule.model_validate(r) for r in rules], "t")}
    gate = PermissionGate(compiled, autonomy, "t")
    tool_def = ToolDef(id=tool, description="t", params=Params, executor="x",
                       input_param="text",
                       capabilities=frozenset({"read"} if read_only else {"execute"}))
    return gate.tooldeck_check_call(ToolCall(tool, {"text": text}), tool_def).verdict


rule = st.fixed_dictionaries({"pattern": st.sampled_from(PATTERNS),
                              "action": st.sampled_from(["allow", "ask", "deny"])})
rule_list = st.lists(rule, max_size=4)
autonomy = st.sampled_from(["readonly", "supervised", "full"])


@st.composite
def mutated(draw: st.DrawFn, rules: list[dict[str, str]]) -> list[dict[str, str]]:
    """``rules`` after a few random edits, tightening or not."""
    out = [dict(r) for r in rules]
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["insert", "raise", "lower", "drop", "swap"]))
        if op == "insert":
            out.insert(draw(st.integers(0, len(out))), draw(rule))
        elif out:
            i = draw(st.integers(0, len(out) - 1))
            if op == "raise":
                out[i]["action"] = draw(st.sampled_from(["ask", "deny"]))
            elif op == "lower":
                out[i]["action"] = draw(st.sampled_from(["allow", "ask"]))
            elif op == "drop":
                del out[i]
            else:
                j = draw(st.integers(0, len(out) - 1))
                out[i], out[j] = out[j], out[i]
    return out


def autonomy_toml(level: str | None) -> str:
    return "" if level is None else f'[agent]\nautonomy = "{level}"\n'


@settings(max_examples=400, deadline=None)
@given(data=st.data(), old=st.none() | rule_list, old_level=st.none() | autonomy,
       new_level=st.none() | autonomy, read_only=st.booleans())
def test_a_tightening_never_relaxes_a_permission_decision(
        data: st.DataObject, old: list[dict[str, str]] | None, old_level: str | None,
        new_level: str | None, read_only: bool) -> None:
    new = data.draw(st.none() | mutated(old or []) | rule_list)
    old_text = autonomy_toml(old_level) + toml_rules("echo", old or [])
    new_text = autonomy_toml(new_level) + toml_rules("echo", new or [])
    if change(old_text, new_text):
        return  # a loosening: it waits for a stable file, nothing to prove
    event("tightening")
    for text in INPUTS:
        before = verdict(old or None, old_level or "supervised", read_only, text)
        after = verdict(new or None, new_level or "supervised", read_only, text)
        assert RANK[after] >= RANK[before], (text, before, after)


lists = st.none() | st.lists(st.sampled_from(["a", "b", "ab", "rm "]), max_size=3)


def shell_toml(blocked: list[str] | None, confirm: list[str] | None) -> str:
    lines = ["[tools.shell]"]
    if blocked is not None:
        lines.append(f"blocked_commands = {blocked!r}".replace("'", '"'))
    if confirm is not None:
        lines.append(f"confirm_patterns = {confirm!r}".replace("'", '"'))
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(old_blocked=lists, old_confirm=lists, new_blocked=lists, new_confirm=lists)
def test_a_tightening_of_the_shell_lists_never_relaxes_the_derived_bash_rules(
        old_blocked: list[str] | None, old_confirm: list[str] | None,
        new_blocked: list[str] | None, new_confirm: list[str] | None) -> None:
    old_text, new_text = shell_toml(old_blocked, old_confirm), shell_toml(new_blocked, new_confirm)
    if change(old_text, new_text):
        return
    event("tightening")
    old_rules = [r.model_dump() for r in legacy_bash_rules(
        {k: v for k, v in (("blocked_commands", old_blocked), ("confirm_patterns", old_confirm))
         if v is not None})]
    new_rules = [r.model_dump() for r in legacy_bash_rules(
        {k: v for k, v in (("blocked_commands", new_blocked), ("confirm_patterns", new_confirm))
         if v is not None})]
    for text in ["a", "b", "ab", "rm x", "cat", "rm -rf b"]:
        before = verdict(old_rules, "supervised", False, text, tool="bash")
        after = verdict(new_rules, "supervised", False, text, tool="bash")
        assert RANK[after] >= RANK[before], (text, before, after)


def test_inserting_a_deny_or_raising_an_action_tightens() -> None:
    old = toml_rules("echo", [{"pattern": "a*", "action": "allow"},
                              {"pattern": "*", "action": "ask"}])
    new = toml_rules("echo", [{"pattern": "x*", "action": "deny"},
                              {"pattern": "a*", "action": "ask"},
                              {"pattern": "*", "action": "deny"}])
    assert change(old, new) == ()


def test_inserting_an_ask_rule_loosens_it_could_shadow_a_deny() -> None:
    old = toml_rules("echo", [{"pattern": "rm*", "action": "deny"}])
    new = toml_rules("echo", [{"pattern": "*", "action": "ask"},
                              {"pattern": "rm*", "action": "deny"}])
    assert change(old, new) == ("tools.permissions.echo",)


def test_what_is_not_in_the_table_loosens() -> None:
    base = '[agent]\nautonomy = "supervised"\n[tools]\nmax_tool_calls_per_session = 5\n'
    cases: dict[str, tuple[str, ...]] = {
        base.replace('"supervised"', '"readonly"'): ("agent.autonomy",),
        base.replace("5", "6"): ("tools.max_tool_calls_per_session",),
        base + "[plugins]\ndisable = ['shell']\n": ("plugins.disable",),
        base + "[tools.shell]\ntimeout = 1\n": ("tools.shell.timeout",),
        "": ("agent.autonomy", "tools.max_tool_calls_per_session"),
    }
    for new, loosened in cases.items():
        assert change(base, new) == loosened, new
    assert change(base, base.replace("5", "4")) == ()
    assert change(base.replace('"supervised"', '"full"'), base) == ()


def test_overlay_rules_may_only_grow() -> None:
    one = '[[tools.permissions.bash]]\npattern = "ping*"\naction = "deny"\n'
    two = one + '[[tools.permissions.bash]]\npattern = "curl*"\naction = "ask"\n'
    assert change(one, two, "overlay", OVERLAY) == ()
    assert change(two, one, "overlay", OVERLAY) == (f"{OVERLAY}: tools.permissions.bash",)
    assert change("", '[tools.shell]\nallow_network = false\n', "overlay", OVERLAY) == ()


def test_a_new_overlay_only_adds_a_vanished_or_opaque_file_loosens() -> None:
    text = b'[tools.shell]\nblocked_commands = ["x"]\n'
    added = classify({}, {OVERLAY: FileVersion(OVERLAY, text, "overlay")})
    assert added.tightens and added.changed == (OVERLAY,)
    gone = classify({OVERLAY: FileVersion(OVERLAY, b"", "overlay")},
                    {OVERLAY: FileVersion(OVERLAY, None, "overlay")})
    assert gone.loosened == (f"{OVERLAY}: (whole file)",)
    other = Path("/etc/other.toml")
    opaque = classify({other: FileVersion(other, b"a = 1\n")},
                      {other: FileVersion(other, b"a = 2\n")})
    assert not opaque.tightens

