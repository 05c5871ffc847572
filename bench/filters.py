"""Benchmark of the output filters: throughput on a generated 20 MB log, and reduction per fixture.

Run with ``python bench/filters.py`` (about a minute). Prints:

1. MB/s of every built-in strategy on a 20 MB build/test log (``apply`` = sanitize + strategy,
   ``reduce`` = strategy on already sanitized text), and of the secret scan the engine runs on
   every raw output (``find secrets``); for ``strip_noise`` the same patterns also
   through a naive per-line Python ``re`` loop and through ``grep -vE``, as ratios. Rates are
   given per CPU second (process time; children's time for grep), which stays meaningful on a
   shared, loaded machine, and in wall-clock time.
   The corpus of real outputs (tune and held-back halves) is measured by
   ``bench/filter_corpus.py``.
2. Characters in -> out for every recorded fixture through the built-in rules, the reduction,
   and the number of must-keep lines lost (must be zero); the median over the *noisy* fixtures
   (outputs of 50+ lines), the issue's target being at least 70%.
3. Cold start: the median wall time of 20 runs of ``tooldeck filter --command "git status"``
   on a two-line input, against 20 runs of ``python -c pass`` (interleaved), and the ratio (the
   target is at most 8x). Until the ``filter`` entry point is installed the command object is
   supplied to the real ``tooldeck.cli.main`` in the child process, as the entry point would.
"""

from __future__ import annotations

import functools
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.must_keep import lost_must_keep_lines
from tooldeck.filters.registry import default_strategy_registry
from tooldeck.filters.sanitize import sanitize_output
from tooldeck.secrets import find_secrets

TARGET_BYTES = 20_000_000
LONG_OUTPUT_LINES = 50
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "filters" / "fixtures"
FIXTURE_COMMANDS = {
    "pytest_verbose_large": ("pytest -v tests", 1),
    "pip_install_many": ("pip install -r requirements.txt", 0),
    "cargo_build_many_crates": ("cargo build --release", 0),
    "docker_buildkit_apt": ("docker build -t app .", 0),
    "cargo_test_failing": ("cargo test", 101),
    "cargo_build_warnings": ("cargo build", 0),
    "cargo_clippy": ("cargo clippy", 0),
    "go_test_verbose_failing": ("go test -v ./...", 1),
    "jest_failing": ("npx jest", 1),
    "vitest_failing": ("npx vitest run", 1),
    "pytest_xdist_failing": ("pytest -n 2 -v", 1),
    "docker_buildkit_failing": ("docker build -t app .", 1),
    "docker_legacy_build": ("docker build -t app .", 0),
    "kubectl_get_pods": ("kubectl get pods", 0),
    "terraform_plan": ("terraform plan -out=tfplan", 0),
    "npm_install": ("npm install", 0),
    "tsc_errors": ("npx tsc --noEmit", 2),
    "eslint_stylish": ("npx eslint src/", 1),
}

NOISE_PATTERNS = [
    r"^\s*Compiling ",
    r"^\s*Downloading\s",
    r"^npm warn",
    r"^\s*$",
    r"^Step \d+/\d+ : ",
    r"^ ---> [a-f0-9]+$",
    r"^\s*Requirement already satisfied",
    r"^test \S+ \.\.\. ok$",
]

STRATEGY_SPECS: list[dict[str, Any]] = [
    {"type": "strip_noise", "patterns": NOISE_PATTERNS},
    {"type": "keep_matching", "patterns": [r"^(error|warning)", r"FAILED", r"test result:"]},
    {"type": "truncate", "max_lines": 200, "head": 100, "tail": 100},
    {"type": "strip_annotated", "patterns": NOISE_PATTERNS, "summary_pattern": r"^\s*Finished "},
    {"type": "test_summary"},
    {
        "type": "group_by_rule",
        "location_pattern": r"^\s*-->\s*(.+:\d+)",
        "rule_pattern": r"#\[warn\(([^)]+)\)\]",
    },
    {"type": "git_status"},
    {"type": "git_diff"},
    {"type": "dedup"},
    {"type": "fallback"},
]


def generate_log(target: int, seed: int = 20) -> str:
    """A build-and-test log: long runs of progress noise around diagnostics and results."""
    rng = random.Random(seed)
    crates = ["serde", "tokio", "regex", "libc", "hyper", "rand", "syn", "quote", "clap"]
    noise_makers: list[Callable[[], str]] = [
        lambda: f"   Compiling {rng.choice(crates)} v1.{rng.randint(0, 40)}.{rng.randint(0, 9)}",
        lambda: f"  Downloading {rng.choice(crates)}-{rng.randint(1, 9)}.0-py3-none-any.whl",
        lambda: f"npm warn deprecated {rng.choice(crates)}@{rng.randint(1, 9)}.0.0: unsupported",
        lambda: "",
        lambda: f"test tests::case_{rng.randint(0, 99999)} ... ok",
        lambda: f"Requirement already satisfied: {rng.choice(crates)} in ./venv/lib",
    ]
    signal_makers: list[Callable[[], str]] = [
        lambda: f"warning: unused variable: `x{rng.randint(0, 999)}`",
        lambda: f"  --> src/module_{rng.randint(0, 99)}.rs:{rng.randint(1, 900)}:7",
        lambda: "   = note: `#[warn(unused_variables)]` on by default",
        lambda: f"2024-05-01T10:{rng.randint(10, 59)}:00Z INFO served /api/{rng.randint(1, 9)}",
        lambda: f"error[E0308]: mismatched types in src/lib_{rng.randint(0, 99)}.rs",
        lambda: f"test tests::case_{rng.randint(0, 99999)} ... FAILED",
    ]
    lines: list[str] = []
    size = 0
    while size < target:
        for _ in range(rng.randint(5, 40)):
            line = rng.choice(noise_makers)()
            lines.append(line)
            size += len(line) + 1
        for _ in range(rng.randint(1, 6)):
            line = rng.choice(signal_makers)()
            lines.append(line)
            size += len(line) + 1
    lines.append("test result: FAILED. 900 passed; 3 failed; 0 ignored; 0 filtered out")
    return "\n".join(lines)


def best_of(runs: int, action: Callable[[], object]) -> tuple[float, float]:
    """Fastest CPU time and fastest wall-clock time of ``runs`` calls, in seconds."""
    best_cpu = best_wall = float("inf")
    for _ in range(runs):
        cpu, wall = time.process_time(), time.perf_counter()
        action()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall


def naive_strip(text: str, patterns: list[re.Pattern[str]]) -> str:
    """The baseline: test every line against every pattern in a Python loop."""
    return "\n".join(line for line in text.split("\n") if not any(p.search(line) for p in patterns))


def grep_seconds(text: str, locale: str | None) -> tuple[float, float] | None:
    """Best CPU and wall seconds of three ``grep -vE`` runs with the noise patterns, output kept.

    The output goes to a file: GNU grep stops at the first line it would print when its
    output is ``/dev/null`` (it then only needs the exit status), which once made it read
    20 MB in 3 ms here.

    :param text: the log, written to a file first.
    :param locale: ``LC_ALL`` for grep (``None``: the machine's own).
    :returns: the seconds, or ``None`` when grep is not installed.
    """
    grep = shutil.which("grep")
    if grep is None:
        return None
    ere = "|".join(f"({pattern.replace(chr(92) + 'd', '[0-9]')})" for pattern in NOISE_PATTERNS)
    env = dict(os.environ) if locale is None else {**os.environ, "LC_ALL": locale}
    best_cpu = best_wall = float("inf")
    with tempfile.TemporaryDirectory() as folder:
        log, kept = os.path.join(folder, "in.log"), os.path.join(folder, "out.log")
        with open(log, "w", encoding="utf-8") as handle:
            handle.write(text)
        for _ in range(3):
            before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
            with open(kept, "wb") as out:
                subprocess.run(
                    [grep, "-vE", ere, log], stdout=out, env=env, check=False, timeout=300
                )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            best_cpu = min(best_cpu, cpu)
            best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall


def rates(megabytes: float, seconds: tuple[float, float]) -> str:
    """Format CPU and wall MB/s."""
    cpu, wall = seconds
    return f"{megabytes / max(cpu, 1e-9):>9.1f} {megabytes / max(wall, 1e-9):>9.1f}"


def throughput_table(text: str) -> None:
    """Print MB/s of each strategy, plus the strip_noise comparison."""
    megabytes = len(text.encode()) / 1e6
    clean = sanitize_output(text)
    registry = default_strategy_registry()
    print(f"## Throughput on a generated {megabytes:.1f} MB log ({text.count(chr(10)) + 1} lines)")
    print()
    print(f"{'':<16} {'apply = sanitize + strategy':>19}  {'reduce = strategy only':>19}")
    print(f"{'strategy':<16} {'cpu MB/s':>9} {'wall MB/s':>9}  {'cpu MB/s':>9} {'wall MB/s':>9}"
          f"  {'out/in chars':>12}")  # fmt: skip
    print(f"{'(sanitize)':<16} {rates(megabytes, best_of(3, lambda: sanitize_output(text)))}")
    print(f"{'(find secrets)':<16} {rates(megabytes, best_of(3, lambda: find_secrets(text)))}")
    strip_noise: tuple[float, float] = (1.0, 1.0)
    strip_noise_reduce: tuple[float, float] = (1.0, 1.0)
    for spec in STRATEGY_SPECS:
        strategy = registry.build(spec)
        runs = 5 if spec["type"] in ("strip_noise", "keep_matching", "truncate", "fallback") else 1
        applied = best_of(runs, functools.partial(strategy.apply, text, 1))
        reduced = best_of(runs, functools.partial(strategy.apply_clean, clean, 1))
        ratio = len(strategy.apply_clean(clean, 1).output) / len(clean)
        if spec["type"] == "strip_noise":
            strip_noise, strip_noise_reduce = applied, reduced
        print(
            f"{spec['type']:<16} {rates(megabytes, applied)}  {rates(megabytes, reduced)}"
            f"  {ratio:>12.3f}"
        )
    compiled = [re.compile(pattern) for pattern in NOISE_PATTERNS]
    naive = best_of(2, lambda: naive_strip(text, compiled))
    grep = grep_seconds(text, "C")
    print()
    print(f"strip_noise, the same {len(NOISE_PATTERNS)} patterns     cpu MB/s wall MB/s")
    print(f"  tooldeck strip_noise, with sanitize   {rates(megabytes, strip_noise)}")
    print(f"  tooldeck strip_noise, strategy only   {rates(megabytes, strip_noise_reduce)}")
    print(f"  naive per-line Python re loop         {rates(megabytes, naive)}")
    if grep is not None:
        print(f"  grep -vE, LC_ALL=C, output to a file  {rates(megabytes, grep)}")
    print(
        f"  ratio tooldeck (with sanitize) / naive: {naive[0] / strip_noise[0]:.1f}x cpu,"
        f" {naive[1] / strip_noise[1]:.1f}x wall"
    )
    if grep is not None:
        print(
            f"  ratio tooldeck (with sanitize) / grep:  {grep[0] / strip_noise[0]:.2f}x cpu,"
            f" {grep[1] / strip_noise[1]:.2f}x wall"
        )
    print()


def fixture_table() -> None:
    """Print characters in -> out per recorded fixture through the built-in rules."""
    engine = FilterEngine.from_settings()
    print("## Recorded fixtures through the built-in rules")
    print()
    print(f"{'fixture':<26} {'rules':<40} {'chars in':>8} {'out':>6} {'reduced':>8} {'lost':>5}")
    reductions: list[float] = []
    long_reductions: list[float] = []
    total_lost = 0
    for name, (command, exit_code) in FIXTURE_COMMANDS.items():
        raw = (FIXTURES / f"{name}.txt").read_text("utf-8")
        result = engine.apply(command, raw, exit_code)
        lost = len(lost_must_keep_lines(sanitize_output(raw), result.output))
        total_lost += lost
        reduction = (1 - result.chars_out / result.chars_in) * 100
        reductions.append(reduction)
        if result.lines_in >= LONG_OUTPUT_LINES:
            long_reductions.append(reduction)
        rules = ",".join(result.rules)
        print(
            f"{name:<26} {rules:<40} {result.chars_in:>8} {result.chars_out:>6}"
            f" {reduction:>7.1f}% {lost:>5}"
        )
    print()
    print(f"median reduction, all {len(reductions)} fixtures: {statistics.median(reductions):.1f}%")
    print(
        f"median reduction, the {len(long_reductions)} noisy outputs ({LONG_OUTPUT_LINES}+ lines):"
        f" {statistics.median(long_reductions):.1f}%"
    )
    print(f"must-keep lines lost: {total_lost}")


COLD_RUNS = 20
_FILTER_VIA_MAIN = """
import sys
import tooldeck.cli as cli
from tooldeck.cli import extensions
real = extensions.load_commands
def load_commands(group, *, only=None):
    found = real(group, only=only)
    if group == extensions.COMMANDS_GROUP and only == "filter":
        from tooldeck.filters.cli import filter_command
        found["filter"] = filter_command
    return found
cli.load_commands = load_commands
sys.exit(cli.main(["filter", "--command", "git status"]))
"""


def filter_argv() -> tuple[list[str], str]:
    """How to run ``tooldeck filter --command "git status"``, and a note saying which way."""
    tooldeck = Path(sys.executable).parent / "tooldeck"
    listing = subprocess.run([str(tooldeck), "--help"], capture_output=True, text=True)
    if " filter " in listing.stdout:
        return [str(tooldeck), "filter", "--command", "git status"], "installed entry point"
    return [sys.executable, "-c", _FILTER_VIA_MAIN], "command object passed to tooldeck.cli.main"


def cold_start() -> None:
    """Print the median wall time of the filter command against ``python -c pass``."""
    argv, how = filter_argv()
    small = b"On branch main\nnothing to commit, working tree clean\n"
    # bytecode caches, as an installed package has them (kept out of the work tree)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "tooldeck-bench-pycache")
    runs: dict[str, list[float]] = {"python -c pass": [], "tooldeck filter": []}
    commands = {"python -c pass": [sys.executable, "-c", "pass"], "tooldeck filter": argv}
    for command in commands.values():  # warm up, and write the bytecode caches
        subprocess.run(
            command,
            input=small,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            check=True,
        )
    for _ in range(COLD_RUNS):
        for name, command in commands.items():
            wall = time.perf_counter()
            subprocess.run(
                command,
                input=small,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
                check=True,
            )
            runs[name].append(time.perf_counter() - wall)
    base, cold = (statistics.median(runs[name]) for name in commands)
    print(f"## Cold start ({how}), median of {COLD_RUNS} interleaved runs")
    print()
    print(f"python -c pass                              {base * 1000:7.1f} ms")
    print(f'tooldeck filter --command "git status"      {cold * 1000:7.1f} ms')
    print(f"ratio: {cold / base:.1f}x (target: at most 8x)")


def main() -> int:
    """Run the three measurements."""
    start = time.perf_counter()
    print(f"python {sys.version.split()[0]}")
    print()
    throughput_table(generate_log(TARGET_BYTES))
    fixture_table()
    print()
    cold_start()
    print(f"\n(total {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
