"""The trust gate in a real deck: configuration, tool sources, run-time changes, reload."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.trust_gate.conftest import (
    allow_rules,
    audit_records,
    config_text,
    judge,
    stub,
    trust_vote,
)
from tooldeck.cli import main
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError, ErrorCategory
from tooldeck.lookup import load_document
from tooldeck.models import ToolCall, Verdict
from tooldeck.plugins.trust_gate.api import reset_trust, set_trust, trust_overrides
from tooldeck.trust_levels import TrustLevel
from tooldeck.trust_state import Subject, default_state_path

TOOLDECK = shutil.which("tooldeck", path=str(Path(sys.executable).parent)) or "tooldeck"
MCP_TOOLS = [stub("mcp_github__search"), stub("mcp_github__create_issue"),
             stub("mcp_other__list")]
MCP_RULES = allow_rules("mcp_github__search", "mcp_github__create_issue", "mcp_other__list")


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TOOLDECK, *args], cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)


# -- configuration ----------------------------------------------------------------------


async def test_mcp_servers_are_quarantined_until_listed(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(MCP_RULES, MCP_TOOLS)
    vote = trust_vote(deck, "mcp_github__search")
    assert vote is not None and vote.reason == "mcp_github__search denied (trust=quarantined)"
    assert vote.rule == ("quarantine-mcp (source 'mcp:github' is quarantined by "
                         "[tools.trust] default)")
    assert "mcp_github__search" not in [t.id for t in deck.tools()], "always denied: hidden"
    listed = make_deck('[tools.trust]\nsources = { "mcp:github" = "verified" }\n' + MCP_RULES,
                       MCP_TOOLS)
    assert trust_vote(listed, "mcp_github__search") is None
    assert trust_vote(listed, "mcp_other__list") is not None, "other servers stay quarantined"
    result = await listed.call(ToolCall("mcp_github__create_issue", {}))
    assert result.ok
    assert "mcp_github__search" in [t.id for t in listed.tools()]


async def test_builtin_tools_are_trusted_unless_configured(
        make_deck: Callable[..., Deck]) -> None:
    deck = make_deck()
    assert trust_vote(deck, "bash", params={"command": "true"}) is None
    strict = make_deck('[tools.trust]\nsources = { builtin = "quarantined" }\n')
    assert trust_vote(strict, "bash", params={"command": "true"}) is not None
    assert trust_vote(strict, "read", params={"path": "x"}) is None, "read-only tools run"
    # tooldeck's own changing tools are denied by capability even without a Zeph name
    vote = trust_vote(strict, "find_path", params={"path": "x"})
    assert vote is None, "find_path only reads"


async def test_a_declared_capability_denies_under_quarantine(
        make_deck: Callable[..., Deck]) -> None:
    tools = [stub("sync_remote", capabilities={"network"}), stub("notes", capabilities={"read"})]
    deck = make_deck('[tools.trust]\ncallers = { q = "quarantined" }\n', tools)
    vote = trust_vote(deck, "sync_remote", caller="q")
    assert vote is not None and vote.rule is not None
    assert vote.rule.startswith("quarantine-effect")
    assert trust_vote(deck, "notes", caller="q") is None


@pytest.mark.parametrize(("body", "key", "message"), [
    ('[tools.trust]\ndefault = "admin"\n', "tools.trust.default", "unknown trust level 'admin'"),
    ('[tools.trust]\nsources = { github = "trusted" }\n', "tools.trust.sources.github",
     "is not a tool source"),
    ('[tools.trust]\nsources = { "mcp:x" = 3 }\n', "tools.trust.sources.mcp:x",
     "expected the name of a trust level"),
    ('[tools.trust]\ncaller = { a = "trusted" }\n', "tools.trust.caller",
     "did you mean 'callers'"),
])
def test_bad_trust_settings_are_errors_naming_the_key(project: Path, tmp_path: Path,
                                                      body: str, key: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(ConfigError) as info:
        Deck.from_config(path)
    assert f"{path}: {key}" in str(info.value)
    assert message in str(info.value)


async def test_levels_are_read_case_insensitively_and_shown_by_name(
        make_deck: Callable[..., Deck]) -> None:
    from tooldeck.plugins.trust_gate.settings import TrustSettings

    deck = make_deck('[tools.trust]\ndefault = "Verified"\ncallers = { a = "BLOCKED" }\n')
    settings = deck.runtime.settings.get(TrustSettings)
    assert settings.default is TrustLevel.VERIFIED
    assert settings.model_dump(mode="json")["callers"] == {"a": "blocked"}


async def test_a_tools_own_trust_and_source_are_honoured(make_deck: Callable[..., Deck]) -> None:
    tools = [stub("gh_search", source="mcp:github", trust="verified"),
             stub("gh_push", source="mcp:github", trust="verified"),
             stub("odd_trust", source="mcp:github", trust="sometimes"),
             stub("odd_source", source="github!")]
    deck = make_deck(allow_rules("gh_search"), tools)
    assert trust_vote(deck, "gh_search") is None, "declared verified"
    vote = trust_vote(deck, "odd_trust")
    assert vote is not None and vote.reason == "all tools blocked (trust=blocked)"
    runtime = deck.runtime
    assert runtime.trust_level(ToolCall("odd_source"), runtime.tools["odd_source"]) is (
        TrustLevel.QUARANTINED), "a source that names nothing known: [tools.trust] default"
    listed = make_deck('[tools.trust]\nsources = { "mcp:github" = "quarantined" }\n', tools)
    assert trust_vote(listed, "gh_search") is not None, "[tools.trust] sources wins"


async def test_trust_never_answers_an_ask(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck('[tools.trust]\ncallers = { t = "trusted" }\n'
                     '[[tools.permissions.note_save]]\npattern = "*"\naction = "ask"\n',
                     [stub("note_save")])
    result = await deck.call(ToolCall("note_save", {}, caller_id="t"))
    assert result.error is not None
    assert result.error.category is ErrorCategory.CONFIRMATION_REQUIRED


# -- run-time changes ----------------------------------------------------------------------


async def test_a_caller_can_be_quarantined_and_reset_at_run_time(
        make_deck: Callable[..., Deck], audit_path: Path) -> None:
    deck = make_deck()
    bash = ToolCall("bash", {"command": "echo hi"}, caller_id="alice")
    assert (await deck.call(bash)).ok
    assert set_trust(deck, Subject.caller("alice"), "quarantined", by="ops",
                     reason="reviewing") is None
    denied = await deck.call(bash)
    assert denied.error is not None and denied.error.message == "bash denied (trust=quarantined)"
    assert denied.decision is not None
    assert "caller 'alice' set to quarantined by ops: reviewing" in str(denied.decision.rule)
    assert (await deck.call(ToolCall("bash", {"command": "echo hi"}, caller_id="bob"))).ok
    previous = reset_trust(deck, Subject.caller("alice"), by="ops")
    assert previous is not None and previous.level is TrustLevel.QUARANTINED
    assert (await deck.call(bash)).ok
    assert reset_trust(deck, Subject.caller("alice")) is None
    events = [r for r in audit_records(audit_path) if r["kind"].startswith("trust.")]
    assert [(e["kind"], e["name"], e.get("level"), e["by"]) for e in events] == [
        ("trust.set", "alice", "quarantined", "ops"), ("trust.reset", "alice", None, "ops")]
    assert events[1]["previous"] == "quarantined"


async def test_a_source_can_be_trusted_at_run_time(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(MCP_RULES, MCP_TOOLS)
    assert trust_vote(deck, "mcp_github__create_issue") is not None
    set_trust(deck.runtime, Subject.source("mcp:github"), TrustLevel.TRUSTED)
    assert trust_vote(deck, "mcp_github__create_issue") is None
    assert trust_vote(deck, "mcp_other__list") is not None
    assert Subject.source("mcp:github") in trust_overrides(deck)


def test_subject_names_are_checked() -> None:
    with pytest.raises(ValueError, match="not a tool source name"):
        Subject.source("github")
    assert Subject.caller(None) == Subject.caller("") == Subject("caller", "")


async def test_a_change_reaches_every_deck_of_the_user(make_deck: Callable[..., Deck]) -> None:
    first, second = make_deck(), make_deck()
    set_trust(first, Subject.caller("alice"), "blocked")
    assert judge(second, "read", caller="alice", params={"path": "x"}).verdict is Verdict.DENY
    reset_trust(second, Subject.caller("alice"))
    assert trust_vote(first, "read", caller="alice", params={"path": "x"}) is None


async def test_the_cli_changes_a_running_deck(make_deck: Callable[..., Deck], config_path: Path,
                                              audit_path: Path, project: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    deck = make_deck()
    call = ToolCall("bash", {"command": "echo hi"}, caller_id="nightly job")
    assert (await deck.call(call)).ok
    # another process: the real console script
    done = run_cli("trust", "set", "nightly job", "blocked", "--reason", "paused",
                   "--config", str(config_path), cwd=project)
    assert done.returncode == 0, done.stderr
    assert "caller 'nightly job': blocked (was: no run-time level)" in done.stdout
    denied = await deck.call(call)
    assert denied.error is not None and denied.error.message == (
        "all tools blocked (trust=blocked)")
    # the same command in this process (on a thread: it runs its own event loop)
    def cli(*args: str) -> int:
        return main(["trust", *args, "--config", str(config_path)])

    assert await asyncio.to_thread(cli, "list") == 0
    listed = capsys.readouterr().out
    assert "caller 'nightly job': blocked (set by cli" in listed and "paused" in listed
    assert "[tools.trust] default (MCP servers, skills): quarantined" in listed
    assert await asyncio.to_thread(cli, "reset", "nightly job") == 0
    assert (await deck.call(call)).ok
    assert await asyncio.to_thread(cli, "reset", "nightly job") == 1
    assert "nothing to reset" in capsys.readouterr().err
    kinds = [r["kind"] for r in audit_records(audit_path)]
    assert kinds.count("trust.set") == 1 and kinds.count("trust.reset") == 1


@pytest.mark.parametrize(("args", "message"), [
    (["set", "x", "admin"], "unknown trust level 'admin'"),
    (["set", "--source", "github", "trusted"], "not a tool source name"),
])
def test_cli_usage_errors_exit_2(project: Path, args: list[str], message: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trust", *args, "--config", "no-such-file.toml"]) == 2
    assert message in capsys.readouterr().err


# -- plugin lifecycle: disable, reload ------------------------------------------------------


async def test_disabling_the_plugin_keeps_its_section_with_a_warning(
        make_deck: Callable[..., Deck]) -> None:
    deck = make_deck('[tools.trust]\ncallers = { q = "quarantined" }\n'
                     '[plugins]\ndisable = ["trust_gate"]\n')
    assert trust_vote(deck, "bash", caller="q", params={"command": "true"}) is None
    assert "trust_gate" not in deck.runtime.hooks.gate_names[-1]
    assert any("[tools.trust] is not validated" in w for w in deck.runtime.warnings)
    assert deck.runtime.trust_level(ToolCall("bash", caller_id="q"),
                                    deck.runtime.tools["bash"]) is TrustLevel.TRUSTED


async def test_levels_reload_with_the_policy(make_deck: Callable[..., Deck],
                                             config_path: Path, audit_path: Path) -> None:
    deck = make_deck('[tools.trust]\ncallers = { q = "quarantined" }\n', settle_s=0.01)
    set_trust(deck, Subject.caller("r"), "blocked")
    assert trust_vote(deck, "bash", caller="q", params={"command": "true"}) is not None
    before = deck.runtime
    config_path.write_text(config_text('[tools.trust]\ncallers = { q = "trusted" }\n',
                                       audit_path))
    assert await deck.reload()
    assert deck.runtime is not before
    assert trust_vote(deck, "bash", caller="q", params={"command": "true"}) is None
    assert trust_vote(deck, "read", caller="r", params={"path": "x"}) is not None, (
        "run-time levels outlive a reload")
    config_path.write_text(config_text('[tools.trust]\ncallers = { q = "superuser" }\n',
                                       audit_path))
    assert not await deck.reload()
    assert trust_vote(deck, "bash", caller="q", params={"command": "true"}) is None, (
        "a broken file keeps the last good levels")


def test_the_embedded_default_is_valid_and_trusts_builtins(project: Path) -> None:
    deck = Deck.from_config(load_document(None))
    try:
        runtime = deck.runtime
        assert "trust_gate.gate" in runtime.hooks.gate_names
        assert runtime.trust_level(ToolCall("bash"), runtime.tools["bash"]) is TrustLevel.TRUSTED
        assert not default_state_path().exists(), "judging writes nothing; a level set does"
    finally:
        deck.close()
