"""Streamable HTTP: loopback by default, a bearer token required anywhere else and when set."""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp import types

from tooldeck.plugins.mcp_server.http import (
    BearerAuth,
    UnsafeBind,
    check_bind,
    is_loopback,
    rebinding_guard,
)

from .mcpkit import (
    TOKEN,
    TOOLDECK,
    audit_records,
    http_server,
    http_session,
    make_workspace,
    server_args,
)

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "0"}}}
ACCEPT = {"Accept": "application/json, text/event-stream"}


def test_requests_without_the_token_get_401(tmp_path: Path) -> None:
    with http_server(make_workspace(tmp_path)) as url:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
                        {"Authorization": f"Basic {TOKEN}"},
                        {"Authorization": f"Bearer {TOKEN}x"}):
            response = httpx.post(url, json=INIT, headers={**ACCEPT, **headers})
            assert response.status_code == 401, headers
            assert response.headers["www-authenticate"].startswith("Bearer")
        assert httpx.get(url, headers=ACCEPT).status_code == 401
        ok = httpx.post(url, json=INIT, headers={**ACCEPT, "Authorization": f"Bearer {TOKEN}"})
        assert ok.status_code == 200


async def test_the_official_client_without_the_token_is_refused(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path)
    # the SDK wraps the 401 in its own error
    with http_server(workspace) as url, pytest.raises(Exception) as caught:
        async with http_session(url, token=None) as session:
            await session.call_tool("read", {"path": "notes.txt"})
    assert "MCPError" in repr(caught.value)
    assert audit_records(workspace) == [], "nothing ran"


async def test_loopback_serves_without_a_token(tmp_path: Path) -> None:
    with http_server(make_workspace(tmp_path), token=None) as url:
        port = url.split(":")[2].split("/")[0]
        rebound = httpx.post(url, json=INIT, headers={**ACCEPT, "Host": f"evil.example:{port}"})
        assert rebound.status_code == 421, "a name that resolves to loopback is refused"
        foreign = httpx.post(url, json=INIT, headers={**ACCEPT, "Origin": "http://evil.example"})
        assert foreign.status_code == 403, "a web page on another origin is refused"
        async with http_session(url, token=None) as session:
            names = {t.name for t in (await session.list_tools()).tools}
            result = await session.call_tool("read", {"path": "notes.txt"})
    assert {"read", "bash"} <= names
    assert isinstance(result.content[0], types.TextContent)
    assert "the answer is 42" in result.content[0].text


def test_a_busy_port_is_a_plain_error(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = subprocess.run(
            [TOOLDECK, *server_args(workspace, "--transport", "http", "--port", str(port))],
            cwd=workspace, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert f"cannot serve on 127.0.0.1:{port}" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_command_refuses_a_wildcard_bind_without_a_token(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "TOOLDECK_MCP_TOKEN"}
    proc = subprocess.run(
        [TOOLDECK, *server_args(workspace, "--transport", "http", "--host", "0.0.0.0")],
        cwd=workspace, env=env, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert "without a bearer token" in proc.stderr


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "example.com",
                                  "127.0.0.1.nip.io", "localhost.evil.example", ""])
def test_off_loopback_needs_a_token(host: str) -> None:
    with pytest.raises(UnsafeBind):
        check_bind(host, None)
    with pytest.raises(UnsafeBind):
        check_bind(host, "")
    check_bind(host, "a-token")


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost",
                                  "LOCALHOST"])
def test_loopback_hosts_need_no_token(host: str) -> None:
    assert is_loopback(host)
    check_bind(host, None)


@pytest.mark.parametrize(("host", "allowed"), [
    ("127.0.0.1", "127.0.0.1:*"), ("127.8.9.10", "127.8.9.10:*"), ("::1", "[::1]:*"),
    ("localhost", "localhost:*"),
])
def test_every_loopback_bind_gets_the_rebinding_guard(host: str, allowed: str) -> None:
    guard = rebinding_guard(host)
    assert guard is not None and guard.enable_dns_rebinding_protection
    assert set(guard.allowed_hosts) == {"127.0.0.1:*", "localhost:*", "[::1]:*", allowed}
    assert set(guard.allowed_origins) == {f"http://{h}" for h in guard.allowed_hosts}
    assert rebinding_guard("0.0.0.0") is None


@given(st.ip_addresses())
def test_only_loopback_addresses_count_as_loopback(address: Any) -> None:
    assert is_loopback(str(address)) == address.is_loopback


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=40))
def test_names_other_than_localhost_never_count_as_loopback(name: str) -> None:
    try:
        literal = ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        literal = False
    assert is_loopback(name) == (literal or name.lower() == "localhost")


def _call_through(headers: list[tuple[bytes, bytes]],
                  kind: str = "http") -> tuple[bool, list[dict[str, Any]]]:
    """Send one request through ``BearerAuth`` to a probe app; did it reach it, what was sent."""
    reached: list[bool] = []
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: Any) -> None:
        sent.append(dict(message))

    asyncio.run(BearerAuth(app, TOKEN)(
        {"type": kind, "headers": headers, "path": "/mcp", "method": "POST"}, receive, send))
    return bool(reached), sent


@given(st.lists(st.tuples(st.sampled_from([b"authorization", b"Authorization", b"x-token"]),
                          st.binary(max_size=60)), max_size=3))
def test_bearer_auth_passes_only_the_exact_token(headers: list[tuple[bytes, bytes]]) -> None:
    reached, sent = _call_through(headers)
    values = [v for k, v in headers if k.lower() == b"authorization"]
    good = (len(values) == 1 and values[0].partition(b" ")[0].lower() == b"bearer"
            and values[0].partition(b" ")[2] == TOKEN.encode())
    assert reached == good
    if not good:
        assert sent[0]["status"] == 401


def test_bearer_auth_edge_cases() -> None:
    good = (b"authorization", f"Bearer {TOKEN}".encode())
    assert _call_through([good])[0]
    assert _call_through([(b"authorization", f"bearer {TOKEN}".encode())])[0]
    assert not _call_through([good, good])[0], "two Authorization headers are refused"
    assert not _call_through([(b"authorization", b"Bearer ")])[0]
    assert not _call_through([(b"authorization", f"Bearer  {TOKEN}".encode())])[0]
    reached, sent = _call_through([], kind="websocket")
    assert not reached and sent == [{"type": "websocket.close", "code": 1008}]
    assert _call_through([], kind="lifespan")[0]
    with pytest.raises(ValueError, match="empty"):
        BearerAuth(_call_through, "")  # type: ignore[arg-type]
