"""Where a ``deck.call(bash ...)`` spends its CPU: each step of the pipeline, measured in place.

Every gate, output transform and audit sink of the runtime, and the core's steps around them,
is timed with this thread's CPU clock inside real calls (interleaved with raw spawns, as in
``bench/shell.py``, so caches are as cold as they are in use), and reported as the median
microseconds and as a ratio to the CPU a raw ``asyncio.create_subprocess_exec("bash", "-c",
...)`` costs this process, measured in the same rounds. CPU time, not wall time: on a loaded
machine wall time mostly measures waiting for a core.

The instrumentation wraps the entries of the runtime's hook facade (private tables of
:class:`tooldeck.runtime.Hooks`); it fails loudly if they change. The shell analysis that
the gates share (:mod:`tooldeck.call_memo`) is a phase of its own: it is made once per call,
inside whichever gate asks first, and would otherwise be charged to that gate. Each mark
reads the thread's CPU clock (a system call on some virtual machines): the marks' own cost
is measured and printed, and it is spread over the phases they bracket.

    python bench/call_phases.py [--calls N] [--command TEXT]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tooldeck.call_memo as call_memo
import tooldeck.deck as deck_module
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.runtime import Hooks

Marks = list[tuple[str, float]]


def _timed(marks: Marks, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        marks.append((f"{name}>", time.thread_time()))
        try:
            return function(*args, **kwargs)
        finally:
            marks.append((f"{name}<", time.thread_time()))

    return timed


def _instrument(deck: Deck, marks: Marks) -> None:
    hooks: Hooks = deck.runtime.hooks
    for table, label in (("_check", "gate"), ("_transform", "transform"), ("_audit", "sink"),
                         ("_wrap", "wrap"), ("_trust", "trust level")):
        impls = getattr(hooks, table)
        setattr(hooks, table, tuple(
            type(impl)(impl.plugin, _timed(marks, f"{label} {impl.plugin}", impl.function),
                       impl.argnames, impl.pick)
            for impl in impls))
    executor = deck.runtime.executors["shell"]
    run = executor.execute

    async def execute(*args: Any) -> Any:
        marks.append(("executor>", time.thread_time()))
        try:
            return await run(*args)
        finally:
            marks.append(("executor<", time.thread_time()))

    executor.execute = execute  # type: ignore[method-assign]
    deck_module.safe_call_event = _timed(  # type: ignore[assignment]
        marks, "audit record", deck_module.safe_call_event)
    # the command's one analysis, shared by the gates: counted apart from the gate that asks first
    call_memo.analyze = _timed(marks, "shell analysis", call_memo.analyze)  # type: ignore[assignment]


def _phases(marks: Marks) -> dict[str, float]:
    """CPU seconds per named phase; time between two phases goes to the core."""
    phases: dict[str, float] = {}
    stack: list[str] = []
    last, core = marks[0][1], "core: before the gates"
    for mark, at in marks[1:]:
        owner = stack[-1] if stack else core
        phases[owner] = phases.get(owner, 0.0) + at - last
        last = at
        if mark.endswith(">"):
            stack.append(mark[:-1])
        elif mark.endswith("<"):
            stack.pop()
            core = _CORE_AFTER.get(mark[:-1].split(" ")[0], core)
    return phases


_CORE_AFTER = {
    "gate": "core: after the gates, to the executor",
    "executor": "core: after the executor, to the audit record",
    "audit": "core: the audit record handed to the sinks, the result",
}


async def _spawn(command: str) -> float:
    start = time.thread_time()
    proc = await asyncio.create_subprocess_exec(
        "bash", "-c", command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    await proc.communicate()
    return time.thread_time() - start


async def measure(calls: int, command: str) -> tuple[float, dict[str, list[float]], int]:
    """Raw spawn CPU samples' median, each phase's CPU samples, and the marks per call."""
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        deck = Deck.from_config(parse_document(
            f'[tools.audit]\npath = "{Path(tmp) / "audit.jsonl"}"\n', None, "bench"))
        marks: Marks = []
        _instrument(deck, marks)
        raw: list[float] = []
        phases: dict[str, list[float]] = {}
        for round_ in range(calls // 10 + 2):
            for _ in range(10):
                spawn = await _spawn(command)
                marks.clear()
                marks.append(("start", time.thread_time()))
                result = await deck.call(ToolCall("bash", {"command": command}))
                marks.append(("end", time.thread_time()))
                assert result.ok, result.text
                if round_ < 2:  # warm-up rounds
                    continue
                raw.append(spawn)
                for name, spent in _phases(marks).items():
                    phases.setdefault(name, []).append(spent)
        await deck.aclose()
    return statistics.median(raw), phases, len(marks)


def _clock_cost() -> float:
    """Median seconds one read of this thread's CPU clock takes."""
    samples = []
    for _ in range(2000):
        start = time.perf_counter()
        time.thread_time()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    """Measure and print the phases, most expensive first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--command", default="true")
    args = parser.parse_args()
    raw, phases, marks = asyncio.run(measure(args.calls, args.command))
    total = statistics.median([sum(s) for s in zip(*phases.values(), strict=True)])
    print(f"deck.call(bash {args.command!r}): {total * 1e6:.0f} us of CPU per call "
          f"({total / raw:.2f} x a raw spawn's {raw * 1e6:.0f} us)")
    print(f"  the marks themselves: {marks} per call, "
          f"{_clock_cost() * 1e6:.2f} us each")
    executor = statistics.median(phases["executor"])
    print(f"  the pipeline without the executor: {(total - executor) * 1e6:.0f} us "
          f"({(total - executor) / raw:.2f} x a raw spawn)")
    for name, samples in sorted(phases.items(), key=lambda kv: -statistics.median(kv[1])):
        spent = statistics.median(samples)
        print(f"  {name:45s} {spent * 1e6:8.1f} us  {spent / raw:5.2f} x raw")


if __name__ == "__main__":
    main()
