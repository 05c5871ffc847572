"""Value types: tool ids, invocation hints, read-only tools, the input text rules match."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pydantic
import pytest

from tooldeck.models import AuditEvent, FilterStats, ToolCall, ToolDef, new_call_id


class Params(pydantic.BaseModel):
    path: str
    limit: int = 10


def tool(tool_id: str = "read", **kwargs: Any) -> ToolDef:
    return ToolDef(id=tool_id, description="d", params=Params, executor="x", **kwargs)


@pytest.mark.parametrize("tool_id", ["bash", "read", "mcp:server.tool", "a-b_c", "A" * 64])
def test_valid_tool_ids(tool_id: str) -> None:
    assert tool(tool_id).id == tool_id


@pytest.mark.parametrize("tool_id", ["", "1bash", "_x", "has space", "A" * 65, "bash;rm", "é"])
def test_invalid_tool_ids(tool_id: str) -> None:
    with pytest.raises(ValueError, match="invalid tool id"):
        tool(tool_id)


@pytest.mark.parametrize(
    ("invocation", "tag"),
    [("tool_call", None), ("fenced:bash", "bash"), ("fenced:scrape", "scrape")],
)


def test_valid_invocations(invocation: str, tag: str | None) -> None:
    assert tool(invocation=invocation).fenced_tag == tag


@pytest.mark.parametrize("invocation", ["fenced:", "fenced:1x", "call", "fenced:a b"])
def test_invalid_invocations(invocation: str) -> None:
    with pytest.raises(ValueError, match="invalid invocation"):
        tool(invocation=invocation)


@pytest.mark.parametrize(
    ("capabilities", "read_only"),
    [({"read"}, True), ({"read", "network"}, False), ({"read", "write"}, False),
     ({"read", "exec"}, False), ({"read", "delete"}, False), (set(), False)],
)


def test_read_only(capabilities: set[str], read_only: bool) -> None:
    assert tool(capabilities=capabilities).read_only is read_only


def test_json_schema_comes_from_the_params_model() -> None:
    schema = tool().json_schema()
    assert schema["required"] == ["path"]
    assert set(schema["properties"]) == {"path", "limit"}


@pytest.mark.parametrize(
    ("params", "input_param", "expected"),
    [
        ({"command": "ls", "path": "/x"}, None, "ls"),
        ({"path": "/x", "url": "https://e"}, None, "/x"),
        ({"file_path": "/f", "query": "q"}, None, "/f"),
        ({"uri": "u", "query": "q", "source": "s"}, None, "u"),
        ({"source": "s"}, None, "s"),
        ({"command": 5, "path": "/x"}, None, "/x"),
        ({"other": "x"}, None, ""),
        ({"command": "ls", "destination": "/d"}, "destination", "/d"),
        ({"command": "ls"}, "destination", ""),
    ],
)


def test_input_text(params: dict[str, object], input_param: str | None, expected: str) -> None:
    call = ToolCall("read", params)
    assert call.input_text(tool(input_param=input_param)) == expected


def test_call_ids_are_fresh_hex() -> None:
    ids = {new_call_id() for _ in range(100)}
    assert len(ids) == 100
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    assert ToolCall("x").call_id != ToolCall("x").call_id


def test_call_ids_are_version_4_uuids() -> None:
    for _ in range(200):
        call_id = new_call_id()
        parsed = uuid.UUID(call_id)
        assert (parsed.hex, parsed.version, parsed.variant) == (call_id, 4, uuid.RFC_4122)


@pytest.mark.parametrize(("raw", "filtered", "pct"), [(0, 0, 0.0), (100, 20, 80.0), (50, 50, 0.0)])
def test_filter_savings(raw: int, filtered: int, pct: float) -> None:
    stats = FilterStats(raw_chars=raw, filtered_chars=filtered, raw_lines=1, filtered_lines=1)
    assert stats.savings_pct == pytest.approx(pct)


def test_audit_record_puts_time_and_kind_first() -> None:
    record = AuditEvent("tool_call", 1700000000.12345, {"tool": "bash"}).as_record()
    assert record == {"ts": "1700000000.123", "kind": "tool_call", "tool": "bash"}
    assert list(record) == ["ts", "kind", "tool"]
