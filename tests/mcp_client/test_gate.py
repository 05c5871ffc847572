"""The trust gate on its own: only verified and trusted servers' tools get past it."""

from __future__ import annotations

import pydantic
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.models import ToolCall, ToolDef, Verdict
from tooldeck.plugins.mcp_client.gate import TrustGate


class NoParams(pydantic.BaseModel):
    pass


def tool(source: str | None, trust: str | None, tid: str = "mcp_x__t") -> ToolDef:
    return ToolDef(id=tid, description="d", params=NoParams, executor="mcp_client",
                   source=source, trust=trust)


GATE = TrustGate()


@given(st.one_of(st.none(), st.text(max_size=20)).filter(lambda t: t not in ("verified",
                                                                              "trusted")),
       st.from_regex(r"[a-z0-9_-]{1,32}", fullmatch=True))
def test_every_other_trust_value_of_an_mcp_tool_is_denied_and_hidden(trust: str | None,
                                                                     server: str) -> None:
    t = tool(f"mcp:{server}", trust)
    decision = GATE.tooldeck_check_call(ToolCall(t.id, {}), t)
    assert decision is not None and decision.verdict is Verdict.DENY
    assert GATE.tooldeck_tool_hidden(t) is True


@given(st.sampled_from(["verified", "trusted"]))
def test_verified_and_trusted_leave_the_decision_to_the_other_gates(trust: str) -> None:
    t = tool("mcp:x", trust)
    assert GATE.tooldeck_check_call(ToolCall(t.id, {}), t) is None
    assert GATE.tooldeck_tool_hidden(t) is False


@given(st.one_of(st.none(), st.text(max_size=20).filter(lambda s: not s.startswith("mcp:"))),
       st.one_of(st.none(), st.sampled_from(["blocked", "quarantined"])))
def test_tools_that_are_not_from_an_mcp_server_are_not_judged(source: str | None,
                                                              trust: str | None) -> None:
    t = tool(source, trust, tid="read")
    assert GATE.tooldeck_check_call(ToolCall(t.id, {}), t) is None


def test_the_quarantine_denial_says_how_to_opt_in() -> None:
    t = tool("mcp:github", "quarantined", "mcp_github__search")
    decision = GATE.tooldeck_check_call(ToolCall(t.id, {}), t)
    assert decision is not None
    assert decision.reason == (
        "mcp_github__search: mcp server 'github' is quarantined (the default trust); to use "
        "its tools, set trust = \"verified\" in its [[mcp.servers]] table (name = 'github') "
        "and give them permission rules")
    assert decision.rule == "trust.quarantined"
