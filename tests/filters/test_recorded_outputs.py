"""Snapshot tests of the built-in rules on recorded real outputs (tools not installed here).

Each case names the command, its exit code, and lines that must survive verbatim (failing test
names, errors with locations, final summaries). Snapshots live next to the recordings as
``<name>.filtered``; regenerate them with ``TOOLDECK_UPDATE_SNAPSHOTS=1`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tooldeck.filters.engine import FilterEngine, is_short
from tooldeck.filters.must_keep import lost_must_keep_lines
from tooldeck.filters.sanitize import sanitize_output, strip_terminal

FIXTURES = Path(__file__).parent / "fixtures"
UPDATE = os.environ.get("TOOLDECK_UPDATE_SNAPSHOTS") == "1"

CASES = [
    ("cargo_test_failing", "cargo test", 101, ("cargo-test-noise", "cargo-test"), [
        "---- tests::adds_wrongly stdout ----",
        "thread 'tests::adds_wrongly' (19249) panicked at src/lib.rs:27:9:",
        "  left: 4",
        "test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out;"
        " finished in 0.00s",
    ]),
    ("cargo_build_warnings", "cargo build", 0, ("cargo-build",), [
        "warning: unused import: `std::collections::HashMap`",
        " --> src/lib.rs:1:5",
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.10s",
    ]),
    ("cargo_clippy", "cargo clippy --all-targets", 0, ("cargo-clippy",), [
        "warning: length comparison to zero", "  --> src/lib.rs:41:5",
    ]),
    ("go_test_verbose_failing", "go test -v ./...", 1, ("go-test-noise", "go-test"), [
        "    calc_test.go:31: Divide(1, 0) error = <nil>, want error",
        "--- FAIL: TestDivide (0.00s)",
        "FAIL\texample.com/calc\t0.014s",
        "ok  \texample.com/strutil\t0.004s",
    ]),
    ("jest_failing", "npx jest", 1, ("js-test-noise", "js-test"), [
        "    ✕ adds negative numbers (4 ms)",
        "  ● math \u203a adds negative numbers",
        "    Expected: -3",
        "    Received: 3",
        "      at Object.toBe (src/math.test.js:10:25)",
        "Tests:       1 failed, 5 passed, 6 total",
    ]),
    ("vitest_failing", "npx vitest run", 1, ("js-test-noise", "js-test"), [
        "   \u00d7 math > adds negative numbers",
        " FAIL  src/math.test.ts > math > adds negative numbers",
        "AssertionError: expected 3 to be -3 // Object.is equality",
        "      Tests  1 failed | 5 passed (6)",
    ]),
    ("pytest_xdist_failing", "pytest -n 2 -v", 1, ("pytest-noise", "pytest"), [
        "[gw1] [ 66%] FAILED tests/test_api.py::test_delete_item",
        "E       assert 404 == 204",
        "tests/test_api.py:31: AssertionError",
        "FAILED tests/test_api.py::test_delete_item - assert 404 == 204",
        "========================= 1 failed, 5 passed in 1.84s ==========================",
    ]),
    ("docker_buildkit_failing", "docker build -t app .", 1, ("docker-build", "docker-buildkit"), [
        "#8 1.301 ERROR: Could not find a version that satisfies the requirement"
        " reqeusts==2.32.3 (from versions: none)",
        "ERROR: failed to solve: process \"/bin/sh -c pip install --no-cache-dir -r"
        " requirements.txt\" did not complete successfully: exit code: 1",
    ]),
    ("docker_legacy_build", "docker build -t app .", 0, ("docker-build", "docker-buildkit"), [
        "Successfully installed flask-3.0.3", "Successfully built 3c4d5e6f7a8b",
        "Successfully tagged app:latest",
    ]),
    ("kubectl_get_pods", "kubectl get pods -n prod", 0, ("kubectl-get",), [
        "NAME                                READY   STATUS             RESTARTS       AGE",
        "api-6f7e8d9c0b-9jtnf                0/1     Error              3              12d",
        "api-6f7e8d9c0b-je8q9                0/1     CrashLoopBackOff   14 (2m ago)    18d",
    ]),
    ("terraform_plan", "terraform plan -out=tfplan", 0,
     ("terraform-progress", "terraform-plan"), [
        "  # aws_instance.worker[5] will be created",
        "Plan: 6 to add, 1 to change, 0 to destroy.", "    terraform apply \"tfplan\"",
    ]),
    ("npm_install", "npm install", 0, ("npm-install",), [
        "3 vulnerabilities (1 moderate, 2 high)", "Run `npm audit` for details.",
    ]),
    ("tsc_errors", "npx tsc --noEmit", 2, ("tsc",), [
        "src/api/client.ts:14:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
        "src/components/Table.tsx:8:10 - error TS6133: 'useMemo' is declared but its value is"
        " never read.",
        "Found 3 errors in 2 files.",
    ]),
    ("pytest_verbose_large", "pytest -v tests", 1, ("pytest-noise", "pytest"), [
        "E       assert -7 == 7",
        "E       TypeError: can only concatenate str (not \"int\") to str",
        "tests/test_records.py:1060: TypeError",
        "FAILED tests/test_records.py::test_config_loader - TypeError: can only concat...",
        "======================== 2 failed, 450 passed in 0.89s =========================",
    ]),
    ("pip_install_many", "pip install -r requirements.txt", 0, ("pip-install",), [
        "ERROR: pip's dependency resolver does not currently take into account all the packages"
        " that are installed. This behaviour is the source of the following dependency"
        " conflicts.",
        "flask 3.0.3 requires click>=8.1.3, but you have click 8.1.7 which is incompatible.",
    ]),
    ("cargo_build_many_crates", "cargo build --release", 0, ("cargo-build",), [
        "warning: unused variable: `retries`", "  --> src/net.rs:42:9",
        "    Finished `release` profile [optimized] target(s) in 1m 12s",
    ]),
    ("docker_buildkit_apt", "docker build -t app .", 0, ("docker-build", "docker-buildkit"), [
        "#5 [2/4] RUN apt-get update && apt-get install -y --no-install-recommends curl"
        " ca-certificates",
        "#7 0.211 app 0.3.0",
    ]),
    ("eslint_stylish", "npx eslint src/", 1, ("eslint", "linter"), [
        "   3:10  error    'fetchJson' is defined but never used       no-unused-vars",
        "  27:18  error    'reponse' is not defined                    no-undef",
        "✖ 5 problems (2 errors, 3 warnings)",
    ]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "command", "exit_code", "rules_run", "must_keep"),
    CASES,
    ids=[case[0] for case in CASES],
)
def test_recorded_output(
    engine: FilterEngine,
    name: str,
    command: str,
    exit_code: int,
    rules_run: tuple[str, ...],
    must_keep: list[str],
) -> None:
    raw = (FIXTURES / f"{name}.txt").read_text("utf-8")
    result = engine.apply(command, raw, exit_code)
    assert result.rules == rules_run
    kept_lines = result.output.split("\n")
    assert [line for line in must_keep if line not in kept_lines] == []
    assert lost_must_keep_lines(sanitize_output(raw), result.output) == []
    if is_short(strip_terminal(raw)):
        assert result.output == strip_terminal(raw)
    else:
        assert result.chars_out <= result.chars_in  # never lengthened
        assert (result.confidence is None) == (result.output == sanitize_output(raw))
    snapshot = FIXTURES / f"{name}.filtered"
    if UPDATE:
        snapshot.write_text(result.output + "\n", "utf-8")
    assert result.output + "\n" == snapshot.read_text("utf-8")


def test_failed_truncation_falls_back_to_the_full_output(engine: FilterEngine) -> None:
    raw = (FIXTURES / "kubectl_get_pods.txt").read_text("utf-8")
    result = engine.apply("kubectl get pods -n prod", raw, 1)
    assert result.output == sanitize_output(raw)  # neither the rule nor the fallback cut it
    assert result.confidence is None
