"""Long stress runs, one section per subcommand; each prints its counts and exits 1 on a failure.

    python bench/stress.py reload [--seconds 60] [--min-decisions 10000]
    python bench/stress.py fuzz [--seconds 600] [--seed 0]

Sections register themselves in ``SECTIONS`` (name → how to add its arguments, how to run it).

``reload`` — the reload storm of issue 11. A deck runs under ``deck.watch()`` while a writer
thread rewrites its config in place (truncate, then 64-byte chunks with pauses of 1-80 ms),
alternating two policies that both deny ``forbidden``; policy A also denies ``also``, so
A → B is a loosening and B → A a tightening. Now and then the writer holds a finished file
still for longer than the settle interval (so reloads do happen), and now and then it saves
atomically instead (write a temporary file, rename it over; the next in-place save starts
after the watcher has seen the rename). An agent calls ``forbidden`` and ``hello`` between
model turns with every ``ask`` pre-approved. Counts, all of which must be 0:

* torn: decisions made under a digest that is not one of the two complete policies;
* loosened: loosenings applied to a file that never sat still for the settle interval;
* executed-while-denied: ``forbidden`` ran;
* unaudited calls: calls without an audit record naming the policy digest;
* crashes: exceptions from the deck, the watcher or the writer.

``fuzz`` — malformed calls (``bench/stress_fuzz.py``): arbitrary tool ids and parameters
(None, lists, strings, deep nesting, huge integers, NaN, lone surrogates, NULs, huge strings)
thrown at a deck with every built-in plugin; counts crashes (an exception escaping
``deck.call``), unaudited calls (not exactly one audit line) and unstructured results, all 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic

from tooldeck import hookimpl
from tooldeck.deck import SETTLE_S, Deck
from tooldeck.models import AuditEvent, ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext

# ------------------------------------------------------------------------------ reload

PADDING = "".join(f"# line {i:02d}: padding, so that one save takes several chunks\n"
                  for i in range(5))
RULE = '[[tools.permissions.echo]]\npattern = "{}"\naction = "{}"\n\n'
POLICY_B = PADDING + RULE.format("forbidden*", "deny") + RULE.format("*", "allow")
POLICY_A = RULE.format("also*", "deny") + POLICY_B


def digest(text: str) -> str:
    """The digest of a generation made of this config text alone."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class EchoParams(pydantic.BaseModel):
    text: str


class Probe:
    """The ``echo`` tool (recording what ran) and an in-memory audit sink."""

    name = "echo"

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.events: list[AuditEvent] = []

    @hookimpl
    def tooldeck_register_executors(self, register: Any) -> None:
        register(self)

    @hookimpl
    def tooldeck_register_tools(self, register: Any) -> None:
        register(ToolDef(id="echo", description="echo", params=EchoParams, executor="echo",
                         input_param="text"))

    @hookimpl
    def tooldeck_audit(self, event: AuditEvent) -> None:
        self.events.append(event)

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        self.ran.append(call.params["text"])
        return ToolOutput("echo", call.params["text"])


class Writer(threading.Thread):
    """Rewrites the config, logging when each complete version landed and when it was left."""

    def __init__(self, path: Path, seed: int, settle_s: float) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.rng = random.Random(seed)
        self.settle_s = settle_s
        self.stop = threading.Event()
        self.still: list[tuple[str, float, float]] = []  # (digest, landed, left), wall clock
        self.saves = {"in_place": 0, "atomic": 0, "held": 0}
        self.error: BaseException | None = None
        self._landed: tuple[str, float] | None = None

    def _leave(self) -> None:
        if self._landed is not None:
            self.still.append((*self._landed, time.time()))
            self._landed = None

    def _pause(self) -> None:
        time.sleep(self.rng.uniform(0.001, 0.08))

    def save_in_place(self, text: str) -> None:
        data = text.encode()
        with open(self.path, "r+b") as handle:
            self._leave()
            handle.truncate(0)
            handle.flush()
            for start in range(0, len(data), 64):
                self._pause()
                handle.write(data[start:start + 64])
                handle.flush()
        self._landed = (digest(text), time.time())
        self.saves["in_place"] += 1

    def save_atomically(self, text: str) -> None:
        staged = self.path.with_name(".tooldeck.toml.tmp")
        staged.write_text(text)
        self._leave()
        os.replace(staged, self.path)
        self._landed = (digest(text), time.time())
        self.saves["atomic"] += 1
        time.sleep(0.15)  # the watcher sees the rename before the file is written in place

    def run(self) -> None:
        try:
            flip = False
            while not self.stop.is_set():
                flip = not flip
                text = POLICY_A if flip else POLICY_B
                if self.rng.random() < 0.1:
                    self.save_atomically(text)
                else:
                    self.save_in_place(text)
                if self.rng.random() < 0.1:
                    self.saves["held"] += 1
                    time.sleep(self.rng.uniform(1.5, 3) * self.settle_s)
                self._pause()
            self._leave()
        except BaseException as exc:  # reported as a crash
            self.error = exc


def premature(event: AuditEvent, still: list[tuple[str, float, float]], settle_s: float) -> bool:
    """A loosening whose file never sat still, complete, for (nearly) the settle interval."""
    applied = event.fields["new_digest"]
    return not any(d == applied and left - landed >= 0.9 * settle_s and landed <= event.ts
                   for d, landed, left in still)


async def reload_storm(seconds: float, min_decisions: int, seed: int, settle_s: float
                       ) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "tooldeck.toml"
        config.write_text(POLICY_A)
        probe = Probe()
        deck = Deck.from_config(config, extra_plugins={"echo": probe}, settle_s=settle_s,
                                environ={"TOOLDECK_TOOLS_AUDIT_ENABLED": "false"})
        watcher = asyncio.create_task(deck.watch())
        await asyncio.sleep(0.3)
        writer = Writer(config, seed, settle_s)
        writer.start()
        turns = random.Random(seed + 1)
        calls = crashes = 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline or calls < min_decisions:
            text = "forbidden: rm -rf ~" if calls % 2 == 0 else "hello"
            try:
                await deck.call(ToolCall("echo", {"text": text}), confirm=True)
            except Exception as exc:
                crashes += 1
                print(f"crash: {exc!r}", file=sys.stderr)
            calls += 1
            await asyncio.sleep(turns.uniform(0, 0.002))
            if watcher.done():
                break
        writer.stop.set()
        await asyncio.to_thread(writer.join)
        if watcher.done():
            crashes += 1
            print(f"watcher ended: {watcher.exception()!r}", file=sys.stderr)
        else:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        await deck.aclose()
    if writer.error is not None:
        crashes += 1
        print(f"writer crashed: {writer.error!r}", file=sys.stderr)

    complete = {digest(POLICY_A), digest(POLICY_B)}
    decisions = [e for e in probe.events if e.kind == "tool_call"]
    loosenings = [e for e in probe.events if e.kind == "policy.loosened"]
    tightenings = [e for e in probe.events if e.kind == "policy.reloaded"]
    return {
        "decisions": calls,
        "seconds": seconds,
        "saves": writer.saves,
        "reloads applied": {
            "tighten": sum(e.fields["change"] == "tighten" for e in tightenings),
            "loosen": len(loosenings),
            "same bytes": sum(e.fields["change"] == "none" for e in tightenings),
        },
        "refused": sum(e.kind == "policy.reload_failed" for e in probe.events),
        "torn": sum(e.fields.get("policy") not in complete for e in decisions)
        + sum(e.fields["new_digest"] not in complete for e in tightenings),
        "loosened": sum(premature(e, writer.still, settle_s) for e in loosenings),
        "executed-while-denied": sum(t.startswith("forbidden") for t in probe.ran),
        "unaudited calls": calls - sum("policy" in e.fields for e in decisions),
        "crashes": crashes,
    }


def reload_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=60.0, help="storm duration")
    parser.add_argument("--min-decisions", type=int, default=10_000,
                        help="keep going until this many calls were decided")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--settle", type=float, default=SETTLE_S,
                        help="the deck's settle interval, seconds")


def reload_section(args: argparse.Namespace) -> bool:
    counts = asyncio.run(reload_storm(args.seconds, args.min_decisions, args.seed,
                                      args.settle))
    for key, value in counts.items():
        print(f"{key + ':':24} {value}")
    bad = ("torn", "loosened", "executed-while-denied", "unaudited calls", "crashes")
    return all(counts[k] == 0 for k in bad) and counts["decisions"] >= args.min_decisions


# ------------------------------------------------------------------------------ fuzz


def fuzz_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=600.0, help="how long to fuzz")
    parser.add_argument("--seed", type=int, default=0, help="random seed")


def fuzz_section(args: argparse.Namespace) -> bool:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from stress_fuzz import fuzz_section as fuzz  # type: ignore[import-not-found]

    counts = asyncio.run(fuzz(args.seconds, args.seed))
    for key in ("calls", "outputs", "crashes", "unaudited", "unstructured"):
        print(f"{key + ':':24} {counts[key]}")
    return counts["crashes"] + counts["unaudited"] + counts["unstructured"] == 0


# ---------------------------------------------------------------------------- sections

SECTIONS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                          Callable[[argparse.Namespace], bool]]] = {
    "reload": (reload_arguments, reload_section),
    "fuzz": (fuzz_arguments, fuzz_section),
}
"""Stress sections: name → (add its arguments, run it and say whether every count is 0)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="section", required=True)
    for name, (add_arguments, _run) in SECTIONS.items():
        add_arguments(sub.add_parser(name))
    args = parser.parse_args()
    ok = SECTIONS[args.section][1](args)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
