"""Trust levels and screening with real servers: default quarantine, blocked, flagged tools."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall

from .kit import allow, audit, make_deck, server_table


def _stop_server(tmp: Path) -> str:
    sh = shutil.which("sh")
    assert sh is not None
    return (f'[[mcp.servers]]\nname = "stop"\ncommand = {json.dumps(sh)}\ntrust = "blocked"\n'
            f'args = ["-c", {json.dumps(f"touch {tmp}/stop-started")}]\n')


CONFIG = (server_table("quiet", "--poison")                       # default trust: quarantined
          + "STOP"
          + server_table("open", "--poison", trust="trusted", allow_flagged_tools=["weather"],
                         deny_tools=["di*"])
          + allow("mcp_quiet__echo") + allow("mcp_stop__echo") + allow("mcp_open__echo")
          + allow("mcp_quiet__weather", "ask"))


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("trust")


@pytest.fixture(scope="module")
def deck(tmp: Path) -> Iterator[Deck]:
    deck = make_deck(CONFIG.replace("STOP", _stop_server(tmp)), tmp)
    yield deck
    deck.close()


def test_a_server_without_trust_is_quarantined_its_tools_denied_and_hidden(deck: Deck) -> None:
    result = deck.call_sync(ToolCall("mcp_quiet__echo", {"text": "x"}), confirm=True)
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
    assert 'set trust = "verified"' in result.error.message
    assert "name = 'quiet'" in result.error.message
    assert result.decision is not None and result.decision.rule == "trust.quarantined"
    assert not any(t.id.startswith("mcp_quiet__") for t in deck.tools())
    assert any("mcp server 'quiet' is quarantined" in w for w in deck.runtime.warnings)


def test_a_blocked_server_is_never_started(deck: Deck, tmp: Path) -> None:
    result = deck.call_sync(ToolCall("mcp_stop__echo", {"text": "x"}), confirm=True)
    assert result.error is not None
    assert result.error.category is ErrorCategory.TOOL_NOT_FOUND
    assert "mcp server 'stop' is blocked: it is not started" in " ".join(deck.runtime.warnings)
    assert not (tmp / "stop-started").exists()
    # its permission rules stay valid: the tool id is declared
    assert "mcp_stop__echo" in deck.runtime.declared_tools


def test_a_trusted_server_runs_under_the_permission_rules(deck: Deck) -> None:
    assert deck.call_sync(ToolCall("mcp_open__echo", {"text": "hi"})).text == "hi"
    asked = deck.call_sync(ToolCall("mcp_open__pid", {}))
    assert asked.error is not None
    assert asked.error.category is ErrorCategory.CONFIRMATION_REQUIRED


def test_deny_tools_keeps_a_tool_out(deck: Deck) -> None:
    result = deck.call_sync(ToolCall("mcp_open__die", {}), confirm=True)
    assert result.error is not None
    assert result.error.category is ErrorCategory.TOOL_NOT_FOUND


def test_a_poisoned_description_is_withheld_reported_and_audited(deck: Deck, tmp: Path) -> None:
    # quarantined or not, a flagged tool is never offered unless allowed by name
    result = deck.call_sync(ToolCall("mcp_quiet__weather", {"city": "x"}), confirm=True)
    assert result.error is not None
    assert result.error.category is ErrorCategory.TOOL_NOT_FOUND
    warning = next(w for w in deck.runtime.warnings if "'weather' is withheld" in w)
    assert "hidden_tag" in warning and "sensitive_read" in warning and "secrecy" in warning
    (event,) = [e for e in audit(tmp, "mcp.tool_flagged") if e["mcp_server_id"] == "quiet"]
    assert event["tool"] == "mcp_quiet__weather" and event["action"] == "withheld"


def test_allow_flagged_tools_offers_the_named_tool(deck: Deck, tmp: Path) -> None:
    assert "mcp_open__weather" in {t.id for t in deck.tools()}
    (event,) = [e for e in audit(tmp, "mcp.tool_flagged") if e["mcp_server_id"] == "open"]
    assert event["action"] == "allowed"
