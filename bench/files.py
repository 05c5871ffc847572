"""Benchmark the file tools against their plain counterparts.

* ``grep`` over a generated tree of 20,000 small files vs ``grep -rn`` on the same tree;
* ``find_path **/*.py`` in a project with an in-project ``.venv`` and ``node_modules``
  (ignored, pruned) vs the same call with ``include_ignored`` (every directory walked) and
  ``git ls-files --others --exclude-standard`` (git's own ignore-aware walk);
* ``read`` of a 4 KB file vs a plain ``open().read()``, both as the bare operation and as a
  full ``deck.call`` (validation, gates, routing, audit line).

Run: ``python bench/files.py`` (takes well under two minutes).
Targets: grep within 5x of ``grep -rn``; read overhead <= 150 us per call.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.read_write import read_file
from tooldeck.plugins.files.search import find_path, grep

DIRS = 200
FILES_PER_DIR = 100
NEEDLES = 60
PATTERN = r"needle_[0-9]+"
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]


def build_tree(root: Path) -> None:
    rng = random.Random(7)
    needle_at = set(rng.sample(range(DIRS * FILES_PER_DIR), NEEDLES))
    index = 0
    for d in range(DIRS):
        directory = root / f"pkg{d:03d}"
        directory.mkdir()
        for f in range(FILES_PER_DIR):
            lines = [" ".join(rng.choices(WORDS, k=6)) for _ in range(10)]
            if index in needle_at:
                lines[rng.randrange(10)] += f" needle_{index}"
            (directory / f"mod{f:03d}.py").write_text("\n".join(lines) + "\n")
            index += 1


def median_seconds(action: Callable[[], object], runs: int) -> float:
    action()  # warm the page cache and the code paths
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def per_call_seconds(action: Callable[[], object], calls: int, repeats: int) -> float:
    action()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            action()
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples)


def bench_grep(tree: Path) -> None:
    sandbox = PathSandbox([tree])

    def ours() -> int:
        result = grep(sandbox, PATTERN, str(tree), max_results=10_000)
        return result.summary.count("\n") + 1

    def gnu() -> int:
        out = subprocess.run(
            ["grep", "-rn", "-E", PATTERN, str(tree)], capture_output=True, check=True
        ).stdout
        return out.count(b"\n")

    assert ours() == gnu() == NEEDLES, (ours(), gnu())
    ours_s = median_seconds(ours, runs=5)
    gnu_s = median_seconds(gnu, runs=5)
    print(
        f"grep   tooldeck grep: {ours_s * 1e3:8.1f} ms  (median of 5, {DIRS * FILES_PER_DIR} files)"
    )
    print(f"grep   grep -rn     : {gnu_s * 1e3:8.1f} ms")
    print(f"grep   ratio        : {ours_s / gnu_s:8.2f}x  (target <= 5x)")


def build_project(root: Path) -> int:
    """A project of 2,000 own files beside 30,000 in ``.venv`` and ``node_modules``."""
    for d in range(40):
        for f in range(50):
            path = root / "src" / f"pkg{d:02d}" / f"mod{f:02d}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("x = 1\n")
    for top, ext in ((".venv/lib/python3.11/site-packages", "py"), ("node_modules", "js")):
        for d in range(150):
            for f in range(100):
                path = root / top / f"dep{d:03d}" / f"m{f:02d}.{ext}"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("")
    (root / ".gitignore").write_text(".venv/\nnode_modules/\n*.log\nbuild/\n!keep.log\n")
    (root / "src" / ".gitignore").write_text("generated_*.py\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return 2000


def bench_find_path(root: Path, own: int) -> None:
    sandbox = PathSandbox([root], cwd=root)

    def ours() -> int:
        return find_path(sandbox, ".", "**/*.py", max_results=10_000).summary.count("\n") + 1

    def everything() -> int:
        return find_path(sandbox, ".", "**/*.py", max_results=20_000,
                         include_ignored=True).summary.count("\n") + 1

    def git() -> int:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-o", "--exclude-standard",
                              "*.py"], capture_output=True, check=True).stdout
        return out.count(b"\n")

    assert ours() == git() == own, (ours(), git())
    ours_s = median_seconds(ours, runs=5)
    all_s = median_seconds(everything, runs=5)
    git_s = median_seconds(git, runs=5)
    print(f"find   find_path **/*.py      : {ours_s * 1e3:8.1f} ms  (median of 5, {own} own "
          "files, 30,000 ignored)")
    print(f"find   ... include_ignored    : {all_s * 1e3:8.1f} ms  (every directory walked)")
    print(f"find   git ls-files -o        : {git_s * 1e3:8.1f} ms")


def bench_read(directory: Path) -> None:
    target = directory / "four_kb.txt"
    target.write_text("".join(f"{i:05d} " + "x" * 73 + "\n" for i in range(52))[:4096])
    sandbox = PathSandbox([directory])
    raw = str(target)

    def ours() -> str:
        return read_file(sandbox, raw).summary

    def plain() -> str:
        with open(raw) as handle:
            return handle.read()

    ours_s = per_call_seconds(ours, calls=2000, repeats=7)
    plain_s = per_call_seconds(plain, calls=2000, repeats=7)
    print(f"read   tooldeck read: {ours_s * 1e6:8.1f} us per call (median of 7 x 2000)")
    print(f"read   open().read(): {plain_s * 1e6:8.1f} us per call")
    print(
        f"read   overhead     : {(ours_s - plain_s) * 1e6:8.1f} us  (bare operation), "
        f"ratio {ours_s / plain_s:.1f}x"
    )
    deck_s, plain_each = deck_read_seconds(directory, raw, calls=5000)
    print(f"read   deck.call    : {deck_s * 1e6:8.1f} us per call (median, full pipeline + audit)")
    print(f"read   open().read(): {plain_each * 1e6:8.1f} us per call (median, interleaved)")
    print(
        f"read   overhead     : {(deck_s - plain_each) * 1e6:8.1f} us  (target <= 150 us), "
        f"ratio {deck_s / plain_each:.1f}x"
    )


def deck_read_seconds(directory: Path, raw: str, calls: int) -> tuple[float, float]:
    """Per-call medians of ``read`` through a real deck (audit on) and of a plain read.

    The two are interleaved call by call so that load from elsewhere on the machine hits
    both alike; medians keep garbage-collection pauses out of the figure.
    """
    doc = parse_document(
        f'[tools.file]\nallowed_paths = ["{directory}"]\n'
        f'[tools.audit]\npath = "{directory / "audit.jsonl"}"\n'
        '[[tools.permissions.read]]\npattern = "*"\naction = "allow"\n', None, "bench")
    deck = Deck.from_config(doc)
    call = ToolCall("read", {"path": raw})

    async def measure() -> tuple[float, float]:
        for _ in range(200):
            await deck.call(call)
        full, plain = [], []
        for _ in range(calls):
            t0 = time.perf_counter()
            result = await deck.call(call)
            t1 = time.perf_counter()
            with open(raw) as handle:
                handle.read()
            t2 = time.perf_counter()
            full.append(t1 - t0)
            plain.append(t2 - t1)
        assert result.ok, result.text
        await deck.aclose()
        return statistics.median(full), statistics.median(plain)

    return asyncio.run(measure())


def main() -> int:
    if shutil.which("grep") is None:
        print("grep not found on PATH", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="tooldeck-bench-") as tmp:
        base = Path(tmp).resolve()
        tree = base / "tree"
        tree.mkdir()
        start = time.perf_counter()
        build_tree(tree)
        print(
            f"setup  generated {DIRS * FILES_PER_DIR} files in {time.perf_counter() - start:.1f} s"
        )
        bench_grep(tree)
        if shutil.which("git") is not None:
            project = base / "project"
            project.mkdir()
            bench_find_path(project, build_project(project))
        bench_read(base)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
