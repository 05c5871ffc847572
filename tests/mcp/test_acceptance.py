"""The official MCP client against a real ``tooldeck mcp serve``, over stdio and over HTTP."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, types

from tooldeck.catalog import tool_schema
from tooldeck.deck import Deck

from .mcpkit import (
    CLIENT,
    NOISY_LINES,
    TOOLDECK,
    audit_records,
    http_server,
    http_session,
    make_workspace,
    server_args,
    stdio_session,
    text_of,
)

Opener = Callable[..., AbstractAsyncContextManager[ClientSession]]


@pytest.fixture(params=["stdio", "http"])
def connect(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """Opens a client session to a server on a fresh workspace, over one transport."""
    workspace = make_workspace(tmp_path)

    @asynccontextmanager
    async def open_session(**kwargs: Any) -> AsyncIterator[ClientSession]:
        if request.param == "stdio":
            async with stdio_session(workspace, **kwargs) as session:
                yield session
        else:
            with http_server(workspace) as url:
                async with http_session(url, **kwargs) as session:
                    yield session

    open_session.workspace = workspace  # type: ignore[attr-defined]
    return open_session


async def test_list_read_deny_ask_filter_and_audit(connect: Opener) -> None:
    workspace: Path = connect.workspace  # type: ignore[attr-defined]
    deck = Deck.from_config(workspace / "tooldeck.toml")
    try:
        expected = {t.id: tool_schema(t, deck.runtime.settings.core.tafc) for t in deck.tools()}
    finally:
        await deck.aclose()
    async with connect() as session:
        caps = session.initialize_result.capabilities  # type: ignore[union-attr]
        listed = {t.name: t for t in (await session.list_tools()).tools}
        read = await session.call_tool("read", {"path": "notes.txt"})
        denied = await session.call_tool("bash", {"command": "rm -rf /"})
        asked = await session.call_tool("bash", {"command": "touch approved.txt"})
        # not "cat app.log": a file view comes back exact (issue 13); a search is filtered
        noisy = await session.call_tool("bash", {"command": "grep GET app.log"})

    assert caps.tools is not None and caps.tools.list_changed is True
    assert set(listed) == set(expected)
    for name, tool in listed.items():
        assert tool.input_schema == expected[name], name
    assert listed["read"].annotations is not None
    assert listed["read"].annotations.read_only_hint is True
    assert listed["bash"].annotations is not None
    assert listed["bash"].annotations.read_only_hint is False

    assert not read.is_error
    assert "the answer is 42" in text_of(read)

    assert denied.is_error
    assert text_of(denied).startswith("[tool_error]\ncategory: policy_blocked\n")
    assert "rule 'rm *'" in text_of(denied)

    assert asked.is_error, "no elicitation capability: an ask is never approved"
    assert text_of(asked).startswith("[tool_error]\ncategory: confirmation_required\n")
    assert not (workspace / "approved.txt").exists()

    assert not noisy.is_error
    filtered = text_of(noisy)
    raw = (workspace / "app.log").read_text()
    assert "omitted" in filtered, "the filters folded the repeats"
    assert len(filtered) < len(raw) / 4
    assert filtered.count("\n") < NOISY_LINES / 4

    records = {r["command"]: r for r in audit_records(workspace) if r["kind"] == "tool_call"}
    assert records["notes.txt"]["tool"] == "read"
    assert records["notes.txt"]["result"]["type"] == "success"
    assert records["rm -rf /"]["decision"]["verdict"] == "deny"
    assert records["touch approved.txt"]["decision"]["verdict"] == "ask"
    assert "approved_by" not in records["touch approved.txt"]
    assert records["grep GET app.log"]["result"]["type"] == "success"
    assert {r["caller_id"] for r in records.values()} == {f"mcp:{CLIENT.name}"}


async def test_unknown_tool_and_bad_parameters_are_tool_errors(tmp_path: Path) -> None:
    async with stdio_session(make_workspace(tmp_path)) as session:
        unknown = await session.call_tool("no_such_tool", {})
        bad = await session.call_tool("read", {"path": 42, "extra": True})
    assert unknown.is_error and "category: tool_not_found" in text_of(unknown)
    assert bad.is_error and text_of(bad).startswith("[tool_error]\n")


def answering(*actions: str) -> Any:
    """An elicitation callback giving ``actions`` in turn; it records each question."""
    answers = list(actions)
    asked: list[str] = []

    async def elicit(ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action=answers.pop(0))  # type: ignore[arg-type]

    elicit.asked = asked  # type: ignore[attr-defined]
    return elicit


async def test_an_ask_is_elicited_when_the_client_can_answer(connect: Opener) -> None:
    workspace: Path = connect.workspace  # type: ignore[attr-defined]
    elicit = answering("decline", "cancel", "accept")
    command = {"command": "touch approved.txt"}
    async with connect(elicitation_callback=elicit) as session:
        declined = await session.call_tool("bash", command)
        cancelled = await session.call_tool("bash", command)
        assert not (workspace / "approved.txt").exists(), "a refusal runs nothing"
        allowed = await session.call_tool("bash", {"command": "echo no question"})
        accepted = await session.call_tool("bash", command)

    assert len(elicit.asked) == 3, "only the asks are put to the user"
    assert "touch approved.txt" in elicit.asked[0]
    assert "rule 'touch *'" in elicit.asked[0]
    assert not allowed.is_error
    for refused in (declined, cancelled):
        assert refused.is_error
        assert text_of(refused).startswith("[tool_error]\ncategory: cancelled\n")
    assert not accepted.is_error, text_of(accepted)
    assert (workspace / "approved.txt").exists()
    records = [r for r in audit_records(workspace) if r.get("command") == "touch approved.txt"]
    assert [r.get("approved_by") for r in records] == [None, None, "mcp-client"]
    assert [r["result"]["type"] for r in records][2] == "success"


async def test_a_reload_that_changes_the_tools_sends_list_changed(connect: Opener) -> None:
    workspace: Path = connect.workspace  # type: ignore[attr-defined]
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    async with connect(message_handler=on_message) as session:
        before = {t.name for t in (await session.list_tools()).tools}
        assert "delete_path" in before
        config = workspace / "tooldeck.toml"
        # a tool whose rules all deny is hidden: the served list changes
        config.write_text(config.read_text().replace(
            '[[tools.permissions.delete_path]]\npattern = "*"\naction = "ask"',
            '[[tools.permissions.delete_path]]\npattern = "*"\naction = "deny"'))
        with anyio.fail_after(10):
            await changed.wait()
        after = {t.name for t in (await session.list_tools()).tools}
    assert after == before - {"delete_path"}
    reloads = [r for r in audit_records(workspace) if r["kind"] == "policy.reloaded"]
    assert reloads, "the change came from a real hot reload"


def test_the_server_exits_promptly_when_the_client_goes(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path)
    with subprocess.Popen([TOOLDECK, *server_args(workspace)], cwd=workspace,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as proc:
        try:
            assert proc.stdin is not None and proc.stdout is not None
            # the answer to initialize says the server is up, its hot-reload watcher running;
            # only what follows the client's leaving is timed, not the start on a loaded machine
            proc.stdin.write(json.dumps(_INITIALIZE).encode() + b"\n")
            proc.stdin.flush()
            assert b'"id":1' in proc.stdout.readline()
            left = time.monotonic()
            proc.stdin.close()
            assert proc.wait(30) == 0, proc.stderr.read() if proc.stderr else ""
            # a watcher that waits out its 5 s poll holds the exit up by up to 5 s more
            assert time.monotonic() - left < 5, "the hot-reload watcher does not hold up shutdown"
        finally:
            if proc.poll() is None:
                proc.kill()


_INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "exit-test", "version": "1"}}}
