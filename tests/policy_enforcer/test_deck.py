"""The policy enforcer in a real deck: model message, audit trace, disabling, policy file."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError, ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.trust_levels import TrustLevel

DENY_ETC = """
[tools.policy]
enabled = true
default_effect = "allow"

[[tools.policy.rules]]
effect = "deny"
tool = "*"
paths = ["/etc/*"]
"""


async def test_model_sees_the_generic_message_and_the_audit_the_trace(
    make_deck: Callable[..., Deck], audit_log: Callable[[], list[dict[str, Any]]]
) -> None:
    deck = make_deck(DENY_ETC + '[tools.shell]\nallowed_paths = ["/"]\n')
    result = await deck.call(ToolCall("bash", {"command": "cat /tmp/../etc/hostname"}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
    assert result.error.message == "Tool call denied by policy"
    assert "rule" not in result.text and "/etc/*" not in result.text
    record = audit_log()[-1]
    assert record["error_category"] == "policy_blocked"
    assert record["result"] == {"type": "blocked", "reason": "Tool call denied by policy"}
    assert record["decision"]["gate"] == "policy_enforcer"
    assert record["decision"]["rule"] == (
        "rule[0] deny: tool=bash matched *; path=/etc/hostname matched /etc/*")


async def test_ordinary_work_runs_under_a_deny_rule(make_deck: Callable[..., Deck],
                                                    project: Path) -> None:
    (project / "a.txt").write_text("hello\n")
    deck = make_deck(DENY_ETC)
    result = await deck.call(ToolCall("read", {"path": "a.txt"}))
    assert result.ok, result.text
    assert "hello" in result.text


async def test_disabled_by_default(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck("[tools.policy]\ndefault_effect = \"deny\"\n")
    assert not any(g.startswith("policy_enforcer.") for g in deck.runtime.hooks.gate_names)


async def test_plugins_disable_turns_it_off(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(DENY_ETC + '[plugins]\ndisable = ["policy_enforcer"]\n')
    assert not any(g.startswith("policy_enforcer") for g in deck.runtime.hooks.gate_names)
    assert any("[tools.policy] is not validated" in w for w in deck.runtime.warnings)


async def test_a_deny_is_never_confirmable(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(DENY_ETC)
    result = await deck.call(ToolCall("read", {"path": "/etc/hostname"}), confirm=True)
    assert result.error is not None and result.error.message == "Tool call denied by policy"


async def test_default_deny_hides_unnamed_tools(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck('[tools.policy]\nenabled = true\n[[tools.policy.rules]]\n'
                     'effect = "allow"\ntool = "read"\n[[tools.policy.rules]]\n'
                     'effect = "deny"\ntool = "read"\npaths = ["/etc/*"]\n')
    assert [t.id for t in deck.tools()] == ["read"]
    denied = await deck.call(ToolCall("list_directory", {"path": "."}))
    assert denied.error is not None and denied.error.category is ErrorCategory.POLICY_BLOCKED


async def test_allow_by_default_abstains(make_deck: Callable[..., Deck]) -> None:
    """default_effect allow vouches for nothing: delete_path still asks under permissions."""
    deck = make_deck("[tools.policy]\nenabled = true\ndefault_effect = \"allow\"\n")
    result = await deck.call(ToolCall("delete_path", {"path": "nothing"}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.CONFIRMATION_REQUIRED


class _TrustByCaller:
    @hookimpl
    def tooldeck_trust_level(self, call: ToolCall) -> TrustLevel | None:
        return {"bot": TrustLevel.QUARANTINED, "me": TrustLevel.TRUSTED}.get(call.caller_id or "")


async def test_trust_level_comes_from_the_runtime(make_deck: Callable[..., Deck],
                                                  project: Path) -> None:
    """§5.3 row 7 end to end: the trust plugin's answer decides the allow rule."""
    (project / "a.txt").write_text("x\n")
    deck = make_deck('[tools.policy]\nenabled = true\n[[tools.policy.rules]]\n'
                     'effect = "allow"\ntool = "read"\ntrust_level = "verified"\n',
                     extra_plugins={"trust_by_caller": _TrustByCaller()})
    assert (await deck.call(ToolCall("read", {"path": "a.txt"}, caller_id="me"))).ok
    bot = await deck.call(ToolCall("read", {"path": "a.txt"}, caller_id="bot"))
    assert bot.error is not None and bot.error.category is ErrorCategory.POLICY_BLOCKED


def test_257_inline_rules_are_refused(make_deck: Callable[..., Deck]) -> None:
    rules = '[[tools.policy.rules]]\neffect = "deny"\ntool = "x"\n' * 257
    with pytest.raises(ConfigError, match=r"tools\.policy\.rules: too many rules: 257 exceeds "
                                          "maximum of 256"):
        make_deck("[tools.policy]\nenabled = true\n" + rules)


# ------------------------------------------------------------------------- policy_file

FILE_BODY = '[[rules]]\neffect = "deny"\ntool = "read"\npaths = ["*secret*"]\n'


def with_file(name: str) -> str:
    return f'[tools.policy]\nenabled = true\ndefault_effect = "allow"\npolicy_file = "{name}"\n'


async def test_policy_file_replaces_inline_rules(make_deck: Callable[..., Deck],
                                                 project: Path) -> None:
    (project / "policy.toml").write_text(FILE_BODY)
    (project / "secret.txt").write_text("s\n")
    deck = make_deck(with_file("policy.toml") + '[[tools.policy.rules]]\neffect = "deny"\n'
                     'tool = "list_directory"\n')
    denied = await deck.call(ToolCall("read", {"path": "secret.txt"}))
    assert denied.error is not None and denied.decision is not None
    assert denied.decision.source == str(project / "policy.toml")
    assert (await deck.call(ToolCall("list_directory", {"path": "."}))).ok
    assert project / "policy.toml" in deck.runtime.policy_files


def test_zeph_policy_file_symlink_outside_is_refused(make_deck: Callable[..., Deck],
                                                      project: Path, tmp_path: Path) -> None:
    """§5.3: a policy_file symlink pointing outside the project → escapes project root."""
    outside = tmp_path / "elsewhere.toml"
    outside.write_text(FILE_BODY)
    (project / "policy.toml").symlink_to(outside)
    with pytest.raises(ConfigError, match="policy file escapes project root"):
        make_deck(with_file("policy.toml"))


def test_policy_file_named_outside_is_refused(make_deck: Callable[..., Deck],
                                              tmp_path: Path) -> None:
    (tmp_path / "elsewhere.toml").write_text(FILE_BODY)
    with pytest.raises(ConfigError, match="policy file escapes project root"):
        make_deck(with_file("../elsewhere.toml"))


def test_a_symlink_inside_the_project_is_followed(make_deck: Callable[..., Deck],
                                                  project: Path) -> None:
    (project / "policies").mkdir()
    (project / "policies" / "main.toml").write_text(FILE_BODY)
    (project / "policy.toml").symlink_to(project / "policies" / "main.toml")
    deck = make_deck(with_file("policy.toml"))
    assert project / "policies" / "main.toml" in deck.runtime.policy_files


@pytest.mark.parametrize(("content", "error"), [
    (None, "policy file cannot be loaded"),
    (FILE_BODY + "#" * (256 * 1024), "policy file too large"),
    ("rules = [", "policy file cannot be parsed: .*invalid TOML"),
    ("[[rules]]\neffect = \"maybe\"\ntool = \"x\"\n", "policy file cannot be parsed: "
     ".*policy.toml: rules.0.effect: Input should be 'allow' or 'deny'"),
    ("default_effect = \"allow\"\nrules = []\n", "policy file cannot be parsed: "
     ".*default_effect: Extra inputs"),
    (b"\xff\xfe", "policy file cannot be parsed: .*not UTF-8"),
])
def test_zeph_policy_file_errors(make_deck: Callable[..., Deck], project: Path,
                                 content: str | bytes | None, error: str) -> None:
    """§5.3: missing / too large / bad TOML (and a bad rule, an unknown key, not UTF-8)."""
    path = project / "policy.toml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    with pytest.raises(ConfigError, match=error):
        make_deck(with_file("policy.toml"))


def test_exactly_256_kib_is_accepted(make_deck: Callable[..., Deck], project: Path) -> None:
    body = FILE_BODY + "#" * (256 * 1024 - len(FILE_BODY) - 1) + "\n"
    assert len(body.encode()) == 256 * 1024
    (project / "policy.toml").write_text(body)
    make_deck(with_file("policy.toml"))


async def test_deleting_the_policy_file_keeps_the_last_good_policy(
    make_deck: Callable[..., Deck], project: Path
) -> None:
    (project / "policy.toml").write_text(FILE_BODY)
    (project / "secret.txt").write_text("s\n")

    async def no_wait() -> None:
        return None

    deck = make_deck(with_file("policy.toml"), settle_wait=no_wait)
    os.unlink(project / "policy.toml")
    assert not await deck.reload()
    assert "policy file deleted" in (deck.last_reload_error or "")
    denied = await deck.call(ToolCall("read", {"path": "secret.txt"}))
    assert denied.error is not None and denied.error.category is ErrorCategory.POLICY_BLOCKED


async def test_an_edited_policy_file_is_reloaded(make_deck: Callable[..., Deck],
                                                 project: Path) -> None:
    (project / "policy.toml").write_text(FILE_BODY)
    (project / "notes.txt").write_text("n\n")

    async def no_wait() -> None:
        return None

    deck = make_deck(with_file("policy.toml"), settle_wait=no_wait)
    assert (await deck.call(ToolCall("read", {"path": "notes.txt"}))).ok
    tmp = project / "policy.toml.new"
    tmp.write_text(FILE_BODY.replace("*secret*", "*notes*"))
    os.replace(tmp, project / "policy.toml")
    assert await deck.reload()
    denied = await deck.call(ToolCall("read", {"path": "notes.txt"}))
    assert denied.error is not None and denied.error.category is ErrorCategory.POLICY_BLOCKED


async def test_turning_the_enforcer_on_by_an_atomic_save_applies_at_once(
    make_deck: Callable[..., Deck], project: Path
) -> None:
    """Enabling is a tightening: a rename-over save is swapped in without waiting."""
    (project / "a.txt").write_text("x\n")

    async def never() -> None:
        raise AssertionError("a tightening must not wait for the settle interval")

    deck = make_deck("", settle_wait=never)
    assert (await deck.call(ToolCall("read", {"path": "a.txt"}))).ok
    config = project / "tooldeck.toml"
    new = project / "tooldeck.toml.new"
    new.write_text(config.read_text() + '[tools.policy]\nenabled = true\n[[tools.policy.rules]]\n'
                   'effect = "deny"\ntool = "read"\n')
    os.replace(new, config)
    assert await deck.reload()
    denied = await deck.call(ToolCall("read", {"path": "a.txt"}))
    assert denied.error is not None and denied.error.message == "Tool call denied by policy"
