"""The kinds of fact issue 13 added, and the protection that depends on the whole output."""

from __future__ import annotations

import pytest

from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.must_keep import must_keep_classifier, must_keep_line_numbers
from tooldeck.filters.repeats import REPEATS_FROM_LINES, line_template


@pytest.mark.parametrize(
    "line",
    [
        "not ok 3 - when negative option then value is false",  # TAP
        "✖ when combo option and negated then value is false",  # node:test's spec reporter
        "\u2139 tests 58",  # node:test's summary
        "==8228==    definitely lost: 96 bytes in 2 blocks",  # valgrind
        "symbol  : method getTotalRabate()",  # javac's fields under an error
        "11:02:14  location: interface at.biac.offer.model.IMotorContractComponent",  # stamped
        "e: /src/App.kt: (12, 5): Unresolved reference: foo",  # kotlinc
        "SC2086 (info): Double quote to prevent globbing and word splitting.",
        "The conflict is caused by:",
        "    flask 3.1.3 depends on werkzeug>=3.1.0",
        "find: './secret': Permission denied",
        "Exception: Can not find valid pkg-config name.",
        " + httpx==0.28.1",
        "-- The C compiler identification is GNU 12.2.0",
        "Apache Maven 3.5.4 (1edded0938998edf8bf061f1ceb3cfdeccf443fe)",
        "    location: '/tmp/c3/commander.js/tests/options.bool.test.js:23:3'",
        "  File \"/srv/app/src/models.py\", line 26, in parse_entry",
        "==8228==    by 0x109390: main (inventory.c:36)",
        "npm error code EUSAGE",
        "Received function did not throw",
        "   --> httpx/_client.py:112:5",  # ruff's and rustc's location under a finding
        "[INFO] Compiling 125 source files to /srv/app/target/test-classes",  # maven's count
        "[gw0] node down: Not properly terminated",  # an xdist worker died
        "replacing crashed worker gw0",
        "INTERNALERROR> Traceback (most recent call last):",  # pytest itself crashed
        'src/a.py:5: note: Revealed type is "builtins.int"',  # reveal_type's answer
        "ok 3 - fails on bad input # SKIP needs a network",  # a skip, with its reason
        "e83d4c9 Fix error handling in the client (#12)",  # a commit, not a blamed line
        "\u2714 Compiled successfully in 3.2s",  # a build's outcome, not a test
        "___ test_write_timeout[trio] ___",  # pytest's heading of a failing test's block
        # the heading of a test whose name is too long for the terminal: one underscore a side
        "_ test_report_url_names_the_year[https://api.example.com:8443-123456-2024] _",
        "  1 passing (17ms)",  # mocha's counts
        "  2 pending",
        "#0  0x000055555555527d in load_items (json=0x55555555b018) at inventory.c:16",  # gdb
        "3f1c  app:1.2  \"serve\"  2 hours ago  Exited (137) 5 minutes ago  web",  # docker ps -a
        "9a2b  db:15  \"postgres\"  2 hours ago  Up 2 hours (unhealthy)  db",
        # not quoted statements: a failing line, an explanation, a comparison, a finding
        ">       raise HTTPStatusError(message, request=request, response=self)",
        "E       expected = 3 but got 4",
        "    expected == actual failed",
        "    expected: 'cart'",
        "  error = connection refused",
    ],
)
def test_new_kinds_of_fact_are_protected(line: str) -> None:
    assert must_keep_classifier().is_must_keep(line)


@pytest.mark.parametrize(
    "line",
    [
        "./starlette/middleware/errors.py",  # a file name, not an error
        "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _",  # pytest's ruler between two frames
        "3f1c  app:1.2  \"serve\"  2 hours ago  Exited (0) 5 minutes ago  web",  # exited cleanly
        "#3  0x00007ffff7c29d90 in __libc_start_call_main () from /lib/libc.so.6",  # no source
        "src/warnings.py",
        "npm error",  # npm's stream tag alone
        "npm error   --install-strategy",  # its usage text
        '  File "/app/.venv/lib/python3.11/site-packages/_pytest/runner.py", line 341, in f',
        "    at Promise.then.completed (node_modules/jest-circus/build/utils.js:298:28)",
        "   12 |   throw new TypeError(`bad qty: ${s}`);",  # a code frame quotes source
        "76\t    assert major >= 1",  # bandit quotes the code under a finding
        # the call Python quotes under the warning it reports
        "  warnings.warn(PytestDeprecationWarning(_DEFAULT_FIXTURE_LOOP_SCOPE_UNSET))",
        "317\t        raise ValueError(msg)",
        "E        +  where 0.5 = div(1, 2)",  # pytest unfolding a value
        "src/app.py:9: note: See https://mypy.rtfd.io/en/stable/_refs.html#code-attr-defined",
        "a.py:51:32: note: Use https://github.com/hauntsaninja/no_implicit_optional to upgrade",
        # a line of git blame quotes source
        '0ec7f713d (pgjones   2023-06-11 15:03:45 +0100  405)     raise RuntimeError("no folder")',
        "^0ec7f71 src/a.py (Ann Lee 2023-06-11 15:03:45 +0100 12) error = connect()",
        # a passing test, for the words of its name
        "  \u2713 reports errors on bad input (2 ms)",
        "    \u2714 warns when the option is deprecated (0.52ms)",
        "ok 12 - fails over to the next host",
        "# Subtest: error handling",
        # Python statements a traceback quotes, for the words they hold
        "        expected = '\\x1b[1mC:\\\\Users\\x1b[0m In function main: error'",
        "    map = {TimeoutError: ConnectTimeout, OSError: ConnectError}",
        "        except Exception as exc:  # noqa: PIE786",
        "                except KeyError:",
        '                    hook_error = RuntimeError("Failed to process unraisable exception")',
        # the head of a function a traceback quotes, and the frame arguments above it
        '    @pytest.mark.parametrize("qty,unit,expected", [(2, 0.1, 0.2), (7, 0.15, 1.06)])',
        "    def test_price_rounding(qty, unit, expected):",
        "        async def test_error_page(client) -> None:",
        "    class TestFailures:",
        "    @pytest.fixture",
        "qty = 7, unit = 0.15, expected = 1.06",
        "total = 100.0, code = 'VIP'",
        "exc = ValueError('bad input')",
        # the frames of a Rust backtrace under a panic, in the project or not
        "   3: core::result::unwrap_failed",
        "   4: inventory::tests::average_empty",
        "  12: <F as core::ops::function::FnOnce<()>>::call_once",
        "             at ./src/lib.rs:80:50",
        "             at /rustc/59807616e1fa/library/core/src/panicking.rs:80:14",
    ],
)
def test_what_is_not_a_fact(line: str) -> None:
    assert not must_keep_classifier().is_must_keep(line)


def numbered(lines: list[str]) -> set[int]:
    return must_keep_line_numbers("\n".join(lines))


def test_a_fact_printed_over_and_over_is_protected_at_its_ends() -> None:
    errors = [f"ERROR tests/test_api.py::test_case_{n}" for n in range(60)]
    protected = numbered([*errors, "60 errors in 3.2s"])
    assert protected == {0, 59, 60}
    assert line_template(errors[5]) == "ERROR _"


def test_a_short_output_keeps_every_repeated_fact() -> None:
    errors = [f"ERROR tests/test_api.py::test_case_{n}" for n in range(REPEATS_FROM_LINES - 5)]
    assert numbered(errors) == set(range(len(errors)))


def test_a_line_printed_again_word_for_word_is_protected_once() -> None:
    warning = "/venv/lib/python3.11/site-packages/x.py:44: PytestBenchmarkWarning: disabled"
    assert numbered([warning, "chatter", warning, "more chatter"]) == {0}


def test_the_same_message_about_another_place_is_kept() -> None:
    lines = ["error[E0308]: mismatched types", " --> src/main.rs:5:18",
             "error[E0308]: mismatched types", " --> src/main.rs:6:32"]
    assert numbered(lines) == {0, 1, 2, 3}


def test_installed_packages_are_entries_not_repeats() -> None:
    packages = [f" + package-{n}=={n}.0.1" for n in range(80)]
    assert numbered(packages) == set(range(80))


def test_changed_lines_are_protected_while_few_and_outside_long_blocks() -> None:
    diff = ["    - Expected  - 1", "    + Received  + 0", "", "    -   \"c\": Array [],"]
    assert numbered(diff) == {0, 1, 3}
    created = ["  # aws_instance.web will be created", '  + resource "aws_instance" "web" {',
               *[f"      + attr_{n} = (known after apply)" for n in range(30)]]
    # the heading names the resource and what happens to it: a fact; its attributes are not
    assert numbered(created) == {0}


def test_listing_kinds_are_limited_one_by_one() -> None:
    roots = [f"├─┬ dep-{n}@1.{n}.0" for n in range(12)]
    nested = [f"│ ├── sub-{n}@2.{n}.0" for n in range(60)]
    lines = [line for pair in zip(roots, [*nested[:12]], strict=True) for line in pair]
    lines += nested[12:]
    protected = numbered(lines)
    assert {index for index, line in enumerate(lines) if line.startswith("├")} <= protected


def test_a_library_frame_is_not_protected_a_project_frame_is() -> None:
    lines = ["Traceback (most recent call last):",  # its ':' keeps the line after it
             '  File "/srv/app/cli.py", line 3, in main',
             '  File "/srv/.venv/lib/python3.11/site-packages/pydantic/main.py", line 9, in v',
             '  File "/srv/app/models.py", line 26, in parse_entry',
             "ValueError: bad"]
    assert numbered(lines) == {0, 1, 3, 4}


def test_time_stamps_opening_each_line_are_read_past() -> None:
    lines = [f"11:02:{n:02d}  [INFO] step {n}" for n in range(10)]
    lines[4] = "11:02:04  symbol  : method getTotalRabate()"
    assert numbered(lines) == {4}


def test_every_location_under_a_repeated_finding_is_kept() -> None:
    """ruff's full format names the place on the line after the finding: each one is a fact."""
    lines: list[str] = []
    for row in range(10, 40):
        lines += ["S101 Use of `assert` detected", f"   --> src/app/models.py:{row}:5",
                  "    |", f"{row} |     assert x", "    |     ^^^^^^", "    |", ""]
    protected = numbered(lines)
    arrows = {index for index, line in enumerate(lines) if "-->" in line}
    assert len(arrows) == 30
    assert arrows <= protected


def test_every_finding_of_a_security_linter_keeps_its_location() -> None:
    """bandit names each finding's place on a ``Location:`` line under it (filters18: the
    generic reduction read bandit's report as data and cut 106 of its findings' places)."""
    lines = ["Run started:2026-11-28 16:30:01.123456", ""]
    for row in range(10, 40):
        lines += ["-" * 50,
                  ">> Issue: [B101:assert_used] Use of assert detected.",
                  "   Severity: Low   Confidence: High",
                  "   CWE: CWE-703 (https://cwe.mitre.org/data/definitions/703.html)",
                  f"   Location: src/flask/app.py:{row}:8",
                  f"{row}\t        assert meth is not None", ""]
    protected = numbered(lines)
    places = {index for index, line in enumerate(lines) if "Location:" in line}
    assert len(places) == 30 and places <= protected
    classifier = must_keep_classifier()
    assert classifier.is_must_keep(
        ">> Issue: [B105:hardcoded_password_string] Possible hardcoded password: 'None'")
    assert not classifier.is_must_keep(
        "   Location: /srv/.venv/lib/python3.11/site-packages/flask/app.py:211:12")
    assert not classifier.is_must_keep("   Severity: Low   Confidence: High")


def test_a_location_arrow_into_a_library_is_not_protected() -> None:
    arrow = "  --> /srv/.venv/lib/python3.11/site-packages/httpx/_client.py:12:5"
    assert not must_keep_classifier().is_must_keep(arrow)
    assert must_keep_classifier().is_must_keep("  --> httpx/_client.py:12:5")


@pytest.mark.parametrize(
    "line",
    [
        "==7977==  Address 0x20 is not stack'd, malloc'd or (recently) free'd",  # valgrind
        "==7977== Invalid read of size 8",
        "==7977== Conditional jump or move depends on uninitialised value(s)",
        "[*] 369 fixable with `--fix` (280 unsafe fixes available with `--fix --unsafe-fixes`).",
        "107 unsafe fixes available with `--fix --unsafe-fixes`.",
        "-- Configuring done",  # cmake
        "-- Build files have been written to: /tmp/c3/cJSON/build",
        "The following NEW packages will be installed:",  # apt
        "After this operation, 577 MB of additional disk space will be used.",
        "    Found existing installation: packaging 26.2",  # pip replacing a package
        "  Input should be a valid decimal [type=decimal_parsing, input_value='x', input_type=str]",
    ],
)
def test_memory_errors_fix_counts_and_run_outcomes_are_facts(line: str) -> None:
    assert must_keep_classifier().is_must_keep(line)


@pytest.mark.parametrize(
    "line",
    [
        "TOTAL                               4618   1310    72%",  # coverage report
        "total 264",  # ls -l
        "(25 rows)",  # psql
        "Total reclaimed space: 0B",  # docker prune
        "would reformat /tmp/pyproj/src/inventory/report.py",  # black --check
        "reformatted /tmp/pyproj-black/src/inventory/__init__.py",
        "Oh no! 💥 💔 💥",
        "All done! ✨ 🍰 ✨",
        "Verify return code: 18 (self-signed certificate)",  # openssl s_client
        "==7977== Process terminating with default action of signal 11 (SIGSEGV)",
        "Program received signal SIGSEGV, Segmentation fault.",  # gdb
        "==7977==     in use at exit: 522 bytes in 16 blocks",  # valgrind's heap summary
        "==7977==   total heap usage: 3 allocs, 3 frees, 1,100 bytes allocated",
        "httpx/_client.py                     526    388    26%   66-69, 78-80, 87",  # coverage.py
        "src/app/models.py    120     60     40     12    48.5%",  # with branches
        "All files |   85.71 |    66.67 |     100 |   85.71 |",  # istanbul (nyc, jest, c8)
        "ok  \tgithub.com/gorilla/mux\t0.012s",  # go test's package summary
        "OK",  # unittest
        "OK (skipped=1)",
        " index.js |   85.71 |    66.67 |     100 |   85.71 | 12-14",
    ],
)
def test_table_totals_formatter_verdicts_and_signals_are_facts(line: str) -> None:
    assert must_keep_classifier().is_must_keep(line)


@pytest.mark.parametrize(
    "line",
    [
        "Total 3 (delta 2), reused 0 (delta 0), pack-reused 0",  # git's object counts
        "> Task :compileJava",  # gradle's task lines
        "totally 3 apples",
        "| name | 12 | 13 |",  # a markdown table of numbers is not a coverage report
        "    ok 12 - when cli of a and commands [\"ab\"] then suggest ab",  # TAP: a passing test
        "    at Test.runInAsyncScope (node:async_hooks:206:9)",  # a frame inside node
    ],
)
def test_counts_that_are_not_totals_stay_unprotected(line: str) -> None:
    assert not must_keep_classifier().is_must_keep(line)


@pytest.mark.parametrize(
    "line",
    [
        "starlette/requests.py:191:async def empty_receive() -> NoReturn:",
        "starlette/responses.py:156:    async def __call__(self, scope, receive, send) -> None:",
        "src/app.py:12:\tif ready:",
    ],
)
def test_a_search_match_is_a_line_of_the_file_not_a_location(line: str) -> None:
    assert not must_keep_classifier().is_must_keep(line)


@pytest.mark.parametrize(
    "line",
    [
        "src/app.py:12:5: F401 `os` imported but unused",
        "src/app.py:12: error: Incompatible return value type",
        "tests/client/test_proxies.py:108: ",
        "main_test.go:23: got 3; want 4",
        "src/app.py:12:    raise ValueError('bad input')",  # a match that says error stays
    ],
)
def test_a_location_with_its_message_is_still_protected(line: str) -> None:
    assert must_keep_classifier().is_must_keep(line)


def test_a_pytest_failure_keeps_its_evidence_and_counts_the_quoted_source() -> None:
    # pytest's long traceback (the default): the frame's arguments, the test's decorator and
    # its def line are quoted code; the '>' line, the 'E' lines and the location are the
    # failure. Each failure's quoted lines fold into one omission with their exact count.
    def block(n: int) -> list[str]:
        return [
            f"___ test_price_rounding[{n}-0.15-1.06] ___",
            "",
            f"qty = {n}, unit = 0.15, expected = 1.06",
            "",
            '    @pytest.mark.parametrize("qty,unit,expected", [(2, 0.1, 0.2), (7, 0.15, 1.06)])',
            "    def test_price_rounding(qty, unit, expected):",
            f">       assert price(qty, unit) == expected + {n}",
            f"E       assert 1.0{n} == 1.06",
            "",
            f"tests/test_price.py:{n}3: AssertionError",
        ]
    blocks = [block(n) for n in range(1, 9)]
    summary = "8 failed, 9 passed in 0.12s"
    text = "\n".join(["=== FAILURES ===", *(line for b in blocks for line in b), summary])
    out = FilterEngine.from_settings().apply("pytest", text, 1).output.split("\n")
    for lines in blocks[1:]:  # (the first sits in the output's first lines, kept whole)
        at = out.index(lines[0])
        # (the blank lines between count: the marker stands for exactly what it hides)
        assert out[at + 1] == f'… 5 lines omitted, like "qty = {lines[2][6]}, unit = 0.15, e…"'
        assert out[at + 2 : at + 4] == lines[6:8]
        assert out[at + 4] == lines[9]
    assert summary in out
    assert sum(line.startswith(("qty = ", "    def ", "    @")) for line in out) <= 3


def test_a_panic_keeps_its_location_and_message_not_its_backtrace() -> None:
    lines = [
        "---- tests::take_too_many stdout ----",
        "thread 'tests::take_too_many' (2638) panicked at src/lib.rs:28:20:",
        "attempt to subtract with overflow",
        "stack backtrace:",
        "   3: core::panicking::panic_const::panic_const_sub_overflow",
        "             at /rustc/59807616e1fa/library/core/src/panicking.rs:175:17",
        "   4: inventory::tests::take_too_many",
        "             at ./src/lib.rs:71:57",
        "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
    ]
    assert numbered(lines) == {1, 2}


@pytest.mark.parametrize(
    "line",
    [
        "  # aws_s3_bucket.logs will be destroyed",  # a plan's action on a resource
        '  # google_compute_instance.vm["a"] must be replaced',
        "  # azurerm_dns_zone.main will be updated in-place",
    ],
)
def test_a_plans_action_on_a_resource_is_a_fact(line: str) -> None:
    assert must_keep_classifier().is_must_keep(line)


def test_a_comment_that_names_no_action_is_not_a_plan() -> None:
    assert not must_keep_classifier().is_must_keep("  # aws_s3_bucket.logs is tagged")


def test_listed_definitions_package_steps_states_and_durations_are_entries() -> None:
    lines = [
        "db_session [module scope] -- tests/conftest.py:41",  # a fixture and where it is
        "client -- tests/conftest.py:12",
        "Unpacking jq (1.6-2.1) ...",  # the step before: the same package again
        "Setting up jq (1.6-2.1) ...",
        "Removing nano (7.2-1) ...",
        "ii  htop        3.2.2-2     amd64   interactive processes viewer",  # installed
        "hi  tmux        3.3a-3      amd64   terminal multiplexer",  # held
        "rc  exim4-base  4.96-15     amd64   support files for all Exim MTA",  # removed
        'if [ -z "$X" ]; then',  # a line of shell, not a package row
        "ripgrep/now 13.0.0-4 amd64 [installed,local]",
        "libfoo1/stable,now 1.2-3 amd64 [installed,auto-removable]",
        "libbar2/stable,now 2.0-1 amd64 [installed,automatic]",  # nothing to say
        "wget/now 1.21 amd64 [installed,upgradable to: 1.21.3]",
        "1.52s call     tests/test_io.py::test_big_upload",  # a slow test
        "0.02s setup    tests/test_io.py::test_small[a]",
    ]
    assert numbered(lines) == {0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 14}


def test_a_long_list_of_upgradable_packages_does_not_hide_the_rarer_states() -> None:
    upgradable = [f"lib{n}/now 1.{n} amd64 [installed,upgradable to: 1.{n}.1]" for n in range(60)]
    local = "ripgrep/now 13.0.0-4 amd64 [installed,local]"
    protected = numbered([*upgradable[:30], local, *upgradable[30:]])
    assert protected == {30}
