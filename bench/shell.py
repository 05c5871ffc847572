"""Benchmark: the shell tool's cost over a bare subprocess, and the analyzer per command.

1. Median ``deck.call(bash "true")`` (gates, analyzer, sandbox, env scrubbing, process
   session, capture, audit write) divided by the median raw
   ``asyncio.create_subprocess_exec("bash", "-c", "true")`` + ``communicate()``, in the same
   process and event loop, interleaved in rounds of ten (target <= 1.10, issue #12); the
   executor alone is timed too, to show where the difference goes. The CPU time of this
   thread is measured for the same calls: on a loaded machine the wall-clock ratio mostly
   measures waiting for a core, the CPU time what the pipeline itself costs.
2. Median microseconds of the shell gate's analysis (``analyze`` + ``find_blocked``) over the
   1,000-command corpus of ``bench/shell_analyzer.py`` (target <= 60 us, issue #12).

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
from collections.abc import Awaitable, Callable
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


Samples = tuple[list[float], list[float]]
"""Wall-clock seconds and this thread's CPU seconds, one of each per call."""


async def _timed(run: Callable[[], Awaitable[object]], calls: int) -> Samples:
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(calls):
        start, start_cpu = time.perf_counter(), time.thread_time()
        await run()
        wall.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
    return wall, cpu


async def _spawn() -> None:
    proc = await asyncio.create_subprocess_exec(
        "bash", "-c", "true", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    await proc.communicate()


async def _raw(calls: int) -> Samples:
    return await _timed(_spawn, calls)


async def _deck(deck: Deck, calls: int) -> Samples:
    async def one() -> None:
        result = await deck.call(ToolCall("bash", {"command": "true"}))
        assert result.ok, result.text

    return await _timed(one, calls)


async def _executor(deck: Deck, calls: int) -> Samples:
    runtime = deck.runtime
    tool = runtime.tools["bash"]
    params = tool.params.model_validate({"command": "true"})
    call = ToolCall("bash", params.model_dump())
    ctx = CallContext(tool=tool, params=params, runtime=runtime,
                      decision=Decision(Verdict.ALLOW, "bench"))
    executor = runtime.executors[tool.executor]
    return await _timed(lambda: executor.execute(call, ctx), calls)


def _extend(into: Samples, more: Samples) -> None:
    into[0].extend(more[0])
    into[1].extend(more[1])


async def overhead(calls: int) -> tuple[Samples, Samples, Samples]:
    """Wall and CPU samples of a raw spawn, the executor alone and a deck call, in rounds."""
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        config = f'[tools.audit]\npath = "{Path(tmp) / "audit.jsonl"}"\n'
        installed = any(ep.name == "shell" for ep in metadata.entry_points(group="tooldeck"))
        extra: dict[str, Any] = {} if installed else {"shell": shell_plugin}
        deck = Deck.from_config(parse_document(config, None, "bench"), extra_plugins=extra)
        await _raw(20)
        await _deck(deck, 20)
        raw: Samples = ([], [])
        alone: Samples = ([], [])
        full: Samples = ([], [])
        for _ in range(calls // 10):
            _extend(raw, await _raw(10))
            _extend(alone, await _executor(deck, 10))
            _extend(full, await _deck(deck, 10))
        await deck.aclose()
    return raw, alone, full


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
    samples = asyncio.run(overhead(args.calls))
    (raw, alone, full), (raw_cpu, alone_cpu, full_cpu) = (
        tuple(statistics.median(s[0]) for s in samples),
        tuple(statistics.median(s[1]) for s in samples))
    print(f"raw bash -c true: {raw * 1000:.2f} ms  deck.call(bash true): {full * 1000:.2f} ms  "
          f"ratio: {full / raw:.2f} (target <= 1.10)")
    print(f"  of which the shell executor alone: {alone * 1000:.2f} ms "
          f"(ratio {alone / raw:.2f}); gates, validation and audit: "
          f"{(full - alone) * 1000:.2f} ms")
    print(f"  CPU time of this thread: raw {raw_cpu * 1000:.2f} ms, executor alone "
          f"{alone_cpu * 1000:.2f} ms, deck.call {full_cpu * 1000:.2f} ms (ratio to raw "
          f"{full_cpu / raw_cpu:.2f}); the pipeline's own: {(full_cpu - alone_cpu) * 1000:.2f} ms")
    print(f"analyzer: {args.count} commands, median {analyzer(args.count):.1f} us "
          "(target <= 60 us)")


if __name__ == "__main__":
    main()
