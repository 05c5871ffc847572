"""One real demo server over stdio, verified, behind permission rules: tools, calls, audit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tooldeck.catalog import tool_schema
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall

from .kit import alive, allow, audit, make_deck, server_table

CONFIG = (server_table("demo", trust="verified", timeout_secs=1)
          + allow("mcp_demo__echo") + allow("mcp_demo__pid")
          + allow("mcp_demo__slow") + allow("mcp_demo__die", "deny"))


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("calls")


@pytest.fixture(scope="module")
def deck(tmp: Path) -> Iterator[Deck]:
    deck = make_deck(CONFIG, tmp)
    pid = int(deck.call_sync(ToolCall("mcp_demo__pid", {})).text)
    assert alive(pid)
    yield deck
    deck.close()
    assert not alive(pid), "the server outlived deck.close()"


def test_tools_are_listed_with_the_servers_schemas(deck: Deck) -> None:
    tools = {t.id: t for t in deck.tools()}
    echo = tools["mcp_demo__echo"]
    assert echo.description == "[MCP server 'demo'] Repeat the text."
    assert echo.source == "mcp:demo" and echo.trust == "verified"
    schema = tool_schema(echo)
    assert schema["properties"]["text"] == {"type": "string"}
    assert schema["properties"]["times"] == {"default": 1, "type": "integer"}
    assert schema["required"] == ["text"]
    assert {"mcp_demo__pid", "mcp_demo__read_file", "mcp_demo__slow"} <= set(tools)
    assert "mcp_demo__die" not in tools  # every rule denies it: hidden like any such tool


def test_a_call_runs_end_to_end_and_is_audited_with_the_server(deck: Deck, tmp: Path) -> None:
    result = deck.call_sync(ToolCall("mcp_demo__echo", {"text": "ab", "times": 3},
                                     caller_id="t1"))
    assert result.ok, result.text
    assert result.text == "ababab"
    assert result.output is not None and result.output.raw_response == {
        "server": "demo", "tool": "echo", "structured_content": {"result": "ababab"}}
    (record,) = [r for r in audit(tmp, "tool_call") if r.get("caller_id") == "t1"]
    assert record["tool"] == "mcp_demo__echo"
    assert record["mcp_server_id"] == "demo"
    assert record["result"] == {"type": "success"}


def test_results_are_never_cached(deck: Deck) -> None:
    first = deck.call_sync(ToolCall("mcp_demo__pid", {}))
    second = deck.call_sync(ToolCall("mcp_demo__echo", {"text": first.text}))
    assert second.text == first.text
    third = deck.call_sync(ToolCall("mcp_demo__echo", {"text": "other"}))
    assert third.text == "other"


def test_parameters_are_checked_against_the_schema_before_the_call(deck: Deck) -> None:
    wrong_type = deck.call_sync(ToolCall("mcp_demo__echo", {"text": 5}))
    assert wrong_type.error is not None
    assert wrong_type.error.category is ErrorCategory.TYPE_MISMATCH
    missing = deck.call_sync(ToolCall("mcp_demo__echo", {}))
    assert missing.error is not None
    assert missing.error.category is ErrorCategory.INVALID_PARAMETERS
    assert "'text' is a required property" in missing.error.message


def test_permission_rules_apply_a_tool_without_rules_asks(deck: Deck) -> None:
    asked = deck.call_sync(ToolCall("mcp_demo__read_file", {"path": "/etc/hostname"}))
    assert asked.error is not None
    assert asked.error.category is ErrorCategory.CONFIRMATION_REQUIRED
    assert "no permission rules for mcp_demo__read_file" in asked.error.message
    confirmed = deck.call_sync(ToolCall("mcp_demo__read_file", {"path": "/x"}), confirm=True)
    assert confirmed.text == "asked for /x"
    denied = deck.call_sync(ToolCall("mcp_demo__die", {}), confirm=True)
    assert denied.error is not None
    assert denied.error.category is ErrorCategory.POLICY_BLOCKED


def test_a_slow_tool_times_out_and_the_server_stays_up(deck: Deck, tmp: Path) -> None:
    slow = deck.call_sync(ToolCall("mcp_demo__slow", {"seconds": 30}, caller_id="slow"))
    assert slow.error is not None
    assert slow.error.category is ErrorCategory.TIMEOUT
    assert "did not answer within 1 s (timeout_secs)" in slow.error.message
    (record,) = [r for r in audit(tmp, "tool_call") if r.get("caller_id") == "slow"]
    assert record["result"]["type"] == "timeout"
    assert record["mcp_server_id"] == "demo"
    assert deck.call_sync(ToolCall("mcp_demo__echo", {"text": "still"})).text == "still"
