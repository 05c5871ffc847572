"""A real MCP server over streamable HTTP on 127.0.0.1, and header values from the environment."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tooldeck.models import ToolCall

from .kit import SERVER, allow, audit, make_deck


@pytest.fixture
def http_url(tmp_path: Path) -> Iterator[str]:
    port_file = tmp_path / "port"
    proc = subprocess.Popen([sys.executable, str(SERVER), "--http", str(port_file)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not port_file.exists() or not port_file.read_text():
            assert proc.poll() is None, "the demo server exited"
            assert time.monotonic() < deadline, "the demo server did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port_file.read_text()}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def test_tools_of_an_http_server_run_through_the_deck(
        http_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEMO_TOKEN", "t0ken")
    deck = make_deck(f'[[mcp.servers]]\nname = "web"\nurl = "{http_url}"\ntrust = "verified"\n'
                     'headers_from_env = { "X-Api-Key" = "DEMO_TOKEN" }\n'
                     + allow("mcp_web__echo") + allow("mcp_web__api_key"), tmp_path)
    try:
        echo = next(t for t in deck.tools() if t.id == "mcp_web__echo")
        assert "network" in echo.capabilities
        result = await deck.call(ToolCall("mcp_web__echo", {"text": "over http"}))
        assert result.text == "over http"
        (record,) = audit(tmp_path, "tool_call")
        assert record["mcp_server_id"] == "web"
        sent = await deck.call(ToolCall("mcp_web__api_key", {}))
        assert sent.text == "t0ken"  # the value came from the environment, not the TOML
    finally:
        await deck.aclose()


async def test_a_missing_header_variable_keeps_the_server_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_SUCH_TOKEN", raising=False)
    deck = make_deck('[[mcp.servers]]\nname = "web"\nurl = "http://127.0.0.1:9/mcp"\n'
                     'headers_from_env = { Authorization = "NO_SUCH_TOKEN" }\n', tmp_path)
    try:
        warning = next(w for w in deck.runtime.warnings if "'web' did not start" in w)
        assert "header 'Authorization' needs $NO_SUCH_TOKEN, which is not set" in warning
    finally:
        await deck.aclose()
