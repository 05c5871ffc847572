"""Classes of fact the filters dropped in the output of pytest's plugins and options.

Each fixture is one real run captured for filters28 (the same bytes are tune outputs of the
corpus, ``bench/corpus/filters/outputs/pytest/f28-*``): a small package with failing, erroring,
skipped and flaky tests, run with pytest 9.2 and pytest-cov, pytest-randomly,
pytest-random-order, hypothesis, pytest-timeout, pytest-sugar, syrupy, pytest-django,
pytest-html, pytest-rerunfailures, pytest-xdist, pytest-split and their options. Every test
names the line a reader needs and checks it survives the default rules.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tooldeck.filters.engine import FilterEngine

FIXTURES = Path(__file__).parent / "fixtures"


@functools.lru_cache(maxsize=1)
def _engine() -> FilterEngine:
    return FilterEngine.from_settings()


def _kept(name: str, command: str, exit_code: int = 1) -> list[str]:
    raw = (FIXTURES / f"pytest_f28_{name}.txt").read_text("utf-8")
    return _engine().apply(command, raw, exit_code).output.split("\n")


def _holds(lines: list[str], fact: str) -> bool:
    return any(fact in line for line in lines)


# --- kinds of fact and their context (tooldeck.filters.fact_kinds, context, rulers) ---------


@pytest.mark.parametrize(
    ("name", "command", "fact"),
    [
        # coverage.py writing the report pytest-cov was asked for
        ("ledger_cov_html",
         ".venv/bin/pytest --cov=ledger --cov-report=html tests/test_money.py",
         "Coverage HTML written to dir htmlcov"),
        # pytest's --junitxml and pytest-html's --html: where the report went
        ("ledger_junitxml", ".venv/bin/pytest --junitxml=build/junit.xml tests/test_money.py",
         "generated xml file: /tmp/f28/ledger/build/junit.xml"),
        ("ledger_html_report", ".venv/bin/pytest --html=build/report.html tests/test_report.py",
         "Generated html report: file:///tmp/f28/ledger/build/report.html"),
    ],
)
def test_where_a_report_was_written_is_kept(name: str, command: str, fact: str) -> None:
    assert _holds(_kept(name, command), fact)


def test_the_verdict_of_a_coverage_threshold_is_kept() -> None:
    kept = _kept("ledger_cov_fail_under_reached",
                 ".venv/bin/pytest -q --cov=ledger --cov-fail-under=50 tests/test_money.py")
    assert _holds(kept, "Required test coverage of 50% reached. Total coverage: 63.81%")


def test_syrupy_unused_snapshots_and_how_to_clean_them_are_kept() -> None:
    kept = _kept("ledger_stepwise", ".venv/bin/pytest --sw -p no:randomly", 3)
    assert _holds(kept, "2 snapshots unused.")
    assert _holds(kept, "Re-run pytest with --snapshot-update to delete unused snapshots.")


def test_a_tb_line_failure_message_keeps_its_indented_lines() -> None:
    # --tb=line: the message's first line has the ``E``, the rest (a hypothesis example's
    # arguments, a diff a plugin drew) is indented under it up to the location line
    kept = _kept("ledger_tb_line_durations", ".venv/bin/pytest --tb=line --durations=5")
    for fact in ("    Failing test case: test_split_fair(", "        total=1,",
                 "        parts=2,", "        amount=Decimal('5.885'),", "      '1234.56 EUR'"):
        assert _holds(kept, fact), fact


def test_the_outcome_of_a_rerun_test_is_kept() -> None:
    # pytest-rerunfailures' -rR summary: the flaky test passed on its third run
    kept = _kept("ledger_reruns_rR_flaky",
                 ".venv/bin/pytest --reruns 2 -rR tests/test_flaky.py tests/test_store.py")
    assert "PASSED tests/test_flaky.py::test_flaky_rate" in kept
    assert "PASSED tests/test_store.py::test_slow_sync" in kept
