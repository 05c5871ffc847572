"""Latency from an atomic-rename save of a policy change to the first call it decides.

A deck watches its config directory with the real watcher. Each round flips one permission
rule (allow ↔ deny), saves it the way editors do (write a temporary file, rename it over
the original), then calls the tool in a tight loop until a call is decided by the new rule.
allow → deny is a tightening: the reload rule applies it at once (target p95 ≤ 100 ms).
deny → allow is a loosening: it waits until the file is stable for the settle interval
(``tooldeck.deck.SETTLE_S``), so its latency is about the settle plus the watcher's debounce.

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

from tooldeck.deck import SETTLE_S, Deck
from tooldeck.models import ToolCall


def policy(action: str, audit: Path) -> str:
    return (f'[tools.audit]\npath = "{audit}"\n'
            f'[[tools.permissions.echo]]\npattern = "*"\naction = "{action}"\n')


async def measure(saves: int, tmp: Path) -> tuple[list[float], list[float]]:
    config = tmp / "tooldeck.toml"
    audit = tmp / "audit.jsonl"
    config.write_text(policy("allow", audit))
    deck = Deck.from_config(config, extra_plugins={"echo": EchoPlugin()})
    watcher = asyncio.create_task(deck.watch())
    await asyncio.sleep(0.5)
    call = ToolCall("echo", {"text": "hi"})
    tighten: list[float] = []
    loosen: list[float] = []
    allowed = True
    for _ in range(2 * saves):
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
        (loosen if allowed else tighten).append(time.perf_counter() - t0)
        await asyncio.sleep(0.05)
    watcher.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await watcher
    await deck.aclose()
    return tighten, loosen


def report(name: str, latencies: list[float], target: str = "") -> None:
    lat = sorted(latencies)
    p95 = lat[min(len(lat) - 1, round(0.95 * len(lat)) - 1)]
    print(f"{name}: {len(lat)} saves")
    print(f"  p50:  {statistics.median(lat) * 1000:6.1f} ms")
    print(f"  p95:  {p95 * 1000:6.1f} ms{target}")
    print(f"  max:  {lat[-1] * 1000:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=50, help="saves of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tighten, loosen = asyncio.run(measure(args.saves, Path(tmp)))
    report("tightening (allow -> deny, applied at once)", tighten, "   (target ≤ 100 ms)")
    report(f"loosening (deny -> allow, waits for the {SETTLE_S * 1000:.0f} ms settle)", loosen)


if __name__ == "__main__":
    main()
