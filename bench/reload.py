"""Latency from an atomic-rename save of a policy change to the first call it decides.

A deck watches its config directory with the real watcher. Each round flips one permission
rule (allow ↔ deny), saves it the way editors do (write a temporary file, rename it over
the original), then calls the tool in a tight loop until a call is decided by the new rule.

    python bench/reload.py [--saves N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import tempfile
import time
from pathlib import Path

from overhead import EchoPlugin  # type: ignore[import-not-found]

from tooldeck.deck import Deck
from tooldeck.models import ToolCall


def policy(action: str, audit: Path) -> str:
    return (f'[tools.audit]\npath = "{audit}"\n'
            f'[[tools.permissions.echo]]\npattern = "*"\naction = "{action}"\n')


async def measure(saves: int, tmp: Path) -> list[float]:
    config = tmp / "tooldeck.toml"
    audit = tmp / "audit.jsonl"
    config.write_text(policy("allow", audit))
    deck = Deck.from_config(config, extra_plugins={"echo": EchoPlugin()})
    watcher = asyncio.create_task(deck.watch())
    await asyncio.sleep(0.5)
    call = ToolCall("echo", {"text": "hi"})
    latencies: list[float] = []
    allowed = True
    for _ in range(saves):
        allowed = not allowed
        staged = tmp / ".tooldeck.toml.tmp"
        staged.write_text(policy("allow" if allowed else "deny", audit))
        t0 = time.perf_counter()
        os.replace(staged, config)
        while True:
            result = await deck.call(call)
            if result.ok == allowed:
                break
            await asyncio.sleep(0.001)
            if time.perf_counter() - t0 > 10:
                raise SystemExit("a reload did not arrive within 10 s")
        latencies.append(time.perf_counter() - t0)
        await asyncio.sleep(0.05)
    watcher.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await watcher
    await deck.aclose()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lat = sorted(asyncio.run(measure(args.saves, Path(tmp))))
    p95 = lat[min(len(lat) - 1, round(0.95 * len(lat)) - 1)]
    print(f"saves:  {len(lat)}")
    print(f"p50:    {statistics.median(lat) * 1000:6.1f} ms")
    print(f"p95:    {p95 * 1000:6.1f} ms   (target ≤ 100 ms)")
    print(f"max:    {lat[-1] * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
