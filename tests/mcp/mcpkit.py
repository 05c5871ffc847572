"""A workspace, a real ``tooldeck mcp serve`` process and official-SDK clients for the tests."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

TOOLDECK = shutil.which("tooldeck") or str(Path(sys.executable).with_name("tooldeck"))
CLIENT = types.Implementation(name="pytest-client", version="1.0")
TOKEN = "s3cret-token-for-tests"
NOISY_LINES = 300

CONFIG = """
[tools.audit]
path = "audit.jsonl"

[[tools.permissions.read]]
pattern = "*"
action = "allow"

[[tools.permissions.delete_path]]
pattern = "*"
action = "ask"

[[tools.permissions.bash]]
pattern = "rm *"
action = "deny"

[[tools.permissions.bash]]
pattern = "touch *"
action = "ask"

[[tools.permissions.bash]]
pattern = "*"
action = "allow"
"""


def make_workspace(root: Path) -> Path:
    """A directory with the config, a note to read and a noisy log the filters reduce."""
    (root / "tooldeck.toml").write_text(CONFIG)
    (root / "notes.txt").write_text("the answer is 42\n")
    (root / "app.log").write_text("".join(
        f"2024-05-01T10:00:{i % 60:02d}Z GET /health 200\n" for i in range(NOISY_LINES)))
    return root


def server_args(workspace: Path, *extra: str) -> list[str]:
    return ["mcp", "serve", "--config", str(workspace / "tooldeck.toml"), *extra]


def audit_records(workspace: Path) -> list[dict[str, Any]]:
    path = workspace / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def text_of(result: types.CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


@asynccontextmanager
async def stdio_session(workspace: Path, **kwargs: Any) -> AsyncIterator[ClientSession]:
    """The official client over stdio to ``tooldeck mcp serve`` in a subprocess."""
    params = StdioServerParameters(command=TOOLDECK, args=server_args(workspace),
                                   cwd=workspace, env=dict(os.environ))
    async with stdio_client(params) as (read, write), \
            ClientSession(read, write, client_info=CLIENT, **kwargs) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def http_session(url: str, token: str | None = TOKEN,
                       **kwargs: Any) -> AsyncIterator[ClientSession]:
    """The official client over streamable HTTP, sending the bearer token."""
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with create_mcp_http_client(headers=headers) as http, \
            streamable_http_client(url, http_client=http) as (read, write), \
            ClientSession(read, write, client_info=CLIENT, **kwargs) as session:
        await session.initialize()
        yield session


@contextmanager
def http_server(workspace: Path, token: str | None = TOKEN) -> Iterator[str]:
    """``tooldeck mcp serve --transport http --port 0`` on loopback; yields the URL it prints."""
    env = dict(os.environ)
    if token:
        env["TOOLDECK_MCP_TOKEN"] = token
    log = workspace / "server.stderr"
    with log.open("w") as errors:
        proc = subprocess.Popen(
            [TOOLDECK, *server_args(workspace, "--transport", "http", "--port", "0")],
            cwd=workspace, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        deadline = time.monotonic() + 60  # a start-up on a loaded 2-core machine, not a bound
        while not (found := re.search(r"serving (http://\S+)", log.read_text())):
            assert proc.poll() is None, f"server exited: {log.read_text()}"
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.05)
        yield found.group(1)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
