"""The trust gate against odd input and a broken state: it fails closed, never open."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.trust_gate.conftest import stub, trust_vote
from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.models import ToolCall, ToolDef, Verdict
from tooldeck.plugins.trust_gate.api import reset_trust, set_trust
from tooldeck.plugins.trust_gate.gate import QUARANTINE_DENIED, denial
from tooldeck.trust_levels import TrustLevel
from tooldeck.trust_state import MAX_NAME_CHARS, Subject, TrustState, default_state_path

from .conftest import StubParams

BLOCKED = "all tools blocked (trust=blocked)"


async def test_a_corrupt_state_file_blocks_every_call(make_deck: Callable[..., Deck],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    default_state_path().parent.mkdir(parents=True)
    default_state_path().write_bytes(b"SQLite format 2\x00" + os.urandom(4096))
    deck = make_deck()
    for call in (ToolCall("read", {"path": "x"}), ToolCall("bash", {"command": "true"})):
        for confirm in (None, True):
            result = await deck.call(call, confirm=confirm)
            assert result.error is not None and result.error.message == BLOCKED
            assert result.decision is not None
            assert "trust state unreadable" in str(result.decision.rule)
    assert capsys.readouterr().err.count("trust state unreadable, every call is blocked") == 1


async def test_a_state_file_replaced_under_a_running_deck_blocks(
        make_deck: Callable[..., Deck]) -> None:
    deck = make_deck()
    set_trust(deck, Subject.caller("mallory"), "blocked")
    assert trust_vote(deck, "read", caller="mallory", params={"path": "x"}) is not None
    os.unlink(default_state_path())
    TrustState().close()  # an empty state in its place must not lift the block
    vote = trust_vote(deck, "read", caller="mallory", params={"path": "x"})
    assert vote is not None and vote.reason == BLOCKED
    assert trust_vote(deck, "read", caller="alice", params={"path": "x"}) is not None


ODD_CALLERS = ["a\x00b", "a\nb", "\ud800", "\u202eecila", "x" * MAX_NAME_CHARS,
               "alice\u200b", "'; DELETE FROM trust_overrides; --"]


async def test_odd_caller_ids_block_exactly_that_caller(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck()
    for odd in ODD_CALLERS:
        set_trust(deck, Subject.caller(odd), "blocked")
        vote = trust_vote(deck, "read", caller=odd, params={"path": "x"})
        assert vote is not None and vote.reason == BLOCKED, repr(odd)
        for near in ("alice", "a", "ab", "", odd[:-1], odd.upper() if odd.upper() != odd
                     else odd + "!"):
            if near not in ODD_CALLERS:
                assert trust_vote(deck, "read", caller=near, params={"path": "x"}) is None
        assert reset_trust(deck, Subject.caller(odd)) is not None
        assert trust_vote(deck, "read", caller=odd, params={"path": "x"}) is None


@pytest.mark.parametrize("caller", ["x" * (MAX_NAME_CHARS + 1), 42, b"alice", ["a"]],
                         ids=["too-long", "int", "bytes", "list"])
async def test_a_caller_id_no_row_could_name_is_blocked(make_deck: Callable[..., Deck],
                                                        caller: Any) -> None:
    deck = make_deck()
    runtime = deck.runtime
    call = ToolCall("read", {"path": "x"}, caller_id=caller)
    assert runtime.trust_level(call, runtime.tools["read"]) is TrustLevel.BLOCKED


@pytest.mark.parametrize("declared", [["trusted"], 0, object(), ""])
async def test_an_odd_declared_trust_is_blocked(make_deck: Callable[..., Deck],
                                                declared: Any) -> None:
    deck = make_deck(tools=[stub("gh_read", source="mcp:gh", trust=declared)])
    vote = trust_vote(deck, "gh_read")
    assert vote is not None and vote.reason == BLOCKED


class _Severe:
    @hookimpl
    def tooldeck_trust_level(self, call: ToolCall) -> TrustLevel | None:
        return TrustLevel.BLOCKED if call.caller_id == "flagged" else None


async def test_another_plugins_answer_can_only_tighten(make_deck: Callable[..., Deck],
                                                       project: Path, config_path: Path) -> None:
    make_deck('[tools.trust]\ncallers = { flagged = "trusted" }\n')
    deck = Deck.from_config(config_path, extra_plugins={"severe": _Severe()})
    try:
        vote = trust_vote(deck, "read", caller="flagged", params={"path": "x"})
        assert vote is not None and vote.reason == BLOCKED
        assert vote.rule == "blocked (another plugin's trust level answer)"
    finally:
        await deck.aclose()


# -- monotonicity: a more severe level never allows what a less severe one denies ----------

_names = st.one_of(
    st.sampled_from(sorted(QUARANTINE_DENIED)),
    st.builds(lambda p, n: f"{p}_{n}", st.from_regex(r"[a-z]{1,6}", fullmatch=True),
              st.sampled_from(sorted(QUARANTINE_DENIED))),
    st.builds(lambda s, t: f"mcp_{s}__{t}", st.from_regex(r"[a-z]{1,6}", fullmatch=True),
              st.from_regex(r"[a-z_]{1,8}", fullmatch=True)),
    st.from_regex(r"[A-Za-z][A-Za-z0-9_.:-]{0,30}", fullmatch=True),
)
_tools = st.builds(
    lambda i, caps: ToolDef(id=i, description="", params=StubParams, executor="stub",
                            capabilities=caps),
    _names, st.frozensets(st.sampled_from(["read", "write", "exec", "delete", "network",
                                           "search"])),
)


@given(tool=_tools, low=st.sampled_from(list(TrustLevel)), high=st.sampled_from(list(TrustLevel)))
def test_allowed_at_a_level_means_allowed_at_every_less_severe_one(
        tool: ToolDef, low: TrustLevel, high: TrustLevel) -> None:
    low, high = min(low, high), max(low, high)
    if denial(high, tool) is None:
        assert denial(low, tool) is None
    if denial(low, tool) is not None:
        assert denial(high, tool) is not None


@given(tool=_tools)
def test_each_level_denies_what_it_should(tool: ToolDef) -> None:
    assert denial(TrustLevel.TRUSTED, tool) is None
    assert denial(TrustLevel.VERIFIED, tool) is None
    assert denial(TrustLevel.BLOCKED, tool) == ("blocked", BLOCKED)
    if tool.read_only and not tool.id.startswith("mcp_") and not any(
            tool.id == n or tool.id.endswith("_" + n) for n in QUARANTINE_DENIED):
        assert denial(TrustLevel.QUARANTINED, tool) is None
    if tool.effective_capabilities & {"write", "execute", "state", "network"}:
        assert denial(TrustLevel.QUARANTINED, tool) is not None


async def test_the_gate_votes_what_denial_says(make_deck: Callable[..., Deck]) -> None:
    """The property above is about :func:`denial`; the gate adds nothing of its own."""
    deck = make_deck('[tools.trust]\ncallers = { q = "quarantined" }\n',
                     [stub("fs_delete_path"), stub("mcp_a__b"), stub("notes")])
    runtime = deck.runtime
    for tool_id in ("fs_delete_path", "mcp_a__b", "notes", "bash", "read"):
        tool = runtime.tools[tool_id]
        for caller in ("q", None):
            vote = trust_vote(deck, tool_id, caller=caller)
            expected = denial(runtime.trust_level(ToolCall(tool_id, caller_id=caller), tool),
                              tool)
            assert (vote is None) is (expected is None), (tool_id, caller)
            if vote is not None:
                assert vote.verdict is Verdict.DENY
