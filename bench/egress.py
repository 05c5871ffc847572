"""Benchmark the egress gate: what it adds to the gate decision on a shell command.

Timed on a real deck (``runtime.hooks.check_call``: every gate votes, nothing runs), with
the ``egress`` plugin enabled and disabled, for a curl command that names a public host
(resolved through an in-memory stub, so the numbers are the gate's own cost, not DNS), a
curl command the static rules deny, and a command with no destination. Also the gate's
``decide`` alone.

Run: .venv/bin/python bench/egress.py [--rounds N]
Nothing leaves the machine: the resolver is a stub and nothing is run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.egress import EgressPolicy, use_resolver
from tooldeck.models import ToolCall
from tooldeck.plugins.egress.gate import EgressGate

COMMANDS = {
    "curl public host (resolved)": "curl -sS -o page.html https://example.com/docs",
    "curl metadata, decimal (denied)": "curl -s http://2852039166/latest/meta-data/",
    "no destination (ls -la)": "ls -la",
}
CONFIG = '[tools.shell]\nallowed_commands = ["curl"]\nallowed_paths = ["/"]\n'


async def stub(host: str, port: int) -> Sequence[str]:
    return ["93.184.215.14"]


def median_us(action: Callable[[], object], rounds: int) -> float:
    action()  # warm up: imports, parser
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1e6)
    return statistics.median(samples)


def deck(workdir: Path, extra: str) -> Deck:
    text = f'[tools.audit]\nenabled = false\n{CONFIG}{extra}'
    built = Deck.from_config(parse_document(text, workdir / "tooldeck.toml", "bench"))
    use_resolver(built.runtime.session, stub)
    return built


def check(built: Deck, command: str) -> Callable[[], object]:
    runtime = built.runtime
    call = ToolCall("bash", {"command": command})
    tool = runtime.tools["bash"]
    return lambda: runtime.hooks.check_call(call, tool, runtime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    gate = EgressGate(EgressPolicy())
    with tempfile.TemporaryDirectory() as workdir:
        with_gate = deck(Path(workdir), "")
        without = deck(Path(workdir), '[plugins]\ndisable = ["egress"]\n')
        print(f"median of {args.rounds} (us)          decide  check_call  without  added")
        for label, command in COMMANDS.items():
            alone = median_us(lambda c=command: gate.decide(c, stub), args.rounds)
            on = median_us(check(with_gate, command), args.rounds)
            off = median_us(check(without, command), args.rounds)
            print(f"  {label:33s} {alone:7.0f} {on:10.0f} {off:8.0f} {on - off:+6.0f}")


if __name__ == "__main__":
    main()
