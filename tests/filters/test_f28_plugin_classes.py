"""Classes of fact the filters dropped in the output of pytest's plugins and options.

Each fixture is one real run captured for filters28 (the same bytes are tune outputs of the
corpus, ``bench/corpus/filters/outputs/pytest/f28-*``): a small package with failing, erroring,
skipped and flaky tests, run with pytest 9.2 and pytest-cov, pytest-randomly,
pytest-random-order, hypothesis, pytest-timeout, pytest-sugar, syrupy, pytest-django,
pytest-html, pytest-rerunfailures, pytest-xdist, pytest-split and their options. Every test
names the line a reader needs and checks it survives the default rules.
"""

from __future__ import annotations

import pytest

from .capturekit import capture, default_engine


def _kept(name: str, command: str, exit_code: int = 1) -> list[str]:
    raw = capture(f"pytest_f28_{name}.txt")
    return default_engine().apply(command, raw, exit_code).output.split("\n")


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



def test_a_single_benchmark_s_row_is_kept() -> None:
    # pytest-benchmark prints no ratio column ``(1.0)`` when it measured one benchmark
    kept = _kept("ledger_benchmark_one", ".venv/bin/pytest benches/test_bench.py tests")
    assert _holds(kept, "test_split_speed      276.9499  642,121.2000  582.4645")


def test_a_benchmark_comparison_keeps_its_rows_and_what_it_compares_against() -> None:
    # --benchmark-compare names each row's run (``(NOW)``, ``(0001_unknown)``) after the test
    kept = _kept("ledger_benchmark_compare", ".venv/bin/pytest benches --benchmark-compare")
    assert _holds(kept, "Comparing against benchmarks from: Linux-CPython-3.11-64bit/0001_unknown_")
    for row in ("test_discount_speed (0001_unknown)      99.9000 (1.0)",
                "test_format_speed (NOW)                931.0024 (9.32)"):
        assert _holds(kept, row), row

# --- the pytest rule: what its plugins print that the classifier does not know -------------


@pytest.mark.parametrize(
    ("name", "command", "facts"),
    [
        # pytest-django's header names the settings module the run used
        ("django_vv_x", ".venv/bin/pytest -vv -x --create-db -p no:randomly",
         ["django: version: 5.2.19, settings: site_cfg.settings (from ini)"]),
        # pytest-random-order states the bucket and the seed it chose
        ("ledger_random_order_seed", ".venv2/bin/pytest --random-order-seed=4242 tests",
         ["Using --random-order-bucket=module", "Using --random-order-seed=4242"]),
        # pytest-split tags its lines with its name: which group of how many ran
        ("ledger_splits_3_group_2", ".venv3/bin/pytest --splits 3 --group 2",
         ["[pytest-split] Running group 2/3 (estimated duration: 18.00s)"]),
    ],
)
def test_a_plugin_s_report_header_line_is_kept(name: str, command: str, facts: list[str]) -> None:
    kept = _kept(name, command)
    for fact in facts:
        assert fact in kept, fact


def test_pytest_sugar_s_list_of_failing_tests_with_their_place_is_kept() -> None:
    # ten failing tests: a block of ``- `` lines longer than a changed block is not
    # protected one by one by the classifier
    kept = _kept("ledger_sugar_tty", ".venv2/bin/pytest")
    listed = [line for line in kept if line.startswith("         - tests/")]
    assert len(listed) == 10
    assert "         - tests/test_money.py:39 test_format_thousands" in listed


def test_pytest_sugar_heads_each_failing_test_with_its_name() -> None:
    # sugar draws the heading's rulers with horizontal bars (U+2015), not underscores
    kept = _kept("ledger_sugar_tty", ".venv2/bin/pytest")
    for name in ("test_format_thousands", "test_parse_fraction", "test_fetch_unknown_rate"):
        assert f"\u2015\u2015\u2015 {name} \u2015\u2015\u2015" in kept, name


def test_each_test_of_hypothesis_statistics_is_named() -> None:
    kept = _kept("ledger_hypothesis_stats_tb_short",
                 ".venv/bin/pytest tests/test_props.py --tb=short --hypothesis-show-statistics")
    for test in ("test_split_total", "test_split_fair", "test_to_cents_roundtrip"):
        assert f"tests/test_props.py::{test}:" in kept, test


def test_setup_show_keeps_each_fixture_set_up_and_each_test_s_fixtures() -> None:
    kept = _kept("ledger_setup_show_q", ".venv/bin/pytest --setup-show -q tests/test_store.py")
    assert _holds(kept, "SETUP    F mocker (fixtures used: pytestconfig)")
    assert _holds(kept, "SETUP    F tmp_path (fixtures used: tmp_path_factory)")
    for test in ("test_fetch_unknown_rate", "test_purge_calls_clear", "test_slow_sync"):
        assert _holds(kept, f"tests/test_store.py::{test} (fixtures used:"), test
    # the teardowns mirror the setups: counted, not shown
    assert not _holds(kept, "TEARDOWN F mocker")
