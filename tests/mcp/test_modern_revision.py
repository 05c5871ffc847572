"""The SDK's default ``Client`` speaks the 2026-07-28 revision: asks go out as input_required."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError, StdioServerParameters, types

from .mcpkit import (
    CLIENT,
    TOOLDECK,
    audit_records,
    http_server,
    make_workspace,
    server_args,
    text_of,
)

ASK = {"command": "touch approved.txt"}


@asynccontextmanager
async def modern_client(workspace: Path, transport: str, **kwargs: Any) -> AsyncIterator[Client]:
    if transport == "stdio":
        target: Any = StdioServerParameters(command=TOOLDECK, args=server_args(workspace),
                                            cwd=workspace, env=dict(os.environ))
        async with Client(target, client_info=CLIENT, **kwargs) as client:
            yield client
    else:
        with http_server(workspace, token=None) as url:
            async with Client(url, client_info=CLIENT, **kwargs) as client:
                yield client


def answering(*actions: str) -> Any:
    answers = list(actions)

    async def elicit(ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert "touch approved.txt" in params.message
        return types.ElicitResult(action=answers.pop(0))  # type: ignore[arg-type]

    return elicit


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_asks_in_rounds_with_the_default_client(tmp_path: Path, transport: str) -> None:
    workspace = make_workspace(tmp_path)
    async with modern_client(workspace, transport,
                             elicitation_callback=answering("decline", "accept")) as client:
        assert client.session.protocol_version == "2026-07-28"
        denied = await client.call_tool("bash", {"command": "rm -rf /"})
        declined = await client.call_tool("bash", ASK)
        assert not (workspace / "approved.txt").exists()
        accepted = await client.call_tool("bash", ASK)
    assert denied.is_error and "category: policy_blocked" in text_of(denied)
    assert declined.is_error and text_of(declined).startswith("[tool_error]\ncategory: cancelled")
    assert not accepted.is_error, text_of(accepted)
    assert (workspace / "approved.txt").exists()
    rounds = [(r["result"]["type"], r.get("error_category"), r.get("approved_by"))
              for r in audit_records(workspace) if r.get("command") == "touch approved.txt"]
    assert rounds == [
        ("error", "confirmation_required", None), ("error", "cancelled", None),
        ("error", "confirmation_required", None), ("success", None, "mcp-client"),
    ], "each round is audited: the ask, then the answer"


async def test_an_answer_is_bound_to_its_call_and_used_once(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path)
    accept = {"tooldeck.confirm": types.ElicitResult(action="accept")}
    async with modern_client(workspace, "stdio",
                             elicitation_callback=answering("accept")) as client:
        session = client.session
        first = await session.call_tool("bash", ASK, allow_input_required=True)
        assert isinstance(first, types.InputRequiredResult)
        state = first.request_state
        assert state and "tooldeck" not in state, "the state is sealed, not readable"

        with pytest.raises(MCPError, match="Invalid or expired requestState"):
            await session.call_tool("bash", {"command": "touch other.txt"},
                                    input_responses=accept, request_state=state,
                                    allow_input_required=True)
        with pytest.raises(MCPError, match="Invalid or expired requestState"):
            await session.call_tool("bash", ASK, input_responses=accept,
                                    request_state=state[:-4] + "AAAA", allow_input_required=True)
        assert not (workspace / "approved.txt").exists()
        assert not (workspace / "other.txt").exists()

        ran = await session.call_tool("bash", ASK, input_responses=accept, request_state=state,
                                      allow_input_required=True)
        assert isinstance(ran, types.CallToolResult) and not ran.is_error
        (workspace / "approved.txt").unlink()
        again = await session.call_tool("bash", ASK, input_responses=accept,
                                        request_state=state, allow_input_required=True)
        assert isinstance(again, types.InputRequiredResult), "a used answer asks again"
        assert not (workspace / "approved.txt").exists()


async def test_no_elicitation_no_run_and_list_changes_reach_listen_streams(
        tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path)
    async with modern_client(workspace, "stdio") as client, \
            client.listen(tools_list_changed=True) as events:
        asked = await client.call_tool("bash", ASK)
        assert asked.is_error
        assert text_of(asked).startswith("[tool_error]\ncategory: confirmation_required\n")
        assert not (workspace / "approved.txt").exists()

        config = workspace / "tooldeck.toml"
        config.write_text(config.read_text().replace(
            '[[tools.permissions.delete_path]]\npattern = "*"\naction = "ask"',
            '[[tools.permissions.delete_path]]\npattern = "*"\naction = "deny"'))
        with anyio.fail_after(10):
            event = await events.__anext__()
        assert type(event).__name__ == "ToolsListChanged"
        names = {t.name for t in (await client.list_tools()).tools}
    assert "delete_path" not in names
