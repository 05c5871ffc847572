"""The hello plugin through the public API, installed: enabled by name like in production."""

from __future__ import annotations

import pytest

from tooldeck.errors import ConfigError, ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.testing import AuditReader, DeckFactory

ENABLED = """
    [plugins]
    enable = ["hello"]

    [[tools.permissions.hello]]
    pattern = "*"
    action = "allow"
"""


def test_greets_by_name(make_deck: DeckFactory) -> None:
    deck = make_deck(ENABLED)
    result = deck.call_sync(ToolCall("hello", {"name": "Ada"}))
    assert result.ok, result.text
    assert result.text == "Hello, Ada!"


def test_greeting_comes_from_the_settings_table(make_deck: DeckFactory) -> None:
    deck = make_deck(ENABLED + '\n    [plugins.hello]\n    greeting = "Howdy"\n')
    assert deck.call_sync(ToolCall("hello", {"name": "Ada"})).text == "Howdy, Ada!"


def test_unknown_setting_is_refused(make_deck: DeckFactory) -> None:
    with pytest.raises(ConfigError, match=r"plugins\.hello\.greting: unknown key"):
        make_deck(ENABLED + '\n    [plugins.hello]\n    greting = "Howdy"\n')


def test_parameters_are_validated_before_the_executor(make_deck: DeckFactory) -> None:
    deck = make_deck(ENABLED)
    result = deck.call_sync(ToolCall("hello", {"name": ""}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.INVALID_PARAMETERS


def test_not_enabled_means_no_tool(make_deck: DeckFactory) -> None:
    deck = make_deck()
    assert "hello" not in {tool.id for tool in deck.tools()}
    (info,) = [p for p in deck.runtime.plugins if p.name == "hello"]
    assert info.state == "disabled"


def test_each_call_is_audited(make_deck: DeckFactory, audit_log: AuditReader) -> None:
    deck = make_deck(ENABLED)
    deck.call_sync(ToolCall("hello", {"name": "Ada"}, caller_id="test"))
    (record,) = audit_log(kind="tool_call")
    assert record["tool"] == "hello"
    assert record["command"] == "Ada"
    assert record["result"] == {"type": "success"}
    assert record["decision"]["pattern"] == "*"
