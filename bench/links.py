"""Benchmark: what the link rules cost the shell gate and the hard-link rules cost a read.

1. Median microseconds of :func:`link_findings` plus :func:`symlink_target_values` per
   command over the analyzer corpus of ``bench/shell_analyzer.py`` (analysis done before
   timing), and over a corpus of link commands (target <= 50 us for the ordinary corpus).
2. Median ``read_file`` time in a root of N small files for: a file with one name (the
   common case: one integer comparison), a hard link whose other name is in the root (one
   walk of the root), a hard link from a package cache into ``site-packages`` (no walk).

    python bench/links.py [--count N] [--files N]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.read_write import read_file
from tooldeck.shell_analysis import analyze
from tooldeck.shell_analysis.link_rules import link_findings, symlink_target_values

LINK_COMMANDS = [
    "ln -sf build/out current", "ln -s ../shared/lib app/lib", "ln -s . up && cat up/../x",
    "cp -l README.md copy.md", "ln -st docs a b c", "ln .env notes", "cat a/../b",
]


def _corpus_module() -> ModuleType:
    path = Path(__file__).with_name("shell_analyzer.py")
    spec = importlib.util.spec_from_file_location("bench_shell_analyzer", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _median_us(call: Callable[[], object], rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def gate_cost(commands: list[str], sandbox: PathSandbox) -> float:
    analyses = [analyze(c) for c in commands]
    per_command = []
    for analysis in analyses:
        per_command.append(_median_us(
            lambda a=analysis: (link_findings(a, sandbox), symlink_target_values(a)), 5))
    return statistics.median(per_command)


def read_costs(files: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        root = base / "project"
        for index in range(files):
            folder = root / f"d{index // 500}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"f{index}.txt").write_text("x\n")
        (root / "one.txt").write_text("hello\n")
        os.link(root / "one.txt", root / "d0" / "two.txt")
        (root / "single.txt").write_text("hello\n")
        cache = base / "cache"
        cache.mkdir()
        (cache / "foo.py").write_text("x = 1\n")
        site = root / ".venv" / "lib" / "site-packages"
        site.mkdir(parents=True)
        os.link(cache / "foo.py", site / "foo.py")
        sandbox = PathSandbox([root], cwd=root, deny_read=["**/.env", "**/*.key"])
        return {
            "one name": _median_us(lambda: read_file(sandbox, "single.txt"), 200),
            "hard link, other name in the root": _median_us(
                lambda: read_file(sandbox, "one.txt"), 10),
            "hard link from a cache into site-packages": _median_us(
                lambda: read_file(sandbox, ".venv/lib/site-packages/foo.py"), 50),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--files", type=int, default=20_000)
    args = parser.parse_args()
    corpus = _corpus_module().corpus(args.count, 7)
    with tempfile.TemporaryDirectory() as temp:
        sandbox = PathSandbox([temp], cwd=temp, deny_read=["**/.env"])
        ordinary = gate_cost(corpus, sandbox)
        links = gate_cost(LINK_COMMANDS, sandbox)
    print(f"link rules per command, analyzer corpus ({args.count}): {ordinary:.1f} us median")
    print(f"link rules per command, link corpus ({len(LINK_COMMANDS)}): {links:.1f} us median")
    for name, cost in read_costs(args.files).items():
        print(f"read, {name} ({args.files} files in the root): {cost:.0f} us median")


if __name__ == "__main__":
    main()
