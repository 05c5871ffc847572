"""The generic reduction: context kept with facts, data shown whole, omissions counted."""

from __future__ import annotations

from typing import Any

import pytest

from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.fallback import FallbackParams, is_data
from tooldeck.filters.omissions import shortened
from tooldeck.filters.registry import default_strategy_registry

PAD = " " + "." * 70


def reduce(text: str, exit_code: int | None = 1, **params: Any) -> list[str]:
    strategy = default_strategy_registry().build({"type": "fallback", **params})
    return strategy.apply(text, exit_code).output.split("\n")


def test_the_package_an_error_belongs_to_stays_with_it() -> None:
    lines = ["Collecting requests", *[f"  Using cached dep{n}.whl{PAD}" for n in range(30)],
             "Collecting mysqlclient", *[f"  Building step {n}{PAD}" for n in range(30)],
             "  error: subprocess-exited-with-error", "Done"]
    out = reduce("\n".join(lines))
    assert out.index("Collecting mysqlclient") < out.index("  error: subprocess-exited-with-error")


def test_a_warning_keeps_the_test_that_raised_it_and_the_code_that_warned() -> None:
    # pytest's warnings summary: test id, then Python's warning record and its source line
    lines = [*[f"tests/test_a.py::test_{n} PASSED{PAD}" for n in range(30)],
             "=== warnings summary ===",
             "tests/test_models.py::test_parse_legacy_amt",
             "  tests/test_models.py:15: DeprecationWarning: 'amt' is deprecated",
             '    e = parse_entry({"amt": "1.50"})', "",
             "tests/test_models.py::test_warns_on_amt[2]",
             "  tests/test_models.py:69: DeprecationWarning: 'amt' is deprecated",
             '    parse_entry({"amt": "1"})', "",
             *[f"tests/test_b.py::test_{n} PASSED{PAD}" for n in range(30)], "1 passed"]
    out = reduce("\n".join(lines))
    for line in lines[31:39]:
        if line:
            assert line in out



def test_a_warning_keeps_every_test_and_file_listed_above_it() -> None:
    # pytest lists every test that raised a warning (up to nine), or one line per file with
    # its count; only the nearest of them was kept (filters18, on pytest outputs captured
    # for the tune half)
    heading = ["tests/test_price.py::test_legacy_total_many[items0]",
               "tests/test_price.py::test_legacy_total_many[items1]",
               "tests/test_price.py::test_legacy_total_many[items2]"]
    counts = ["tests/test_models.py: 12 warnings", "tests/test_api.py: 3 warnings"]
    lines = [*[f"tests/test_a.py::test_{n} PASSED{PAD}" for n in range(30)],
             "=== warnings summary ===", *heading,
             "  tests/test_price.py:53: DeprecationWarning: legacy_total is deprecated",
             "    assert legacy_total(items) == sum(items)", "", *counts,
             "  src/models.py:8: UserWarning: price table is stale",
             "    warnings.warn(msg)", "",
             *[f"tests/test_b.py::test_{n} PASSED{PAD}" for n in range(30)], "1 passed"]
    out = reduce("\n".join(lines))
    assert [line for line in heading + counts if line not in out] == []
    assert "    warnings.warn(msg)" in out  # the code that warned, under its record
    assert "tests/test_a.py::test_0 PASSED" + PAD in out  # the first line, not the run
    assert "tests/test_a.py::test_20 PASSED" + PAD not in out  # a passing test: no heading


def test_the_run_above_an_error_is_not_kept_with_it() -> None:
    # only a warning in Python's format has a heading of tests: pip's other packages above
    # the one whose build failed stay counted
    lines = [*[f"Collecting dep{n}" for n in range(30)], "Collecting mysqlclient",
             "  error: subprocess-exited-with-error", *[f"step {n}{PAD}" for n in range(30)]]
    out = reduce("\n".join(lines))
    assert "Collecting mysqlclient" in out and "Collecting dep20" not in out

def test_what_a_colon_line_introduces_stays_with_it() -> None:
    lines = [*[f"Resolving dependency {n}{PAD}" for n in range(30)],
             "ERROR: Cannot install flask==3.1.3 and werkzeug==2.0.3", "",
             "The conflict is caused by:", "    The user requested werkzeug==2.0.3",
             "    flask 3.1.3 depends on werkzeug>=3.1.0", "", "To fix this you could try to:"]
    out = reduce("\n".join(lines))
    assert "    The user requested werkzeug==2.0.3" in out


def test_an_exception_message_after_a_traceback_is_kept_whole() -> None:
    lines = [*[f"collecting step {n}{PAD}" for n in range(30)],
             "Traceback (most recent call last):",
             '  File "<string>", line 27, in find_package_name',
             "Exception: Can not find valid pkg-config name.",
             "Specify MYSQLCLIENT_CFLAGS and MYSQLCLIENT_LDFLAGS env vars manually", "", "end"]
    out = reduce("\n".join(lines))
    assert "Specify MYSQLCLIENT_CFLAGS and MYSQLCLIENT_LDFLAGS env vars manually" in out


def test_every_stretch_is_counted_with_an_example() -> None:
    lines = [*[f"Downloading dep{n}.whl" for n in range(100)], "error: could not compile"]
    out = reduce("\n".join(lines))
    assert out[-1] == "error: could not compile"
    marker = next(line for line in out if line.startswith("… "))
    hidden = 100 - sum(1 for line in out if line.startswith("Downloading"))
    assert marker == f'… {hidden} lines like "Downloading …" omitted'


def test_a_stretch_of_layout_is_dropped_without_a_marker() -> None:
    lines = [*[f"y{n}" for n in range(30)], "error: a", *(["", "=" * 40] * 20), "error: b",
             *[f"x{n}" for n in range(30)]]
    out = reduce("\n".join(lines))
    at = out.index("error: a")
    assert out[at + 1] == "error: b"


def test_a_long_kept_line_keeps_its_ends() -> None:
    blob = "error: " + "A" * 5000 + " THE END"
    out = reduce("\n".join([*[f"step {n}" for n in range(30)], blob]))
    assert out[-1].startswith("error: AAAA") and out[-1].endswith("AAAA THE END")
    kept, omitted = out[-1].split("…[")[0] + out[-1].split("]…")[1], out[-1].split("…[")[1]
    assert omitted.startswith(f"{len(blob) - len(kept)} characters omitted") and len(kept) <= 600


def test_data_is_shown_whole_up_to_its_budget_then_its_ends() -> None:
    budget = FallbackParams().data_lines
    listing = [f"pkg-{n}==1.{n}.0" for n in range(budget)]
    assert reduce("\n".join(listing), 0) == listing
    longer = [f"pkg-{n}==1.{n}.0" for n in range(budget + 1)]
    out = reduce("\n".join(longer), 0)
    assert out[:20] == longer[:20] and out[-20:] == longer[-20:] and len(out) == 41


def test_a_report_is_not_data() -> None:
    narrated = [f"Downloading dep{n}.whl" for n in range(40)]
    assert not is_data(narrated, set())
    failing = [*[f"line {n}" for n in range(40)], "error: boom"]
    assert not is_data(failing, {40})
    assert is_data(["WARNING: apt does not have a stable CLI interface.",
                    *[f"pkg{n}/stable 1.{n} amd64" for n in range(40)]], {0})


@pytest.mark.parametrize("output", ["report", "listing"])
def test_a_rule_says_what_its_output_is(output: str) -> None:
    listing = [f"./src/file{n}.py" for n in range(100)] + ["find: './x': Permission denied"]
    out = reduce("\n".join(listing), 1, output=output)
    assert (out == listing) is (output == "listing")


def test_a_long_diff_keeps_every_file_and_hunk_header() -> None:
    diff: list[str] = []
    for f in range(40):
        diff += [f"diff --git a/f{f}.py b/f{f}.py", f"--- a/f{f}.py", f"+++ b/f{f}.py",
                 "@@ -1,30 +1,30 @@", *[f"-old {f} {n}" for n in range(30)],
                 *[f"+new {f} {n}" for n in range(30)]]
    raw = "\n".join(diff)
    out = FilterEngine.from_settings().apply("git diff", raw, 0).output.split("\n")
    assert [line for line in out if line.startswith("diff --git")] == [
        f"diff --git a/f{f}.py b/f{f}.py" for f in range(40)
    ]
    assert "-old 20 0" in out and "+new 20 29" in out  # the ends of each run
    assert len(out) < len(diff) / 3


def test_an_outlined_hunk_keeps_a_changed_line_its_marker_would_not_shorten() -> None:
    diff: list[str] = []
    for f in range(40):
        diff += [f"diff --git a/f{f}.py b/f{f}.py", f"--- a/f{f}.py", f"+++ b/f{f}.py",
                 "@@ -1,30 +1,30 @@", *[f" context {f} {n}" for n in range(20)],
                 f"-old {f} a", f"-old {f} b", f"-old {f} c",
                 *[f"+new {f} {n}" for n in range(30)]]
    out = FilterEngine.from_settings().apply("git diff", "\n".join(diff), 0).output
    assert "-old 20 b" in out.split("\n")  # the middle of a run of three, in an outlined hunk
    assert "… 20 lines omitted: 0 files, 0 hunks, 0 added and 0 removed lines …" in out


def test_an_outlined_hunk_keeps_its_file_name_and_protected_lines_in_place() -> None:
    # isort --check-only --diff: an error line, then a diff not made by git, per file
    diff: list[str] = []
    for f in range(40):
        diff += [f"ERROR: /src/m{f}.py Imports are incorrectly sorted and/or formatted.",
                 f"--- /src/m{f}.py:before", f"+++ /src/m{f}.py:after", "@@ -1,30 +1,30 @@",
                 *[f"-import old{f}_{n}" for n in range(12)],
                 *[f"+import new{f}_{n}" for n in range(12)]]
    out = FilterEngine.from_settings().apply("isort --diff src", "\n".join(diff), 1).output
    lines = out.split("\n")
    at = lines.index("ERROR: /src/m20.py Imports are incorrectly sorted and/or formatted.")
    assert lines[at + 1 : at + 4] == ["--- /src/m20.py:before", "+++ /src/m20.py:after",
                                      "@@ -1,30 +1,30 @@"]
    assert "kept from the unfiltered output" not in out


def test_a_protected_blob_is_shown_once_by_its_ends() -> None:
    blob = "".join(f"Q29udGVudC1UeXBl{n:04d}" for n in range(400))  # base64, 8,000 chars
    lines = [*[f"  # resource.r{n} will be updated in-place{PAD}" for n in range(40)],
             f'      ~ user_data = "{blob}" -> (known after apply)',
             *[f"        id = \"i-{n:08d}\"{PAD}" for n in range(40)],
             "Plan: 0 to add, 1 to change"]
    out = FilterEngine.from_settings().apply("terraform plan", "\n".join(lines), 0).output
    assert blob not in out  # not put back whole after the reduction showed its ends
    assert out.count("characters omitted]…") == 1
    assert "kept from the unfiltered output" not in out


def test_a_long_line_of_words_is_a_list_of_facts_and_stays_whole() -> None:
    installed = "Successfully installed " + " ".join(f"pkg{n}-1.{n}.0" for n in range(150))
    lines = [*[f"Collecting pkg{n}{PAD}" for n in range(60)], installed]
    out = reduce("\n".join(lines), 0)
    assert installed in out


def test_a_text_flattened_with_encoded_line_breaks_is_shown_by_its_ends() -> None:
    # GitHub Actions' terraform wrapper echoes the whole stdout again on one debug line,
    # its line breaks percent-encoded: a second copy of what the output already shows
    plan = [f"  # aws_instance.web[{n}] will be created{PAD}" for n in range(60)]
    summary = "Plan: 60 to add, 0 to change, 0 to destroy."
    echo = "::debug::stdout: " + "%0A".join([*plan, summary])  # protected: it holds counts
    lines = [*plan, summary, echo, "::debug::exitcode: 0"]
    out = FilterEngine.from_settings().apply("terraform plan", "\n".join(lines), 0).output
    assert echo not in out
    assert out.count("characters omitted]…") == 1
    assert summary in out.split("\n")
    # a long line of words with a few encoded breaks is still a list of facts
    few = "Successfully installed " + " ".join(f"pkg{n}-1.0%0A" if n < 5 else f"pkg{n}-1.0"
                                                for n in range(150))
    assert shortened(few) == few


def test_a_short_output_in_characters_is_never_cut() -> None:
    text = "\n".join(f"Compiling crate{n}" for n in range(60))  # 60 lines, under 2 KB
    assert FilterEngine.from_settings().apply("builder", text, 1).output == text
