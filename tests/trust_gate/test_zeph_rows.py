"""zeph-test-cases §5.2 (TrustGate), row by row, in a real deck.

A caller is made quarantined or blocked through ``[tools.trust] callers``; the stand-in
tools carry Zeph's ids and no capabilities, so the name rules are what is tested.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.trust_gate.conftest import allow_rules, judge, stub, trust_vote
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall, Verdict

# Every source trusted, so that the caller's level is the call's (Zeph has one level).
LEVELS = ('[tools.trust]\ndefault = "trusted"\n'
          'callers = { q = "quarantined", b = "blocked", t = "trusted" }\n')

DENIED_BY_NAME = ["bash", "write", "edit", "delete_path", "fetch", "memory_save", "web_scrape"]
DENIED_BY_SUFFIX = ["filesystem_write", "shell_bash", "mcp_shell_bash", "http_fetch",
                    "server_memory_save", "fs_delete_path", "fs_not_delete_path"]
ALLOWED = ["read", "file_read", "filesystem_read_file", "filesystem_list_dir",
           "filesystem_write_file", "server_prefetch", "server_save", "write_log"]
MCP_REGISTERED = ["github_run_command", "shell_execute", "docker_container_exec"]

_BUILTIN = {"bash", "write", "edit", "delete_path", "fetch", "web_scrape", "read", "memory_save"}


def stubs_for(ids: list[str]) -> list:
    return [stub(i, capabilities={"read"}) for i in ids if i not in _BUILTIN]


async def test_quarantined_denies_by_name_and_suffix(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(LEVELS, stubs_for(DENIED_BY_NAME + DENIED_BY_SUFFIX))
    for tool_id in DENIED_BY_NAME + DENIED_BY_SUFFIX:
        vote = trust_vote(deck, tool_id, caller="q")
        assert vote is not None and vote.verdict is Verdict.DENY, tool_id
        assert vote.reason == f"{tool_id} denied (trust=quarantined)"
        assert trust_vote(deck, tool_id, caller="t") is None, tool_id


async def test_quarantined_allows_read_only_names(make_deck: Callable[..., Deck]) -> None:
    stand_ins = [i for i in ALLOWED if i != "read"]
    deck = make_deck(LEVELS + allow_rules(*stand_ins), stubs_for(ALLOWED))
    assert trust_vote(deck, "read", caller="q", params={"path": "x"}) is None
    for tool_id in stand_ins:
        assert trust_vote(deck, tool_id, caller="q") is None, tool_id
        result = await deck.call(ToolCall(tool_id, {}, caller_id="q"))
        assert result.ok and result.output is not None, tool_id
        assert result.output.summary == f"ran {tool_id}"


async def test_quarantined_denies_registered_mcp_tools_confirmed_or_not(
        make_deck: Callable[..., Deck]) -> None:
    tools = [stub(i, source="mcp:github") for i in MCP_REGISTERED]
    deck = make_deck(LEVELS + '[tools.trust.sources]\n"mcp:github" = "trusted"\n'
                     + allow_rules(*MCP_REGISTERED), tools)
    for tool_id in MCP_REGISTERED:
        assert trust_vote(deck, tool_id, caller="t") is None
        for confirm in (None, True):
            result = await deck.call(ToolCall(tool_id, {}, caller_id="q"), confirm=confirm)
            assert result.error is not None, tool_id
            assert result.error.category is ErrorCategory.POLICY_BLOCKED
            assert result.error.message == f"{tool_id} denied (trust=quarantined)"


async def test_trusted_bash_is_left_to_the_policy(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(LEVELS)
    assert trust_vote(deck, "bash", caller="t", params={"command": "echo hi"}) is None
    result = await deck.call(ToolCall("bash", {"command": "echo hi"}, caller_id="t"))
    assert result.ok and result.output is not None and "hi" in result.output.summary


async def test_blocked_denies_every_tool_confirmed_or_not(
        make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(LEVELS + allow_rules("memory_save", "write_log"),
                     [stub("write_log")])
    known = {"read": {"path": "x"}, "bash": {"command": "true"}, "memory_save": {"content": "x"}}
    cases = [(t, known.get(t, {}), confirm)
             for t in ("read", "bash", "memory_save", "write_log") for confirm in (None, True)]
    for tool_id, params, confirm in cases:
        result = await deck.call(ToolCall(tool_id, params, caller_id="b"), confirm=confirm)
        assert result.error is not None
        assert result.error.category is ErrorCategory.POLICY_BLOCKED
        assert result.error.message == "all tools blocked (trust=blocked)"
        assert result.decision is not None and result.decision.gate == "trust_gate"


async def test_trusted_under_readonly_autonomy_denies_a_tool_that_is_not_read_only(
        make_deck: Callable[..., Deck]) -> None:
    """The readonly row: trust does not deny, autonomy does (the permissions gate)."""
    deck = make_deck(LEVELS + '[tools.trust.sources]\n"mcp:mcpls" = "trusted"\n',
                     [stub("mcpls_get_diagnostics", source="mcp:mcpls")],
                     environ={"TOOLDECK_AGENT_AUTONOMY": "readonly"})
    assert trust_vote(deck, "mcpls_get_diagnostics", caller="t") is None
    decision = judge(deck, "mcpls_get_diagnostics", caller="t")
    assert decision.verdict is Verdict.DENY
    assert decision.reason == "mcpls_get_diagnostics is not read-only (autonomy is readonly)"


async def test_trusted_mcp_read_tool_with_no_rules_is_not_denied_by_trust(
        make_deck: Callable[..., Deck]) -> None:
    """Zeph allows it outright; tooldeck's permissions gate asks when a tool has no rules
    (fail closed), and runs it once a rule allows it. Trust is never what stops it."""
    body = LEVELS + '[tools.trust.sources]\n"mcp:filesystem" = "trusted"\n'
    tool = stub("mcp_filesystem__read_file")
    deck = make_deck(body, [tool])
    assert trust_vote(deck, "mcp_filesystem__read_file", caller="t") is None
    assert judge(deck, "mcp_filesystem__read_file", caller="t").verdict is Verdict.ASK
    ruled = make_deck(body + allow_rules("mcp_filesystem__read_file"), [tool])
    result = await ruled.call(ToolCall("mcp_filesystem__read_file", {}, caller_id="t"))
    assert result.ok
