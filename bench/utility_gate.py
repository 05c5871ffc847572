"""Added cost of the utility gate on a ``deck.call`` made inside a user turn.

Two decks in the same process and event loop, with the same trivial tool and policy: one
with ``[tools.utility]`` off, one with it on (the tool listed in ``high_gain_tools`` so every
call is scored and runs). Calls alternate between the two, each with new parameters, ten to
a turn. The difference is the gate's work: scoring, remembering the call, and one
``utility.verdict`` audit line.

    python bench/utility_gate.py [--calls N]
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
from tooldeck.turns import TurnContext

CALLS_PER_TURN = 10


class EchoParams(pydantic.BaseModel):
    text: str


class EchoPlugin:
    name = "echo"

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        return ToolOutput("echo", call.params["text"])

    @hookimpl
    def tooldeck_register_executors(self, register):  # type: ignore[no-untyped-def]
        register(self)

    @hookimpl
    def tooldeck_register_tools(self, register):  # type: ignore[no-untyped-def]
        register(ToolDef(id="echo", description="echo", params=EchoParams, executor="echo",
                         input_param="text"))


def deck(tmp: Path, name: str, utility: str) -> Deck:
    doc = parse_document(
        f'[tools.audit]\npath = "{tmp / name}.jsonl"\n[[tools.permissions.echo]]\n'
        f'pattern = "*"\naction = "allow"\n{utility}', None, "bench")
    return Deck.from_config(doc, extra_plugins={"echo": EchoPlugin()})


async def measure(calls: int, tmp: Path) -> tuple[float, float]:
    off = deck(tmp, "off", "")
    on = deck(tmp, "on", '[tools.utility]\nenabled = true\nhigh_gain_tools = ["echo"]\n')
    timings: dict[str, list[float]] = {"off": [], "on": []}
    turns = {"off": TurnContext("go"), "on": TurnContext("go")}
    for n in range(calls + 200):  # the first 200 warm both paths up
        if n % CALLS_PER_TURN == 0:
            turns = {"off": TurnContext("go"), "on": TurnContext("go")}
        for name, target in (("off", off), ("on", on)):
            call = ToolCall("echo", {"text": f"hi {n}"})
            with target.turn(turns[name]):
                start = time.perf_counter()
                result = await target.call(call)
                elapsed = time.perf_counter() - start
            assert result.ok, result.text
            if n >= 200:
                timings[name].append(elapsed)
    await off.aclose()
    await on.aclose()
    return statistics.median(timings["off"]), statistics.median(timings["on"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        off, on = asyncio.run(measure(args.calls, Path(tmp)))
    print(f"calls:                  {args.calls} per deck, {CALLS_PER_TURN} per turn")
    print(f"deck.call, gate off:    {off * 1e6:8.1f} µs (median)")
    print(f"deck.call, gate on:     {on * 1e6:8.1f} µs (median)")
    print(f"added by the gate:      {(on - off) * 1e6:8.1f} µs")
    print(f"ratio on/off:           {on / off:8.2f}x")


if __name__ == "__main__":
    main()
