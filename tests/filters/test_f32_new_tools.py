"""Classes the filters missed on the output of tools new to the corpus (filters32).

Each fixture is one real run captured for filters32 (the same bytes are tune outputs of the
corpus, ``bench/corpus/filters/outputs/<tool>/f32-*``). Every test names what a reader needs
and checks it survives the default rules, and that the family's noise is cut.
"""

from __future__ import annotations

from .capturekit import capture, default_engine


def _raw(name: str) -> str:
    return capture(f"{name}.txt")


def test_a_trace_keeps_its_failed_calls_and_exit_and_drops_the_calls_that_returned() -> None:
    raw = _raw("strace_f32_file_ls_missing")
    result = default_engine().apply("strace -e trace=file ls typer/NOPE", raw, 2)
    kept = result.output.split("\n")
    assert "strace" in result.rules
    for fact in ('statx(AT_FDCWD, "typer/NOPE", AT_STATX_SYNC_AS_STAT|AT_NO_AUTOMOUNT',
                 "ls: cannot access 'typer/NOPE'", "+++ exited with 2 +++"):
        assert any(fact in line for line in kept), fact
    assert not any(line.startswith("openat(") and ") = 3" in line for line in kept)
    assert len(result.output) < len(raw) * 0.6


def test_a_trace_summary_table_is_kept_whole() -> None:
    raw = _raw("strace_f32_c_f_python")
    result = default_engine().apply("strace -c -f python3 -c 'import json, sqlite3'", raw, 0)
    assert "strace" in result.rules
    assert result.output.rstrip("\n") == raw.rstrip("\n")
