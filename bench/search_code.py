"""Benchmark ``search_code`` against ``rg`` on the same query.

A tree of 5,000 source files in six languages (copies of the vendored test files under
``tests/files/code_data``, 834 directories), then the median of five runs of:

* ``search_code symbol=WriteString`` (structural: every file is read, those mentioning the
  symbol are parsed, definitions found),
* the same with ``include_references``,
* ``rg -i -n --fixed-strings WriteString`` over the same tree (text only).

Run: ``python bench/search_code.py``.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.code_search.search import search_code

FILES = 5_000
PER_DIR = 6
DATA = Path(__file__).resolve().parents[1] / "tests" / "files" / "code_data"
SYMBOL = "WriteString"


def build_tree(root: Path) -> None:
    sources = sorted(p for p in DATA.iterdir() if p.name != "README.md")
    for i in range(FILES):
        source = sources[i % len(sources)]
        target = root / f"pkg{i // PER_DIR:04d}" / f"{source.stem}_{i}{source.suffix}"
        target.parent.mkdir(exist_ok=True)
        shutil.copyfile(source, target)


def median_ms(action: Callable[[], object], runs: int = 5) -> float:
    action()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def main() -> int:
    rg = shutil.which("rg")
    with tempfile.TemporaryDirectory(prefix="tooldeck-bench-") as tmp:
        root = Path(tmp).resolve()
        build_tree(root)
        sandbox = PathSandbox([root], cwd=root)

        def ours(refs: bool) -> int:
            return len(search_code(sandbox, query=None, symbol=SYMBOL, file_pattern=None,
                                   include_references=refs, max_results=50,
                                   max_file_bytes=10 * 1024 * 1024))

        print(f"setup   {FILES} files, {SYMBOL!r} defined in {ours(False)} of them (max 50 kept)")
        print(f"search  search_code symbol        : {median_ms(lambda: ours(False)):8.1f} ms")
        print(f"search  ... include_references    : {median_ms(lambda: ours(True)):8.1f} ms")
        if rg is None:
            print("rg not found on PATH; no comparison", file=sys.stderr)
            return 0

        def ripgrep() -> int:
            out = subprocess.run([rg, "-i", "-n", "--fixed-strings", SYMBOL, str(root)],
                                 capture_output=True, check=True).stdout
            return out.count(b"\n")

        print(f"search  rg -i -n -F               : {median_ms(ripgrep):8.1f} ms  "
              f"({ripgrep()} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
