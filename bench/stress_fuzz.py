"""Long fuzz of ``Deck.call``: random malformed calls against a real deck for a time budget.

The deck runs every built-in plugin with nothing able to change anything: autonomy is
``readonly``, ``bash`` and the web tools are denied by rule as well, and the file sandbox is
a fresh temporary directory. Each call gets a random tool id (real, random text, lone
surrogates, not a string) and random parameters (not an object, non-string keys, nesting
10,000 deep, integers of thousands of digits, NaN, NUL, megabyte strings, line separators).

    python bench/stress_fuzz.py [--seconds 600] [--seed N]

Printed counts (every one but ``calls`` and ``outputs`` must be 0; the exit status is 1
otherwise): ``calls``; ``outputs`` (calls that ran a tool); ``crashes`` (an exception
escaped ``deck.call``); ``unaudited`` (not exactly one new audit line of strict JSON with the
call's id); ``unstructured`` (an error that is not a five-line ``[tool_error]`` block, or a
result that is not valid UTF-8).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from tooldeck.deck import Deck, ToolResult
from tooldeck.models import ToolCall

ROTATE_BYTES = 64 << 20
"""The audit file is emptied when it grows past this (the fd appends, so writes go on)."""

_ODD_CHARS = "\x00\x85\u2028\u2029\n\r\t\"\\\ufeff\U0001f600"


def nested(depth: int) -> list[Any]:
    """A list nested ``depth`` levels deep, built without recursion."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


class Fuzzer:
    """Draws random calls; every choice comes from one seeded generator."""

    def __init__(self, rng: random.Random, tool_ids: list[str], param_names: list[str]) -> None:
        self.rng = rng
        self.tool_ids = tool_ids
        self.param_names = param_names
        self.deep = nested(10_000)

    def text(self) -> str:
        rng = self.rng
        if rng.random() < 0.01:
            return rng.choice("xy\udc80") * rng.randint(100_000, 2_000_000)
        chars = []
        for _ in range(rng.randint(0, 30)):
            kind = rng.random()
            if kind < 0.5:
                chars.append(chr(rng.randint(0x20, 0x7E)))
            elif kind < 0.65:
                chars.append(chr(rng.randint(0xD800, 0xDFFF)))  # lone surrogate
            elif kind < 0.8:
                chars.append(rng.choice(_ODD_CHARS))
            else:
                chars.append(chr(rng.choice([rng.randint(0, 0xFFFF), rng.randint(0, 0x10FFFF)])))
        return "".join(chars)

    def number(self) -> Any:
        rng = self.rng
        return rng.choice([
            rng.randint(-(2**70), 2**70), 10 ** rng.randint(19, 6000), -(10 ** 5000),
            math.nan, math.inf, -math.inf, rng.uniform(-1e308, 1e308), 0, -1, True,
        ])

    def value(self, depth: int = 0) -> Any:
        rng = self.rng
        roll = rng.random()
        if roll < 0.02:
            return self.deep
        if depth < 4 and roll < 0.25:
            return [self.value(depth + 1) for _ in range(rng.randint(0, 4))]
        if depth < 4 and roll < 0.4:
            return {self.key(): self.value(depth + 1) for _ in range(rng.randint(0, 4))}
        if roll < 0.7:
            return self.text()
        if roll < 0.95:
            return self.number()
        return None

    def key(self) -> Any:
        rng = self.rng
        roll = rng.random()
        if roll < 0.5:
            return rng.choice(self.param_names)
        if roll < 0.9:
            return self.text()
        return rng.choice([rng.randint(-5, 5), None, (1, "a"), 1.5])

    def tool_id(self) -> Any:
        rng = self.rng
        roll = rng.random()
        if roll < 0.7:
            return rng.choice(self.tool_ids)
        if roll < 0.9:
            return self.text()
        return rng.choice([None, 42, ["read"], "read\udc80", "BASH", ""])

    def params(self) -> Any:
        rng = self.rng
        roll = rng.random()
        if roll < 0.3:  # close to valid: the executors see odd values too
            return {"path": rng.choice(["a.txt", ".", "..", "/etc/passwd", self.text()]),
                    **({"pattern": self.text()} if rng.random() < 0.5 else {})}
        if roll < 0.9:
            return {self.key(): self.value(1) for _ in range(rng.randint(0, 5))}
        return self.value()

    def call(self) -> ToolCall:
        return ToolCall(self.tool_id(), self.params())


def _refuse_constant(name: str) -> None:
    raise ValueError(f"non-standard JSON constant {name}")


def structured(result: ToolResult) -> bool:
    """Whether the result is an output or a five-line ``[tool_error]`` block, in valid UTF-8."""
    try:
        text = result.text
        text.encode("utf-8")
    except Exception:
        return False
    if result.error is None:
        return result.output is not None and isinstance(result.output.summary, str)
    lines = text.split("\n")
    return (len(lines) == 5 and lines[0] == "[tool_error]"
            and lines[1] == f"category: {result.error.category.label}"
            and lines[2].startswith("error: ") and lines[3].startswith("suggestion: ")
            and lines[4] in ("retryable: true", "retryable: false"))


def audited_once(new: bytes, call_id: str) -> bool:
    """Whether ``new`` is exactly one strict-JSON line recording the call ``call_id``."""
    try:
        lines = new.decode("utf-8").splitlines()
        if len(lines) != 1:
            return False
        record = json.loads(lines[0], parse_constant=_refuse_constant)
    except ValueError:
        return False
    return bool(record.get("kind") == "tool_call" and record.get("call_id") == call_id)


def make_deck(root: Path) -> Deck:
    sandbox = root / "sandbox"
    sandbox.mkdir()
    (sandbox / "a.txt").write_text("alpha\nbeta\n")
    deny = 'pattern = "*"\naction = "deny"\n'
    config = root / "tooldeck.toml"
    config.write_text(
        f'[agent]\nautonomy = "readonly"\n'
        f'[tools.file]\nallowed_paths = ["{sandbox}"]\n'
        f'[tools.shell]\nallowed_paths = ["{sandbox}"]\n'
        f'[tools.audit]\npath = "{root / "audit.jsonl"}"\n'
        + "".join(f"[[tools.permissions.{t}]]\n{deny}" for t in ("bash", "fetch", "web_scrape")),
        encoding="utf-8")
    return Deck.from_config(config, environ={})


async def fuzz_section(seconds: float, seed: int) -> Counter[str]:
    """Fuzz a fresh deck for ``seconds``; returns the counts described in the module doc."""
    counts: Counter[str] = Counter(calls=0, outputs=0, crashes=0, unaudited=0, unstructured=0)
    with tempfile.TemporaryDirectory(prefix="tooldeck-fuzz-") as tmp:
        root = Path(tmp)
        deck = make_deck(root)
        audit = root / "audit.jsonl"
        runtime = deck.runtime
        fuzzer = Fuzzer(random.Random(seed), sorted(runtime.tools),
                        sorted({n for t in runtime.tools.values() for n in t.params.model_fields}))
        offset = audit.stat().st_size if audit.exists() else 0
        deadline = time.monotonic() + seconds
        try:
            while time.monotonic() < deadline:
                call = fuzzer.call()
                counts["calls"] += 1
                try:
                    result = await deck.call(call)
                except Exception:
                    counts["crashes"] += 1
                    if counts["crashes"] <= 3:
                        traceback.print_exc()
                    result = None
                with audit.open("rb") as handle:
                    handle.seek(offset)
                    new = handle.read()
                offset += len(new)
                if not audited_once(new, call.call_id):
                    counts["unaudited"] += 1
                if result is not None:
                    if not structured(result):
                        counts["unstructured"] += 1
                    elif result.ok:
                        counts["outputs"] += 1
                if offset > ROTATE_BYTES:
                    audit.write_bytes(b"")
                    offset = 0
        finally:
            await deck.aclose()
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="how long to fuzz")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    counts = asyncio.run(fuzz_section(args.seconds, args.seed))
    elapsed = time.perf_counter() - started
    print(f"fuzz: {elapsed:.0f} s, seed {args.seed}")
    for name in ("calls", "outputs", "crashes", "unaudited", "unstructured"):
        print(f"  {name:<13}{counts[name]:>10}")
    print(f"  {'calls/s':<13}{counts['calls'] / max(elapsed, 1e-9):>10.0f}")
    failed = counts["crashes"] + counts["unaudited"] + counts["unstructured"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
