"""Every integer parameter of a built-in tool has an upper bound; absurd values are refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tooldeck.build import build_runtime
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall, ToolDef


@pytest.fixture
def deck(tmp_path: Path) -> Iterator[Deck]:
    doc = parse_document(
        f'[agent]\nautonomy = "readonly"\n[tools.file]\nallowed_paths = ["{tmp_path}"]\n'
        f'[tools.shell]\ncheckpoints_enabled = true\n'
        f'[tools.audit]\npath = "{tmp_path / "audit.jsonl"}"\n', tmp_path / "t.toml", "test")
    deck = Deck(build_runtime(doc, environ={}))
    yield deck
    deck.close()


def integer_fields(tool: ToolDef) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, prop in tool.json_schema().get("properties", {}).items():
        options = prop.get("anyOf", [prop])
        for option in options:
            if option.get("type") == "integer":
                yield name, option


def test_every_integer_parameter_of_a_builtin_tool_is_bounded(deck: Deck) -> None:
    seen = []
    for tool in deck.runtime.tools.values():
        for name, schema in integer_fields(tool):
            seen.append(f"{tool.id}.{name}")
            assert "maximum" in schema, f"{tool.id}.{name} has no upper bound"
    assert {"read.offset", "read.limit", "grep.max_results", "find_path.max_results",
            "web_scrape.limit", "shell_undo.count"} <= set(seen)


@pytest.mark.parametrize(("tool_id", "params", "field"), [
    ("grep", {"pattern": "x", "max_results": 10**100}, "max_results"),
    ("find_path", {"pattern": "*", "max_results": 10**5000}, "max_results"),
    ("read", {"path": "a", "offset": 2**63}, "offset"),
    ("web_scrape", {"url": "https://example.com", "select": "p", "limit": 10**9}, "limit"),
    ("shell_undo", {"count": 10**30}, "count"),
])
def test_absurd_integers_are_invalid_parameters_naming_field_and_range(
    deck: Deck, tool_id: str, params: dict[str, Any], field: str
) -> None:
    result = deck.call_sync(ToolCall(tool_id, params))
    assert result.error is not None
    assert result.error.category is ErrorCategory.INVALID_PARAMETERS
    assert f"{field}: Input should be less than or equal to" in result.text
