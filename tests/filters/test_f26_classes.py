"""Classes of fact the filters dropped on real outputs captured for filters26.

Each fixture is one real run on the filters26 machine: ``dpkg -l`` (its first 200 lines),
``pytest -q`` and ``pytest src -v`` on a small project with failing tests and doctests,
``pytest`` and ``pytest -v`` on one with pytest 9's subtests and unittest's ``subTest``,
``pytest`` with pytest-benchmark 5, ``pytest -n 2 -v --reruns 1`` (xdist 3.8,
pytest-rerunfailures 16).
"""

from __future__ import annotations

from tooldeck.filters.sanitize import strip_terminal

from .capturekit import capture, default_engine


def _received(name: str, command: str, exit_code: int) -> tuple[str, list[str]]:
    raw = capture(name)
    result = default_engine().apply(command, raw, exit_code)
    return result.output, strip_terminal(raw).split("\n")


def test_a_long_package_listing_keeps_every_row() -> None:
    # any row may be the package the model looks for: past 150 rows the listing used to keep
    # only its ends, and every row between was counted in one marker
    output, lines = _received("dpkg_list_200.txt", "dpkg -l", 0)
    rows = [line for line in lines if line.startswith("ii  ")]
    assert len(rows) > 150
    kept = set(output.split("\n"))
    assert [row for row in rows if row not in kept] == []


def test_a_long_package_listing_under_a_prefix_keeps_every_row() -> None:
    output, lines = _received("dpkg_list_200.txt", "sudo dpkg -l 2>&1 | tee dpkg.log", 0)
    middle = next(line for line in lines if line.startswith("ii  gpg-wks-client "))
    assert lines.index(middle) == 99
    assert middle in output.split("\n")


def test_pytest_progress_lines_holding_failures_are_kept() -> None:
    # ``pytest -q``: the progress lines say which tests failed, in the order they ran; past
    # the first lines of a long report they were omitted with the passing dots
    output, lines = _received("pytest_q_failing_progress.txt", "pytest -q", 1)
    progress = [line for line in lines if line.rstrip().endswith("%]") and "F" in line]
    assert len(progress) == 2
    shown = output.split("\n")
    for line in progress:
        dots = line.split(" [", 1)[0].rstrip()
        assert any(dots in kept for kept in shown), line


def test_a_failing_doctest_keeps_the_example_that_failed() -> None:
    # pytest quotes the docstring with numbered lines, then ``Expected:``/``Got:`` or
    # ``UNEXPECTED EXCEPTION:``; the example those are about was omitted with the docstring
    output, _ = _received("pytest_doctest_failures.txt", "pytest src -v", 1)
    shown = output.split("\n")
    assert "013     >>> add(2, 2)" in shown
    assert "022     >>> ratio(1, 0)" in shown
    # the docstring lines above the example are not facts
    assert "009 Add two numbers." not in shown


def test_a_failing_subtest_in_verbose_progress_is_kept() -> None:
    # pytest 9's subtests: ``SUBFAILED[n check] (n=3)`` names the failing subtest and its
    # parameters; it read as no failure word (``SUB`` glued to ``FAILED``)
    output, lines = _received("pytest_subtests_v.txt", "pytest -v", 1)
    failed = [line for line in lines if " SUBFAILED[" in line]
    assert len(failed) == 1
    assert any(failed[0].split("  ")[0] in kept for kept in output.split("\n"))


def test_progress_letters_with_passing_subtests_and_failures_are_kept() -> None:
    output, lines = _received("pytest_subtests.txt", "pytest", 1)
    progress = next(line for line in lines if line.startswith("proj2/tests/test_sub.py ."))
    assert "u" in progress and "F" in progress
    assert any(progress.split("  ")[0] in kept for kept in output.split("\n"))


def test_a_benchmark_table_is_the_result_and_is_kept() -> None:
    # pytest-benchmark prints its measurements as a table before the summary: every row was
    # omitted with the legend under it, and the run's result with them
    output, lines = _received("pytest_benchmark_table.txt", "pytest", 1)
    start = next(index for index, line in enumerate(lines) if line.startswith("Name (time in "))
    rows = [line for line in lines[start : start + 7] if line.startswith("test_")]
    assert len(rows) == 5
    shown = output.split("\n")
    assert lines[start] in shown
    assert all(row in shown for row in rows)
    assert not any(line.startswith("  OPS: Operations Per Second") for line in shown)


def test_a_rerun_of_a_flaky_test_is_kept() -> None:
    # pytest-rerunfailures under xdist: ``[gw0] [  3%] RERUN tests/…::test_flaky`` says the test
    # failed before it passed; it was omitted with the passes
    output, lines = _received("pytest_xdist_reruns_v.txt", "pytest -n 2 -v --reruns 1", 1)
    reruns = [line.rstrip() for line in lines if " RERUN " in line]
    assert len(reruns) == 2
    assert all(any(rerun in kept for kept in output.split("\n")) for rerun in reruns)


def test_xdist_3_8_worker_banners_are_noise() -> None:
    output, lines = _received("pytest_xdist_reruns_v.txt", "pytest -n 2 -v --reruns 1", 1)
    banners = [line for line in lines if line.startswith(("[gw0] linux Python", "[gw1] Python"))]
    assert len(banners) == 2
    assert not any(banner in output for banner in banners)
