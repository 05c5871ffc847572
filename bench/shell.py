"""Benchmark: the shell tool's cost over a bare subprocess, and the analyzer per command.

1. Median ``deck.call(bash "true")`` (gates, analyzer, sandbox, env scrubbing, process
   session, capture, audit write) divided by the median raw
   ``asyncio.create_subprocess_exec("bash", "-c", "true")`` + ``communicate()``, in the same
   process and event loop, interleaved in rounds of ten (target <= 1.25); the executor alone
   is timed too, to show where the difference goes.
2. Median microseconds of the shell gate's analysis (``analyze`` + ``find_blocked``) over the
   1,000-command corpus of ``bench/shell_analyzer.py`` (target <= 100 us).

    python bench/shell.py [--calls N] [--count N]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import statistics
import tempfile
import time
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

import tooldeck.plugins.shell as shell_plugin
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import Decision, ToolCall, Verdict
from tooldeck.runtime import CallContext
from tooldeck.shell_analysis import DEFAULT_BLOCKED, analyze, find_blocked


def _corpus_module() -> ModuleType:
    path = Path(__file__).with_name("shell_analyzer.py")
    spec = importlib.util.spec_from_file_location("bench_shell_analyzer", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def _raw(calls: int) -> list[float]:
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            "bash", "-c", "true", stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        await proc.communicate()
        samples.append(time.perf_counter() - start)
    return samples


async def _deck(deck: Deck, calls: int) -> list[float]:
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        result = await deck.call(ToolCall("bash", {"command": "true"}))
        samples.append(time.perf_counter() - start)
        assert result.ok, result.text
    return samples


async def _executor(deck: Deck, calls: int) -> list[float]:
    runtime = deck.runtime
    tool = runtime.tools["bash"]
    params = tool.params.model_validate({"command": "true"})
    call = ToolCall("bash", params.model_dump())
    ctx = CallContext(tool=tool, params=params, runtime=runtime,
                      decision=Decision(Verdict.ALLOW, "bench"))
    executor = runtime.executors[tool.executor]
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        await executor.execute(call, ctx)
        samples.append(time.perf_counter() - start)
    return samples


async def overhead(calls: int) -> tuple[float, float, float]:
    """Median seconds of a raw spawn, the executor alone and a deck call, in rounds."""
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        config = f'[tools.audit]\npath = "{Path(tmp) / "audit.jsonl"}"\n'
        installed = any(ep.name == "shell" for ep in metadata.entry_points(group="tooldeck"))
        extra: dict[str, Any] = {} if installed else {"shell": shell_plugin}
        deck = Deck.from_config(parse_document(config, None, "bench"), extra_plugins=extra)
        await _raw(20)
        await _deck(deck, 20)
        raw: list[float] = []
        alone: list[float] = []
        full: list[float] = []
        for _ in range(calls // 10):
            raw += await _raw(10)
            alone += await _executor(deck, 10)
            full += await _deck(deck, 10)
        await deck.aclose()
    return statistics.median(raw), statistics.median(alone), statistics.median(full)


def analyzer(count: int) -> float:
    """Median microseconds of analyze + find_blocked over the corpus (best of 3 each)."""
    commands = _corpus_module().corpus(count, 7)
    for command in commands:
        find_blocked(analyze(command), DEFAULT_BLOCKED)
    samples = []
    for command in commands:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter_ns()
            find_blocked(analyze(command), DEFAULT_BLOCKED)
            best = min(best, (time.perf_counter_ns() - start) / 1000)
        samples.append(best)
    return statistics.median(samples)


def main() -> None:
    """Run both measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--count", type=int, default=1000)
    args = parser.parse_args()
    raw, alone, full = asyncio.run(overhead(args.calls))
    print(f"raw bash -c true: {raw * 1000:.2f} ms  deck.call(bash true): {full * 1000:.2f} ms  "
          f"ratio: {full / raw:.2f} (target <= 1.25)")
    print(f"  of which the shell executor alone: {alone * 1000:.2f} ms "
          f"(ratio {alone / raw:.2f}); gates, validation and audit: "
          f"{(full - alone) * 1000:.2f} ms")
    print(f"analyzer: {args.count} commands, median {analyzer(args.count):.1f} us "
          "(target <= 100 us)")


if __name__ == "__main__":
    main()
