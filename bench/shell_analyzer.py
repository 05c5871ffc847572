"""Benchmark: analyze, find_blocked and judge_classes per command over 1,000 generated commands.

Run: ``python bench/shell_analyzer.py [--count N] [--seed S] [--rounds R]``.
Prints median and p95 in microseconds (target: median <= 100 us).
"""

from __future__ import annotations

import argparse
import random
import shlex
import statistics
import time

from tooldeck.shell_analysis import (
    DEFAULT_BLOCKED,
    ClassContext,
    analyze,
    find_blocked,
    judge_classes,
)

_CONTEXT = ClassContext(DEFAULT_BLOCKED)

PLAIN = [
    "ls -la",
    "git status",
    "git diff HEAD~1 -- src/",
    "cargo test --workspace",
    "pytest -q tests/unit",
    "grep -rn TODO src/",
    "python -m pip list",
    "npm run build",
    "make -j2",
    "find . -name '*.py' -newer setup.cfg",
    "du -sh node_modules",
    "sed -i 's/foo/bar/g' src/app.py",
    "rm -rf build/",
    "cp -r assets/ dist/",
    "docker compose ps",
    "sudo apt install vim",
    "curl -fsSL https://example.com/x.sh",
    "mkfs.ext4 /dev/sdb1",
]
TAILS = ["| tail -20", "2>&1 | head -50", "| grep -v warning", "> out.log 2>&1", "| wc -l", ""]
SEPARATORS = [" && ", " || ", "; ", " | ", " & ", "\n"]
WRAPPERS = ["env A=1", "timeout 30", "nice -n 5", "nohup", "time", "xargs -0", "command"]


def _quoting_trick(rng: random.Random, command: str) -> str:
    word, _, rest = command.partition(" ")
    tricks = [
        f"{word[0]}'{word[1:]}'",
        f'"{word[:2]}""{word[2:]}"',
        "\\" + word,
        "$'" + "".join(f"\\x{ord(c):02x}" for c in word) + "'",
        "/usr/bin/" + word,
    ]
    return f"{rng.choice(tricks)} {rest}".strip()


def _one(rng: random.Random) -> str:
    kind = rng.randrange(7)
    base = rng.choice(PLAIN)
    if kind == 0:
        return base
    if kind == 1:
        parts = [rng.choice(PLAIN) for _ in range(rng.randint(2, 4))]
        return "".join(p + rng.choice(SEPARATORS) for p in parts[:-1]) + parts[-1]
    if kind == 2:
        return f"{base} {rng.choice(TAILS)}".strip()
    if kind == 3:
        inner = rng.choice(PLAIN)
        return rng.choice(
            [f'echo "$({inner})"', f"cat <({inner})", f"x=`{inner}`", f"diff <({inner}) <(ls)"]
        )
    if kind == 4:
        return _quoting_trick(rng, base)
    if kind == 5:
        return f"{rng.choice(WRAPPERS)} {base}"
    carrier = rng.choice(["bash -c", "sh -c", "eval", "bash <<<"])
    return f"{carrier} {shlex.quote(base + ' ' + rng.choice(TAILS))}"


def corpus(count: int, seed: int) -> list[str]:
    """Build a reproducible corpus of varied commands."""
    rng = random.Random(seed)
    return [_one(rng) for _ in range(count)]


def _judge(command: str) -> None:
    analysis = analyze(command)
    find_blocked(analysis, DEFAULT_BLOCKED)
    judge_classes(analysis, _CONTEXT)


def run(count: int, seed: int, rounds: int) -> tuple[float, float]:
    """Time analyze + find_blocked + judge_classes; return (median, p95) in microseconds."""
    commands = corpus(count, seed)
    for command in commands:  # warm-up
        _judge(command)
    samples: list[float] = []
    for command in commands:
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter_ns()
            _judge(command)
            best = min(best, (time.perf_counter_ns() - start) / 1000)
        samples.append(best)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def main() -> None:
    """Parse arguments, run the benchmark, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3, help="timings per command (best kept)")
    args = parser.parse_args()
    median, p95 = run(args.count, args.seed, args.rounds)
    print(f"commands: {args.count}  median: {median:.1f} us  p95: {p95:.1f} us")


if __name__ == "__main__":
    main()
