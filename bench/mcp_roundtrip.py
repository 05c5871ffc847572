"""MCP ``tools/call`` round trip for ``read`` over stdio, against a direct ``deck.call``.

The server is a real ``tooldeck mcp serve`` subprocess driven by the official ``mcp``
client; the direct path is a deck built in this process from the same configuration. Both
read the same small file through the whole pipeline (gates, filters, audit), so the
difference is what MCP adds: JSON-RPC framing, the pipe, the SDK's dispatch on both ends.

    python bench/mcp_roundtrip.py [--calls N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

from tooldeck.deck import Deck
from tooldeck.models import ToolCall

CONFIG = """
[tools.audit]
path = "audit.jsonl"

[[tools.permissions.read]]
pattern = "*"
action = "allow"
"""
TOOLDECK = shutil.which("tooldeck") or str(Path(sys.executable).with_name("tooldeck"))
ARGS = {"path": "notes.txt"}


async def over_mcp(root: Path, calls: int) -> list[float]:
    params = StdioServerParameters(
        command=TOOLDECK, args=["mcp", "serve", "--config", str(root / "tooldeck.toml")],
        cwd=root, env=dict(os.environ))
    times: list[float] = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for _ in range(50):  # warm up
            await session.call_tool("read", ARGS)
        for _ in range(calls):
            t0 = time.perf_counter()
            result = await session.call_tool("read", ARGS)
            times.append(time.perf_counter() - t0)
            assert not result.is_error
    return times


async def direct(root: Path, calls: int) -> list[float]:
    cwd = Path.cwd()
    os.chdir(root)  # the file sandbox is the current directory, as for the server
    try:
        deck = Deck.from_config(root / "tooldeck.toml")
        times: list[float] = []
        for _ in range(50):
            await deck.call(ToolCall("read", ARGS))
        for _ in range(calls):
            t0 = time.perf_counter()
            result = await deck.call(ToolCall("read", ARGS))
            times.append(time.perf_counter() - t0)
            assert result.ok
        await deck.aclose()
    finally:
        os.chdir(cwd)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "tooldeck.toml").write_text(CONFIG)
        (root / "notes.txt").write_text("".join(f"line {i}\n" for i in range(40)))
        mcp_times = asyncio.run(over_mcp(root, args.calls))
        deck_times = asyncio.run(direct(root, args.calls))
    mcp_ms = statistics.median(mcp_times) * 1000
    deck_ms = statistics.median(deck_times) * 1000
    print(f"read, {args.calls} calls, median per call")
    print(f"  direct deck.call        {deck_ms:8.3f} ms")
    print(f"  MCP tools/call (stdio)  {mcp_ms:8.3f} ms")
    print(f"  MCP adds                {mcp_ms - deck_ms:8.3f} ms  ({mcp_ms / deck_ms:.1f}x)")
    print(f"  MCP p95                 {statistics.quantiles(mcp_times, n=20)[-1] * 1000:8.3f} ms")


if __name__ == "__main__":
    main()
