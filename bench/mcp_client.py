"""The MCP client executor's round trip against a direct ``deck.call`` of ``read``.

Three paths through one deck, each the whole pipeline (gates, filters, audit):

- ``read`` run in process (the baseline);
- ``mcp_td__read``: the same read on a ``tooldeck mcp serve`` subprocess over stdio, through
  the client executor (the serving deck runs its own pipeline too);
- ``mcp_demo__echo``: a tiny tool of the test suite's ``MCPServer`` over stdio, i.e. the
  client path with next to nothing on the server side.

    python bench/mcp_client.py [--calls N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tooldeck.deck import Deck
from tooldeck.models import ToolCall

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "tests" / "mcp_client" / "demo_server.py"
TOOLDECK = shutil.which("tooldeck") or str(Path(sys.executable).with_name("tooldeck"))
SERVED = """
[tools.audit]
enabled = false

[[tools.permissions.read]]
pattern = "*"
action = "allow"
"""


def client_config(root: Path) -> str:
    served = root / "served.toml"
    served.write_text(SERVED)
    rules = "".join(f'[[tools.permissions.{t}]]\npattern = "*"\naction = "allow"\n'
                    for t in ("read", "mcp_td__read", "mcp_demo__echo"))
    return (f'[tools.audit]\npath = "audit.jsonl"\n{rules}'
            f'[[mcp.servers]]\nname = "td"\ncommand = {json.dumps(TOOLDECK)}\n'
            f'args = ["mcp", "serve", "--config", {json.dumps(str(served))}]\n'
            f'trust = "verified"\n'
            f'[[mcp.servers]]\nname = "demo"\ncommand = {json.dumps(sys.executable)}\n'
            f'args = [{json.dumps(str(DEMO))}]\ntrust = "verified"\n')


async def timed(deck: Deck, call: ToolCall, calls: int) -> list[float]:
    for _ in range(50):  # warm up
        assert (await deck.call(call)).ok
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        result = await deck.call(call)
        times.append(time.perf_counter() - t0)
        assert result.ok, result.text
    return times


async def run(root: Path, calls: int) -> dict[str, list[float]]:
    (root / "tooldeck.toml").write_text(client_config(root))
    (root / "notes.txt").write_text("".join(f"line {i}\n" for i in range(40)))
    cwd = Path.cwd()
    os.chdir(root)  # the file sandbox of both decks is the current directory
    try:
        deck = Deck.from_config(root / "tooldeck.toml")
        try:
            path = str(root / "notes.txt")
            return {
                "direct deck.call read": await timed(deck, ToolCall("read", {"path": path}),
                                                     calls),
                "mcp_td__read (tooldeck mcp serve)": await timed(
                    deck, ToolCall("mcp_td__read", {"path": path}), calls),
                "mcp_demo__echo (MCPServer)": await timed(
                    deck, ToolCall("mcp_demo__echo", {"text": "hi"}), calls),
            }
        finally:
            await deck.aclose()
    finally:
        os.chdir(cwd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = asyncio.run(run(Path(tmp), args.calls))
    print(f"{args.calls} calls each, median (p95) per call")
    for name, times in results.items():
        median = statistics.median(times) * 1000
        p95 = statistics.quantiles(times, n=20)[-1] * 1000
        print(f"  {name:36} {median:8.3f} ms  ({p95:.3f} ms)")


if __name__ == "__main__":
    main()
