"""One fleet worker for the tests: a real deck in its own process, driven by JSON lines.

Run as ``python worker.py CONFIG``. It builds a deck from CONFIG (with an ``echo`` tool that
answers its ``command``), prints ``{"ready": pid}``, then answers one JSON line per command
read from stdin:

==================================  ========================================================
command                             answer
==================================  ========================================================
``{"op": "calls", "n", "caller"}``  make n calls at once; ``{"outcomes": {category: count}}``
``{"op": "block", "caller"}``       set the caller's trust to blocked; ``{"before": t}``,
                                    the wall-clock time just before the write
``{"op": "until_blocked", …}``      call as ``caller`` until a call is denied for trust;
                                    ``{"calling": true}`` after the first call went through,
                                    then ``{"at": t, "calls": k}`` (``at``: when denied)
``{"op": "echo", "text", …}``       one call; ``{"ok", "text", "overflow_id"}``
``{"op": "read", "id", "caller"}``  ``read_overflow``; ``{"ok", "text"}``
``{"op": "stream", "n"}``           n calls one after the other, a ``{"returned": call_id}``
                                    line as each call returns, then ``{"done": n}``
``{"op": "quit"}``                  close the deck and exit
==================================  ========================================================
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.plugins.trust_gate.api import set_trust
from tooldeck.runtime import CallContext
from tooldeck.trust_state import Subject


class EchoParams(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")

    command: str


class EchoExecutor:
    name = "echo"

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        return ToolOutput(tool_name="echo", summary=str(call.params["command"]))


class EchoPlugin:
    @hookimpl
    def tooldeck_register_tools(self, register: Callable[[ToolDef], None]) -> None:
        register(ToolDef(id="echo", description="answer the command", params=EchoParams,
                         executor="echo", input_param="command"))

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[[object], None]) -> None:
        register(EchoExecutor())


def say(answer: dict[str, Any]) -> None:
    print(json.dumps(answer), flush=True)


def category(result: Any) -> str:
    return "ok" if result.error is None else result.error.category.value


async def serve(deck: Deck) -> None:
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        cmd = json.loads(line)
        op = cmd["op"]
        if op == "quit":
            return
        if op == "calls":
            results = await asyncio.gather(*(
                deck.call(ToolCall("echo", {"command": f"call {i}"}, caller_id=cmd["caller"]))
                for i in range(cmd["n"])))
            say({"outcomes": dict(collections.Counter(category(r) for r in results))})
        elif op == "block":
            before = time.time()
            set_trust(deck, Subject.caller(cmd["caller"]), "blocked", by="worker")
            say({"before": before})
        elif op == "until_blocked":
            calls, deadline = 0, time.monotonic() + cmd.get("timeout", 20)
            while time.monotonic() < deadline:
                result = await deck.call(ToolCall("echo", {"command": "x"},
                                                  caller_id=cmd["caller"]))
                calls += 1
                if calls == 1 and result.ok:
                    say({"calling": True})
                if result.error is not None and "trust=blocked" in result.error.message:
                    say({"at": time.time(), "calls": calls})
                    break
                if result.error is not None:
                    say({"unexpected": result.error.message})
                    break
                await asyncio.sleep(0.01)
            else:
                say({"timeout": calls})
        elif op == "echo":
            result = await deck.call(ToolCall("echo", {"command": cmd["text"]},
                                              caller_id=cmd.get("caller")))
            raw = (result.output.raw_response or {}) if result.output is not None else {}
            say({"ok": result.ok, "text": result.text, "overflow_id": raw.get("overflow_id")})
        elif op == "read":
            result = await deck.call(ToolCall("read_overflow", {"id": cmd["id"]},
                                              caller_id=cmd.get("caller")))
            say({"ok": result.ok, "text": result.text})
        elif op == "stream":
            for i in range(cmd["n"]):
                result = await deck.call(ToolCall("echo", {"command": f"stream {i}"},
                                                  caller_id="stream"))
                say({"returned": result.call.call_id, "ok": result.ok})
            say({"done": cmd["n"]})


def main() -> None:
    deck = Deck.from_config(Path(sys.argv[1]), extra_plugins={"echo": EchoPlugin()})
    say({"ready": os.getpid(), "storage": deck.runtime.storage.name})
    try:
        asyncio.run(serve(deck))
    finally:
        deck.close()


if __name__ == "__main__":
    main()
