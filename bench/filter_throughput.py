"""Throughput of ``strip_noise`` and of the generic reduction, and their memory as inputs grow.

Run with ``python bench/filter_throughput.py`` (a minute or two). Issue 13 asks, in one run:
``strip_noise`` and ``fallback`` each at 150 MB/s or more on a 20 MB log, or at least 1/50 of
``grep -vE`` with the same patterns (both are printed), and memory that stays flat when the
input grows from 10 to 100 MB.

1. On the generated 20 MB build log of ``bench/filters.py``: MB/s per CPU second (process
   time; children's time for grep, which stays meaningful on a loaded machine) and per wall
   second, best of three, for ``strip_noise`` with the bench's noise patterns, for the
   ``fallback`` strategy (classification, context, folding), and for ``grep -vE`` with the
   same noise patterns over the log on disk, its output written to a file; then each
   strategy's rate as a fraction of grep's. grep is timed twice: in the C locale (bytes, its
   fastest) and in the machine's locale (``C.UTF-8`` here, where it decodes characters and
   runs about forty times slower on this log). Its output must be written somewhere: GNU grep
   stops at the first selected line when its output is ``/dev/null`` (the earlier figures of
   7,000 MB/s and more were that), so it is sent to a temporary file, as ``grep > file`` is.
2. Peak memory (``tracemalloc``, the input excluded) of each strategy's ``apply`` on 10 MB
   and on 100 MB of the same log, divided by the input's size: flat means the two ratios are
   close (memory grows with the input, not faster); ``strip_noise`` holds its output and a
   few megabyte-sized windows (:mod:`tooldeck.filters.noise_cut`). Then the absolute peak of
   the streaming path (``tooldeck filter --noise``: the log read from a file a megabyte at a
   time, sanitized and cut as it comes, the output written to ``/dev/null``) at both sizes:
   it must stay about the same.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import tempfile
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from tooldeck.filters.registry import default_strategy_registry
from tooldeck.filters.sanitize import sanitized_pieces
from tooldeck.filters.strip_noise import StripNoise


def _filters_bench() -> ModuleType:
    """``bench/filters.py``, whose log generator and timing helpers this bench shares."""
    spec = importlib.util.spec_from_file_location(
        "filters_bench", Path(__file__).resolve().parent / "filters.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_BENCH = _filters_bench()
NOISE_PATTERNS = _BENCH.NOISE_PATTERNS
best_of = _BENCH.best_of
generate_log = _BENCH.generate_log
rates = _BENCH.rates
grep_seconds = _BENCH.grep_seconds

SPECS = {
    "strip_noise": {"type": "strip_noise", "patterns": NOISE_PATTERNS},
    "fallback": {"type": "fallback"},
}


def throughput(text: str) -> None:
    """Print MB/s of both strategies and of grep -vE, and the ratios."""
    megabytes = len(text.encode()) / 1e6
    registry = default_strategy_registry()
    print(f"## {megabytes:.1f} MB log, {text.count(chr(10)) + 1} lines")
    print(f"{'':<34}{'cpu MB/s':>9} {'wall MB/s':>9}")
    measured: dict[str, tuple[float, float]] = {}
    for name, spec in SPECS.items():
        strategy = registry.build(spec)
        measured[name] = best_of(3, lambda strategy=strategy: strategy.apply(text, 1))
        print(f"  {name + ' (with sanitize)':<32}{rates(megabytes, measured[name])}")
    for locale, label in (
        ("C", "LC_ALL=C"),
        (None, os.environ.get("LC_ALL") or os.environ.get("LANG") or "default locale"),
    ):
        grep = grep_seconds(text, locale)
        if grep is None:
            print("  grep not found")
            return
        print(f"  {'grep -vE, ' + label:<32}{rates(megabytes, grep)}")
        for name, seconds in measured.items():
            print(
                f"    {name} / grep: {_ratio(seconds[0], grep[0])} cpu,"
                f" {_ratio(seconds[1], grep[1])} wall (the target: 1/50 or better, or 150 MB/s)"
            )


def _ratio(ours: float, grep: float) -> str:
    """``ours`` against ``grep`` as ``1/N`` (slower) or ``Nx`` (faster)."""
    return f"1/{ours / grep:.1f}" if ours >= grep else f"{grep / ours:.1f}x"


def memory(sizes: tuple[int, ...]) -> None:
    """Print each strategy's peak memory per input byte, and the stream's peak, at each size."""
    registry = default_strategy_registry()
    print()
    print("## peak memory (tracemalloc, input excluded)")
    streamed: list[int] = []
    ratios: dict[str, list[float]] = {name: [] for name in SPECS}
    for size in sizes:
        text = generate_log(size)
        for name, spec in SPECS.items():
            strategy = registry.build(spec)
            gc.collect()
            tracemalloc.start()
            strategy.apply(text, 1)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            ratios[name].append(peak / len(text.encode()))
        with tempfile.NamedTemporaryFile(suffix=".log") as log:
            log.write(text.encode())
            log.flush()
            del text
            streamed.append(stream_peak(Path(log.name)))
    for name, found in ratios.items():
        shown = ", ".join(f"{size // 1_000_000} MB: {ratio:.2f}x"
                          for size, ratio in zip(sizes, found, strict=True))
        print(f"  {name + ' apply / input':<28} {shown}")
    shown = ", ".join(f"{size // 1_000_000} MB: {peak / 1e6:.1f} MB"
                      for size, peak in zip(sizes, streamed, strict=True))
    print(f"  {'strip_noise stream, absolute':<28} {shown}")


def stream_peak(path: Path) -> int:
    """Peak bytes of ``tooldeck filter --noise``'s path over the log at ``path``."""
    strategy = default_strategy_registry().build(SPECS["strip_noise"])
    assert isinstance(strategy, StripNoise)
    written = [0]

    def write(piece: bytes) -> None:
        written[0] += len(piece)

    gc.collect()
    tracemalloc.start()
    strategy.stream(_sanitized(path), write)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def _sanitized(path: Path) -> Iterator[bytes]:
    """The file's bytes, a megabyte at a time, sanitized as ``tooldeck filter`` reads stdin."""
    with path.open("rb") as source:
        yield from sanitized_pieces(lambda: source.read(1 << 20))


def main() -> int:
    """Run both measurements."""
    throughput(generate_log(20_000_000))
    memory((10_000_000, 100_000_000))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
