"""Result cache: the cost of a hit against a miss, for ``read`` of a 200-line file.

    python bench/result_cache.py [--n 20000]

Prints microseconds per call (median of 5 rounds) for:

- ``hit (cache work)``: the ``tooldeck_wrap_executor`` hook (key: canonical JSON of the
  parameters) plus the cached executor's ``execute`` on a hit (lookup, TTL, re-stat of the
  read paths) — what the cache adds to a call it serves;
- ``miss (executor)``: the file executor running the same ``read``;
- ``deck.call hit`` / ``deck.call, cache off``: the whole pipeline (gates, audit, output
  transforms) with the cache serving, and with ``[tools.result_cache] enabled = false``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from tooldeck.config import embedded_default_text, parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.plugins import result_cache
from tooldeck.runtime import CallContext


def deck_for(root: Path, enabled: bool) -> Deck:
    text = (f'{embedded_default_text()}\n[tools.audit]\nenabled = false\n'
            f'[tools.overflow]\npath = "{root.parent / "o.sqlite3"}"\n'
            f"[tools.result_cache]\nenabled = {str(enabled).lower()}\n")
    return Deck.from_config(parse_document(text, None, "bench"), environ={})


async def per_call_us(n: int, once: Callable[[], Awaitable[object]]) -> float:
    rounds = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(n):
            await once()
        rounds.append((time.perf_counter() - started) / n * 1e6)
    return statistics.median(rounds)


async def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        os.chdir(root)
        (root / "f.txt").write_text("".join(f"line {i} of the file\n" for i in range(200)))
        time.sleep(0.2)  # out of the racy window
        deck, plain = deck_for(root, True), deck_for(root, False)
        call = ToolCall("read", {"path": "f.txt"})
        runtime = deck.runtime
        tool = runtime.tools["read"]
        model = tool.params.model_validate(call.params)
        call = ToolCall("read", model.model_dump())
        inner = runtime.executors["files"]
        ctx = CallContext(tool=tool, params=model, runtime=runtime,
                          decision=None)  # type: ignore[arg-type]
        first = await deck.call(call)
        assert first.output is not None and first.output.cache == "miss", first

        async def hit() -> object:
            wrapped = result_cache.tooldeck_wrap_executor(inner, call, tool, runtime)
            assert wrapped is not None
            output = await wrapped.execute(call, ctx)
            assert output.cache == "hit"
            return output

        async def miss() -> object:
            return await inner.execute(call, ctx)

        hit_us = await per_call_us(n, hit)
        miss_us = await per_call_us(n, miss)
        deck_hit = await per_call_us(n // 4, lambda: deck.call(call))
        deck_off = await per_call_us(n // 4, lambda: plain.call(call))
        await deck.aclose()
        await plain.aclose()
    print(f"hit (cache work)      {hit_us:8.2f} µs")
    print(f"miss (executor)       {miss_us:8.2f} µs   hit/miss = {hit_us / miss_us:.3f}")
    print(f"deck.call hit         {deck_hit:8.2f} µs")
    print(f"deck.call, cache off  {deck_off:8.2f} µs   ratio = {deck_hit / deck_off:.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=20_000)
    asyncio.run(main(parser.parse_args().n))
