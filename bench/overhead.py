"""Added cost of a full ``deck.call`` over calling the executor directly.

A trivial tool is registered as a plugin; both paths run in the same process and event loop.
The deck path includes TAFC stripping, parameter validation, every gate (the built-in
permissions gate with one rule), routing through pluggy, and the JSONL audit write.

    python bench/overhead.py [--calls N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import pydantic

from tooldeck import hookimpl
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext


class EchoParams(pydantic.BaseModel):
    text: str


class EchoExecutor:
    name = "echo"

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        return ToolOutput("echo", call.params["text"])


class EchoPlugin:
    def __init__(self) -> None:
        self.executor = EchoExecutor()

    @hookimpl
    def tooldeck_register_executors(self, register):  # type: ignore[no-untyped-def]
        register(self.executor)

    @hookimpl
    def tooldeck_register_tools(self, register):  # type: ignore[no-untyped-def]
        register(ToolDef(id="echo", description="echo", params=EchoParams, executor="echo",
                         input_param="text"))


async def measure(calls: int, audit: Path) -> tuple[float, float]:
    plugin = EchoPlugin()
    doc = parse_document(
        f'[tools.audit]\npath = "{audit}"\n[[tools.permissions.echo]]\n'
        'pattern = "*"\naction = "allow"\n', None, "bench")
    deck = Deck.from_config(doc, extra_plugins={"echo": plugin})
    runtime = deck.runtime
    tool = runtime.tools["echo"]
    ctx = CallContext(tool=tool, params=EchoParams(text="hi"), runtime=runtime,
                      decision=None)  # type: ignore[arg-type]
    call = ToolCall("echo", {"text": "hi"})
    direct: list[float] = []
    full: list[float] = []
    for _ in range(200):  # warm up both paths
        await plugin.executor.execute(call, ctx)
        await deck.call(call)
    for _ in range(calls):
        t0 = time.perf_counter()
        await plugin.executor.execute(call, ctx)
        t1 = time.perf_counter()
        result = await deck.call(call)
        t2 = time.perf_counter()
        assert result.ok
        direct.append(t1 - t0)
        full.append(t2 - t1)
    await deck.aclose()
    return statistics.median(direct), statistics.median(full)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        direct, full = asyncio.run(measure(args.calls, Path(tmp) / "audit.jsonl"))
    added = (full - direct) * 1e6
    print(f"calls:                 {args.calls}")
    print(f"executor direct:       {direct * 1e6:8.1f} µs (median)")
    print(f"deck.call (full):      {full * 1e6:8.1f} µs (median)")
    print(f"added by the pipeline: {added:8.1f} µs  (target ≤ 150 µs)")
    print(f"ratio full/direct:     {full / direct:8.1f}x")


if __name__ == "__main__":
    main()
