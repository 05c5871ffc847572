"""The fallback over line data gives, byte for byte, what the fallback over lists of lines gave.

The reference is the previous implementation, kept in ``fallback_oracle.py`` only. Compared on
random texts (hypothesis: log lines, the tune half's lines, shapes the helpers cut), with the
parameters rules give the strategy; on every corpus output; on generated build logs; both
through :meth:`Fallback.apply` (raw text, sanitized a piece at a time) and
:meth:`Fallback.reduce` (sanitized text, as the engine calls it).
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.filters import fallback, line_view, must_keep, repeats, sanitize
from tooldeck.filters.fallback import Fallback
from tooldeck.filters.must_keep import must_keep_classifier, must_keep_line_numbers
from tooldeck.filters.registry import default_strategy_registry
from tooldeck.filters.sanitize import sanitize_output
from tooldeck.filters.selection import as_line_data

from .corpuskit import corpus
from .fallback_oracle import old_line_runs, old_must_keep_line_numbers, oracle_fallback
from .test_throughput_oracles import _assert_none_differ, log_lines, tune_texts

SPECS: list[dict[str, Any]] = [
    {"type": "fallback"},
    {"type": "fallback", "min_lines": 5, "max_lines": 8, "head": 2, "tail": 3, "edge_chars": 40},
    {"type": "fallback", "output": "report", "keep": [r"^Downloading", r"case_\d+"]},
    {"type": "fallback", "output": "listing", "data_lines": 30, "data_edge": 4,
     "group": r"^([^\s:]+):\d+:", "group_lines": 25, "group_head": 2},
    {"type": "fallback", "outline": True, "max_lines": 10},
]


@functools.lru_cache(maxsize=len(SPECS))
def _strategy(index: int) -> Fallback:
    strategy = default_strategy_registry().build(SPECS[index])
    assert isinstance(strategy, Fallback)
    return strategy


def _same(index: int, raw: str) -> bool:
    strategy = _strategy(index)
    expected = oracle_fallback(strategy, raw)
    clean = sanitize_output(raw)
    return strategy.apply(raw, 1) == expected and strategy.apply_clean(clean, 1) == expected


# lines the fallback's helpers look at: diffs, match lists, tracebacks, captured sections,
# outlines, closing blocks, long lines, non-ASCII words
more_lines = st.sampled_from(
    [
        "diff --git a/x.py b/x.py", "@@ -1,3 +1,4 @@", "+added", "-removed", " context",
        "src/a.py:12: error: bad", "src/a.py:13:    x = 1", "src/b.py-14-  y", "--",
        'Traceback (most recent call last):', '  File "a.py", line 3, in f',
        "ValueError: bad value", "  more of the message", "Installing collected packages:",
        "----- Captured stdout call -----", "printed 1", "printed 2", "==== 3 failed ====",
        "root/", "  child", "/usr/include/linux", "Downloading thing 3 of 9",
        "Setting up libfoo (1.2)", "Get:1 http://x", "x" * 1200, "a b " * 300, "Téléchargement",
        "Übergänge 12", "\t\tdeep", "   ", "a:", "  b", "passed 12 in 3.1s", "=" * 20,
    ]
)
texts = st.lists(st.one_of(log_lines, more_lines), max_size=160).map("\n".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SPECS) - 1), texts)
def test_equals_previous_on_random_texts(index: int, raw: str) -> None:
    strategy = _strategy(index)
    expected = oracle_fallback(strategy, raw)
    assert strategy.apply(raw, 1) == expected
    assert strategy.apply_clean(sanitize_output(raw), 1) == expected


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SPECS) - 1), texts, st.integers(1, 40))
def test_equals_previous_whatever_the_pieces(index: int, raw: str, piece: int) -> None:
    # every piecewise step cut small: the raw text sanitized, the offsets taken, the lines
    # read in order, the lines counted, the repeats' templates, the classifier's windows
    with (
        mock.patch.object(sanitize, "_SANITIZE_CHUNK", piece),
        mock.patch.object(line_view, "_CHUNK", piece),
        mock.patch.object(line_view, "_ENCODE_CHUNK", piece),
        mock.patch.object(fallback, "_COUNT_CHUNK", piece),
        mock.patch.object(repeats, "_TEMPLATE_CHUNK", max(1, piece // 4)),
    ):
        assert _same(index, raw)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SPECS) - 1), tune_texts)
def test_equals_previous_on_tune_lines(index: int, raw: str) -> None:
    assert _same(index, raw)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(texts, tune_texts), st.integers(1, 300))
def test_classifier_equals_previous(text: str, window: int) -> None:
    # the classifier scans a window at a time: cut after every few bytes here
    data = as_line_data(text)
    with mock.patch.object(must_keep, "CLASSIFY_WINDOW", window):
        assert must_keep_classifier().line_runs(data) == old_line_runs(data)
        assert must_keep_line_numbers(text) == old_must_keep_line_numbers(text)


def test_a_window_never_cuts_a_block_of_changed_lines() -> None:
    # a block of added lines is the change (its lines are not protected one by one) only
    # while it is long: cut in two halves, each would be short and every line protected
    added = "\n".join(f"+    value_{number} = compute({number})" for number in range(40))
    text = f"diff --git a/t.py b/t.py\n@@ -1,2 +1,42 @@\n def test():\n{added}\n end"
    data = as_line_data(text)
    with mock.patch.object(must_keep, "CLASSIFY_WINDOW", 200):
        assert must_keep_classifier().line_runs(data) == old_line_runs(data)


@pytest.mark.parametrize("index", range(len(SPECS)))
def test_equals_previous_on_the_corpus(index: int) -> None:
    _assert_none_differ(functools.partial(_same, index))


@functools.lru_cache(maxsize=1)
def _filters_bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "filters.py"
    spec = importlib.util.spec_from_file_location("filters_bench_for_tests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("size", "seed"), [(30_000, 1), (200_000, 2), (1_500_000, 20)])
def test_equals_previous_on_generated_logs(size: int, seed: int) -> None:
    log = _filters_bench().generate_log(size, seed)
    assert _same(0, log)
    assert _same(2, log)


def test_the_corpus_is_there() -> None:
    assert sum(1 for _ in corpus().load_cases()) > 100
