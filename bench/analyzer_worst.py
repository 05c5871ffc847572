"""Benchmark: analysis time of malformed and oversized shell input, 1 KB to 100 KB.

Run: ``python bench/analyzer_worst.py [--sizes 1,10,40,100] [--rounds R]``.

For each shape and size it prints the analysis time in milliseconds (median of the rounds)
and the CPU time of the analysing thread (wall time also counts other processes on a busy
machine), and how the analysis ended (``parsed``, ``parse error``, or the budget limit that
stopped it). Target: every cell <= 100 ms, and time growing at most linearly with size: the
``growth`` column is the CPU time per KB at the largest size over that at 10 KB (1 is linear,
below 1 means a budget cut the work short).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from tooldeck.shell_analysis import analyze
from tooldeck.shell_analysis.budget import TOO_COMPLEX


def _fill(unit: str, size: int, head: str = "", tail: str = "") -> str:
    count = max(1, (size - len(head) - len(tail)) // len(unit))
    return head + unit * count + tail


SHAPES: dict[str, Callable[[int], str]] = {
    "dangling |": lambda n: _fill("cat | ", n, "", "cat |"),
    "dangling &&": lambda n: _fill("true && ", n, "", "true &&"),
    "unclosed quote": lambda n: _fill("echo a; ", n, 'echo "'),
    "unclosed $(": lambda n: _fill("echo a; ", n, "echo $("),
    "deep ((((": lambda n: "(" * n,
    "deep $(": lambda n: "$(" * (n // 2),
    "pipeline (10k at 40 KB)": lambda n: _fill("a | ", n, "", "a"),
    "heredoc, no terminator": lambda n: _fill("line of text\n", n, "cat <<EOF\n"),
    "quoted heredoc": lambda n: _fill("a | b > c (d) <e>\n", n, "cat > f <<'EOF'\n", "EOF\n"),
    "a|a|a| no spaces": lambda n: _fill("a|", n),
    ")))) run": lambda n: ")" * n,
    "x)x)x) run": lambda n: _fill("x)", n),
    "`&`& run": lambda n: _fill("`&", n),
    "'`<'`< then keyword": lambda n: _fill("'`<", n, "", "done#"),
    "[[ a; [[ a; …": lambda n: _fill("[[ echo x;", n, "|&(", " | ; ="),
    "many lines": lambda n: _fill("echo a\n", n),
    "many words": lambda n: _fill("a ", n, "echo "),
}


def _outcome(reasons: tuple[str, ...]) -> str:
    for reason in reasons:
        if reason.startswith(TOO_COMPLEX):
            return reason.removeprefix(TOO_COMPLEX + ": ")
    if any("does not parse" in r for r in reasons):
        return "parse error"
    return "parsed" if not reasons else reasons[0]


def measure(command: str, rounds: int) -> tuple[float, float, str]:
    """Median wall and CPU time in ms over ``rounds`` runs, and how the analysis ended."""
    wall, cpu = [], []
    outcome = ""
    for _ in range(rounds):
        start, start_cpu = time.perf_counter(), time.thread_time()
        analysis = analyze(command)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        outcome = _outcome(analysis.opaque_reasons)
    return statistics.median(wall), statistics.median(cpu), outcome


def main() -> None:
    """Parse arguments, time every shape at every size, print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1,10,40,100", help="sizes in KB, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    analyze("warm up | the parser")
    header = "".join(f"{f'{s} KB':>13}" for s in sizes)
    print(f"wall / CPU ms, median of {args.rounds}")
    print(f"{'shape':24}{header}  {'growth':>6}  outcome at {sizes[-1]} KB")
    worst_wall = worst_cpu = 0.0
    for name, make in SHAPES.items():
        cells, cpus, outcome = "", [], ""
        for size in sizes:
            wall, cpu, outcome = measure(make(size * 1000), args.rounds)
            cells += f"{wall:7.1f} /{cpu:5.1f}"
            cpus.append(cpu)
            worst_wall, worst_cpu = max(worst_wall, wall), max(worst_cpu, cpu)
        base = sizes.index(10) if 10 in sizes else 0
        growth = (cpus[-1] / sizes[-1]) / max(cpus[base] / sizes[base], 1e-9)
        print(f"{name:24}{cells}  {growth:6.2f}  {outcome}")
    print(f"worst: {worst_wall:.1f} ms wall, {worst_cpu:.1f} ms CPU (target <= 100 ms)")


if __name__ == "__main__":
    main()
