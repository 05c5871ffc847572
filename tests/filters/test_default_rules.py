"""Zeph §4.4: the embedded rules' matchers and behaviour, through the rules' pipeline alone."""

from __future__ import annotations

import pytest

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.fallback import FallbackParams
from tooldeck.filters.rules import Rule

ZEPH_RULES = [
    "cargo-build", "cargo-test", "cargo-clippy", "git-status", "git-diff", "git-log", "git-push",
    "ls", "log-dedup", "docker-build", "docker-compose", "npm-install", "pip-install", "make",
    "pytest", "go-test", "terraform-plan", "kubectl-get", "brew-install", "find", "grep-rg",
    "curl-wget", "du-df-ps", "js-test", "linter",
]  # fmt: skip


class RulesOnly:
    """The engine's rules without the never-cut guard and the fallback: what a rule does."""

    def __init__(self, engine: FilterEngine) -> None:
        self.apply = engine.apply_rules
        self.matching_rules = engine.matching_rules


@pytest.fixture
def engine(rules: tuple[Rule, ...]) -> RulesOnly:
    return RulesOnly(FilterEngine(rules))


DATA_LINES = FallbackParams().data_lines
"""Lines of data shown whole (a listing, a body, a log the model asked for)."""


def numbered(count: int, prefix: str = "line") -> str:
    return "\n".join(f"{prefix} {number}" for number in range(count))


def rule(rules: tuple[Rule, ...], name: str) -> Rule:
    return next(candidate for candidate in rules if candidate.name == name)


def test_all_25_zeph_rules_are_present_in_zeph_order(rules: tuple[Rule, ...]) -> None:
    names = [candidate.name for candidate in rules]
    assert [name for name in names if name in ZEPH_RULES] == ZEPH_RULES


def test_every_builtin_rule_has_an_inline_test(rules: tuple[Rule, ...]) -> None:
    assert [candidate.name for candidate in rules if not candidate.tests] == []


@pytest.mark.parametrize(
    ("name", "positives", "negatives"),
    [
        ("find", ["find . -name '*.rs'"], ["grep foo bar"]),
        ("grep-rg", ["grep -r foo .", "rg pattern src/"], ["find . -name foo"]),
        ("curl-wget", ["curl https://example.com", "wget https://example.com/file.tar.gz"],
         ["git clone https://example.com"]),
        ("du-df-ps", ["du -sh *", "df -h", "ps aux", "du"], ["docker ps"]),
        ("js-test", ["jest --coverage", "vitest run", "npx jest src/",
                     "npx vitest --reporter verbose", "mocha test/"], ["pytest tests/"]),
        ("linter", ["eslint src/", "ruff check .", "mypy src/", "pylint mymodule", "flake8 .",
                    "npx eslint src/", "python -m mypy src/", "python -m pylint mymodule",
                    "python -m ruff check .", "yamllint .github", "codespell docs",
                    "cppcheck --enable=all src", "python -m yamllint ."], ["cargo clippy"]),
        ("git-log", ["git log --oneline"], ["git diff"]),
        ("git-push", ["git push origin main"], []),
        ("ls", ["ls -la", "ls"], ["lsblk"]),
        ("docker-build", ["docker build -t myapp ."], []),
        ("docker-compose", ["docker compose up -d", "docker-compose up"], []),
        ("npm-install", ["npm install", "yarn add lodash", "pnpm install"], []),
        ("pip-install", ["pip install requests", "pip3 install -r requirements.txt"], []),
        ("make", ["make all", "make -j4 build"], ["makepkg -si"]),
        ("pytest", ["pytest tests/", "python -m pytest -v"], []),
        ("go-test", ["go test ./...", "go test -v -run TestFoo ./pkg/..."], []),
        ("terraform-plan", ["terraform plan -out=tfplan", "terraform apply tfplan"],
         ["terraform init"]),
        ("kubectl-get", ["kubectl get pods -n default", "kubectl describe node worker-1"],
         ["kubectl apply -f manifest.yaml"]),
        ("brew-install", ["brew install ripgrep", "brew upgrade git"], ["brew list"]),
        ("cargo-build", ["cargo build", "cargo build --release", "cargo +nightly check",
                         "cargo run --bin app"], ["cargo fmt", "cargo test", "cargo clippy"]),
    ],
)  # fmt: skip
def test_rule_matchers(
    rules: tuple[Rule, ...], name: str, positives: list[str], negatives: list[str]
) -> None:
    candidate = rule(rules, name)
    assert [command for command in positives if not candidate.matches(command)] == []
    assert [command for command in negatives if candidate.matches(command)] == []


@pytest.mark.parametrize(
    "command",
    ["jest --coverage", "ruff check .", "make all", "pytest tests/", "go test ./...",
     "terraform plan -out=tfplan"],
)
def test_a_long_report_keeps_its_ends_and_counts_the_middle(
    engine: RulesOnly, command: str
) -> None:
    result = engine.apply(command, numbered(100), 0)
    assert result.confidence is FilterConfidence.FALLBACK
    lines = result.output.split("\n")
    assert lines[:4] == ["line 0", "line 1", "line 2", "line 3"]
    assert lines[-4:] == ["line 96", "line 97", "line 98", "line 99"]
    assert lines[4:-4] == ['… 92 lines like "line …" omitted']


@pytest.mark.parametrize(
    "command", ["find . -name '*.rs'", "grep -r foo .", "du -sh *", "kubectl get pods -n x"]
)
def test_a_listing_is_whole_up_to_its_data_lines(engine: RulesOnly, command: str) -> None:
    assert engine.apply(command, numbered(DATA_LINES), 1).output == numbered(DATA_LINES)
    longer = DATA_LINES + 250
    lines = engine.apply(command, numbered(longer), 1).output.split("\n")
    assert lines[:20] == [f"line {n}" for n in range(20)]
    assert lines[-20:] == [f"line {n}" for n in range(longer - 20, longer)]
    assert lines[20:-20] == [f'… {longer - 40} lines like "line …" omitted']


def test_git_log_keeps_every_commit_of_a_long_log(engine: RulesOnly) -> None:
    full = "\n".join(
        f"commit {number:040x}\nAuthor: Dev <dev@example.com>\nDate:   Mon Jan 1 2026\n\n"
        f"    Fix the thing number {number}\n" for number in range(60)
    )
    kept = engine.apply("git log -n 60", full, 0).output.split("\n")
    assert [line for line in kept if line.startswith("commit ")] == [
        f"commit {number:040x}" for number in range(60)
    ]
    assert f"    Fix the thing number {30}" in kept
    commits = DATA_LINES + 150
    oneline = "\n".join(f"abc{number:04d} commit message {number}" for number in range(commits))
    assert engine.apply("git log --oneline -n 100", oneline[:3000], 0).output == oneline[:3000]
    folded = engine.apply("git log --oneline", oneline, 0).output.split("\n")
    assert folded[0] == "abc0000 commit message 0"
    assert folded[-1] == f"abc{commits - 1:04d} commit message {commits - 1}"
    assert any(line.startswith("… ") and "lines like" in line for line in folded)


def test_git_push(engine: RulesOnly) -> None:
    raw = (
        "Enumerating objects: 5, done.\nCounting objects: 100% (5/5), done.\n"
        "To github.com:user/repo.git\n   abc..def  main -> main\n"
        "Branch 'main' set up to track remote branch 'main' from 'origin'."
    )
    result = engine.apply("git push origin main", raw, 0)
    assert result.confidence is FilterConfidence.FULL
    for kept in ("To github.com", "main -> main", "Branch 'main'"):
        assert kept in result.output
    assert "Enumerating" not in result.output and "Counting" not in result.output


def test_a_recursive_listing_keeps_every_directory_heading(engine: RulesOnly) -> None:
    sections = [
        f"src/pkg{n}:\n" + "\n".join(f"module_{n}_{m}.py" for m in range(DATA_LINES // 6))
        for n in range(8)
    ]
    kept = engine.apply("ls -R src", "\n\n".join(sections), 0).output.split("\n")
    assert [line for line in kept if line.endswith(":")] == [f"src/pkg{n}:" for n in range(8)]
    assert any(line.startswith("… ") for line in kept)  # the files between are counted


def test_git_grep_is_a_search_listing(rules: tuple[Rule, ...]) -> None:
    assert rule(rules, "grep-rg").matches("git grep -n 'def is_' -- httpx/")
    assert rule(rules, "grep-rg").matches("cd repo && git --no-pager grep TODO")


def test_pytest_keeps_the_slowest_durations(engine: RulesOnly) -> None:
    raw = "\n".join(
        [f"captured log line {n}" for n in range(40)]
        + ["", "=== slowest 12 durations ===", "1.52s call     tests/test_core.py::test_db",
           "0.40s setup    tests/test_core.py::test_db"]
        + [f"0.{n:02d}s call     tests/test_core.py::test_{n}" for n in range(30, 20, -1)]
        + ["", "=== 1 failed, 400 passed ==="]
    )
    kept = engine.apply("pytest --durations=12", raw, 1).output.split("\n")
    for line in ("1.52s call     tests/test_core.py::test_db",
                 "0.40s setup    tests/test_core.py::test_db"):
        assert line in kept
    assert "captured log line 20" not in kept


def test_pytest_keeps_the_coverage_table_it_was_asked_for(engine: RulesOnly) -> None:
    raw = "\n".join(
        [f"captured log line {n}" for n in range(40)]
        + ["", "---------- coverage: platform linux, python 3.11.7 ----------",
           "Name                 Stmts   Miss  Cover", "src/app/models.py      120     60    50%"]
        + [f"src/app/mod_{n}.py          80      4    95%" for n in range(12)]
        + ["TOTAL                  200     64    68%", "", "=== 400 passed in 2.1s ==="]
    )
    kept = engine.apply("pytest --cov=src", raw, 0).output.split("\n")
    for line in ("src/app/models.py      120     60    50%",
                 "src/app/mod_6.py          80      4    95%",
                 "TOTAL                  200     64    68%"):
        assert line in kept


def test_terraform_keeps_the_providers_it_installed(engine: RulesOnly) -> None:
    # more than 40 such lines: past that, a changed-looking line is no longer protected
    providers = [f"p{n}" for n in range(15)]
    raw = "\n".join(
        [f'- Finding hashicorp/{name} versions matching "~> 5.0"...' for name in providers]
        + [f"- Installing hashicorp/{name} v5.31.0..." for name in providers]
        + [f"- Installed hashicorp/{name} v5.31.0 (signed by HashiCorp)" for name in providers]
        + ["- Using previously-installed hashicorp/time v3.6.0",
           "Terraform has been successfully initialized!"]
    )
    kept = engine.apply("terraform init", raw, 0).output.split("\n")
    assert "- Installed hashicorp/p7 v5.31.0 (signed by HashiCorp)" in kept
    assert "- Using previously-installed hashicorp/time v3.6.0" in kept
    assert "- Installing hashicorp/p7 v5.31.0..." not in kept  # progress


def test_node_test_runner_drops_passing_tests_and_node_frames(rules: tuple[Rule, ...]) -> None:
    noise = rule(rules, "node-test-noise")
    for command in ("node --test", "node --test tests/a.test.js", "node --no-warnings --test"):
        assert noise.matches(command), command
    assert not noise.matches("node server.js --testing")
    raw = "\n".join(
        ["TAP version 13"]
        + [f"# Subtest: case {n}\nok {n} - case {n}\n  ---\n  duration_ms: 0.5\n  ..."
           for n in range(30)]
        + ["# Subtest: broken\nnot ok 31 - broken\n  ---\n  location: '/p/t.test.js:4:1'\n  ...",
           "1..31", "# tests 31", "# pass 30", "# fail 1"]
    )
    kept = FilterEngine(rules).apply("node --test", raw, 1).output.split("\n")
    assert "not ok 31 - broken" in kept and "  location: '/p/t.test.js:4:1'" in kept
    assert "# fail 1" in kept
    assert "ok 7 - case 7" not in kept


def test_ls_keeps_every_name(engine: RulesOnly) -> None:
    raw = "\n".join(["node_modules", ".git", "target", "__pycache__", ".venv", "src"] * 20)
    assert engine.apply("ls -la", raw, 0).output == raw  # a directory name is a fact


def test_docker_build_legacy(engine: RulesOnly) -> None:
    raw = (
        "Step 1/5 : FROM node:20\n ---> a1b2c3d4e5f6\nRemoving intermediate container 123abc\n"
        "Successfully built a1b2c3d4e5f6\nSuccessfully tagged myapp:latest"
    )
    result = engine.apply("docker build -t myapp .", raw, 0)
    assert result.confidence is FilterConfidence.FULL
    assert result.output == (
        "Successfully built a1b2c3d4e5f6\nSuccessfully tagged myapp:latest\n"
        '(3 noise lines removed, like "Step 1/5 : FROM node:20")'
    )


def test_docker_compose(engine: RulesOnly) -> None:
    raw = (
        " Network app_default  Created\n Container app-db-1  Creating\n"
        " Container app-db-1  Created\n Container app-db-1  Starting\n"
        " Container app-db-1  Started\nAll containers up"
    )
    result = engine.apply("docker compose up -d", raw, 0)
    assert result.confidence is FilterConfidence.FULL
    assert result.output == (
        'All containers up\n(5 noise lines removed, like "Network app_default  Created")'
    )


@pytest.mark.parametrize("command", ["npm install", "yarn add lodash", "pnpm install"])
def test_npm_install(engine: RulesOnly, command: str) -> None:
    raw = (
        "npm warn deprecated glob@7.2.3\nnpm notice New major version\n"
        "added 120 packages in 3s\nup to date, audited 121 packages\n\nfound 0 vulnerabilities"
    )
    result = engine.apply(command, raw, 0)
    assert result.confidence is FilterConfidence.FULL
    assert result.output == (  # warnings and summaries are facts
        "npm warn deprecated glob@7.2.3\nadded 120 packages in 3s\n"
        "up to date, audited 121 packages\nfound 0 vulnerabilities\n"
        '(2 noise lines removed, like "npm notice New major version")'
    )


@pytest.mark.parametrize("command", ["pip install requests", "pip3 install -r requirements.txt"])
def test_pip_install(engine: RulesOnly, command: str) -> None:
    raw = "\n".join(
        [f"Collecting pkg{n}\n  Downloading pkg{n}-1.0-py3-none-any.whl (62 kB)" for n in range(15)]
        + ["Installing collected packages: pkg0", "  Attempting uninstall: idna",
           "    Found existing installation: idna 3.4", "    Uninstalling idna-3.4:",
           "      Successfully uninstalled idna-3.4",
           "Successfully installed idna-3.6 requests-2.31.0"]
    )
    result = engine.apply(command, raw, 0)
    assert result.confidence is FilterConfidence.FALLBACK
    output = result.output.split("\n")
    for kept in ("    Found existing installation: idna 3.4",
                 "Successfully installed idna-3.6 requests-2.31.0"):
        assert kept in output
    assert any(line.startswith("… ") and "omitted" in line for line in output)


def test_pip_install_keeps_the_packages_the_command_named(engine: RulesOnly) -> None:
    raw = "\n".join(
        ["Requirement already satisfied: pytest in ./.venv/lib/python3.11/site-packages (9.2.0)",
         "Collecting black==24.10.0"]
        + [f"Requirement already satisfied: dep{n} in ./.venv/lib/python3.11/site-packages "
           f"(from pytest) (1.{n})" for n in range(30)]
        + [f"Collecting sub{n}>=1 (from black==24.10.0)" for n in range(30)]
        + ["Installing collected packages: black", "Successfully installed black-24.10.0"]
    )
    kept = engine.apply("pip install pytest black==24.10.0", raw, 0).output.split("\n")
    assert kept[:2] == raw.split("\n")[:2]
    assert "Collecting sub10>=1 (from black==24.10.0)" not in kept  # a dependency is counted


def test_curl_keeps_both_ends_of_a_long_body(engine: RulesOnly) -> None:
    count = DATA_LINES + 300
    items = [f'  {{"id": {n}, "name": "item-{n}"}},' for n in range(count)]
    raw = "\n".join(["  % Total    % Received % Xferd", "[", *items, "]"])
    output = engine.apply("curl -s https://example.com/items", raw, 0).output.split("\n")
    assert '  {"id": 0, "name": "item-0"},' in output
    assert f'  {{"id": {count - 1}, "name": "item-{count - 1}"}},' in output
    assert any(line.startswith("… ") for line in output)


@pytest.mark.parametrize("command", ["brew install ripgrep", "brew upgrade git"])
def test_brew(engine: RulesOnly, command: str) -> None:
    raw = (
        "==> Downloading https://ghcr.io/x\n==> Fetching ripgrep\n==> Installing ripgrep\n"
        "==> Pouring ripgrep.bottle.tar.gz\nAlready downloaded: /cache/x\n"
        "/opt/homebrew/Cellar/ripgrep/14.1.0: 13 files"
    )
    result = engine.apply(command, raw, 0)
    assert result.confidence is FilterConfidence.FULL
    assert result.output.startswith("/opt/homebrew/Cellar/ripgrep/14.1.0: 13 files\n")


def test_cargo_test_and_clippy_skip_the_build_rule(engine: RulesOnly) -> None:
    result = engine.apply("cargo test", "   Compiling a v1\ntest result: ok. 1 passed; 0 failed", 0)
    assert result.rules == ("cargo-test-noise", "cargo-test")
    assert engine.matching_rules("cargo clippy")[0].name == "cargo-clippy"


def _matches(files: dict[str, int]) -> list[str]:
    return [f"src/{name}.py:{line}:    async def handler_{line}(self) -> None:"
            for name, count in files.items() for line in range(1, count + 1)]


def test_a_long_match_list_keeps_each_files_first_match_and_counts_the_rest(
    engine: RulesOnly,
) -> None:
    files = {"alpha": 5, "beta": 40, "gamma": 1, "delta": 30, "eps": 30, "zeta": 20}
    matches = _matches(files)
    kept = engine.apply("grep -rn 'async def' src/", "\n".join(matches), 0).output.split("\n")
    for name in files:  # which files matched: the first match of every file
        assert f"src/{name}.py:1:    async def handler_1(self) -> None:" in kept
    assert kept[:20] == matches[:20] and kept[-20:] == matches[-20:]
    # how often: the matches of a file not shown are counted, with one of them as example
    assert '… 29 lines like "src/delta.py:2:    asyn…" omitted' in kept
    assert len(kept) < len(matches) / 2


def test_a_match_list_up_to_60_lines_and_a_file_list_up_to_150_are_whole(
    engine: RulesOnly,
) -> None:
    matches = "\n".join(_matches({"alpha": 30, "beta": 30}))
    assert engine.apply("rg -n 'async def' src", matches, 0).output == matches
    files = "\n".join(f"src/pkg/module_{number}.py" for number in range(150))
    assert engine.apply("grep -rl 'async def' src", files, 0).output == files


@pytest.mark.parametrize(
    ("command", "listing"),
    [
        ("npm ls --depth=0", ["shop@0.3.0 /srv/shop"]
         + [f"├── dependency-number-{number}@1.{number}.0 (dev)" for number in range(60)]
         + ["npm error missing: zod@^3.23.0, required by shop@0.3.0"]),
        ("pip list", ["Package    Version", "---------- -------"]
         + [f"package-number-{number}    1.{number}.0    wheel" for number in range(60)]
         + ["WARNING: There was an error checking the latest version of pip."]),
        ("docker ps -a", ["CONTAINER ID   IMAGE   STATUS"]
         + [f"{number:012x}   app:1   \"serve\"   Up {number} hours   web-{number}"
            for number in range(60)]
         + ["c0ffee000000   db:15   \"postgres\"   Exited (1) 2 minutes ago   db",
            "WARNING: No swap limit support"]),
    ],
)
def test_a_package_or_container_listing_is_whole_even_when_it_reports_a_problem(
    rules: tuple[Rule, ...], command: str, listing: list[str]
) -> None:
    text = "\n".join(listing)
    assert len(text) > 2048  # not a short output, which is never cut
    assert FilterEngine(rules).apply(command, text, 1).output == text
    # the same lines from a command no rule knows read as a report, and are cut
    assert FilterEngine(rules).apply("frobnicate", text, 0).output != text


def test_a_long_dpkg_listing_keeps_every_row_that_is_not_installed_normally(
    engine: RulesOnly,
) -> None:
    header = ["Desired=Unknown/Install/Remove/Purge/Hold",
              "||/ Name           Version      Architecture Description",
              "+++-==============-============-============-=================================="]
    rows = [f"ii  lib{number:<11} 1.{number}-1      amd64        library number {number}"
            for number in range(2100)]
    rows[700] = "rc  oldtool        2.0-1        amd64        removed, its configuration kept"
    rows[1050] = "iF  brokenpkg      3.1-2        amd64        half-configured"
    rows[1400] = "hi  pinned         4.0-1        amd64        held at this version"
    rows[1750] = "un  neverthere     <none>       <none>       (no description available)"
    kept = engine.apply("dpkg -l", "\n".join(header + rows), 0).output.split("\n")
    # a package dpkg knows but never installed ('un') answers a pattern the listing was asked
    # about: not installed
    assert rows[700] in kept and rows[1050] in kept and rows[1400] in kept and rows[1750] in kept
    assert rows[1200] not in kept  # a plain row past the 2,000 lines shown whole


def test_a_dpkg_listing_of_a_system_s_packages_is_shown_whole(engine: RulesOnly) -> None:
    header = ["Desired=Unknown/Install/Remove/Purge/Hold",
              "||/ Name           Version      Architecture Description",
              "+++-==============-============-============-=================================="]
    rows = [f"ii  lib{number:<11} 1.{number}-1      amd64        library number {number}"
            for number in range(800)]
    text = "\n".join(header + rows)
    assert engine.apply("dpkg -l", text, 0).output == text


def test_a_long_apt_listing_keeps_the_rows_whose_status_is_not_the_ordinary_one(
    engine: RulesOnly,
) -> None:
    rows = [f"lib{number}/stable,now 1.{number}-1 amd64 [installed,automatic]"
            for number in range(DATA_LINES + 300)]
    notable = {
        40: "oldtool/now 2.0-1 amd64 [residual-config]",
        80: "nodejs/now 20.20.2-1nodesource1 amd64 [installed,local]",
        120: "libpopt0/stable,now 1.19+dfsg-1 amd64 [installed,auto-removable]",
        160: "openssl/now 3.0.19-1 amd64 [installed,upgradable to: 3.0.22-1]",
        200: "libfoo2/stable,now 2.0-1 amd64 [installed,automatic,upgradable to: 2.1-1]",
        240: "kernel-tools/experimental,now 6.1~rc3-1 amd64 [installed]",
    }
    for index, row in notable.items():
        rows[index] = row
    text = "\n".join(["WARNING: apt does not have a stable CLI interface.", "",
                      "Listing...", *rows])
    kept = engine.apply("apt list --installed", text, 0).output.split("\n")
    assert all(row in kept for row in notable.values())
    assert rows[100] not in kept and rows[260] not in kept  # the ordinary status


@pytest.mark.parametrize(
    "row",
    [
        "ii  pkg           2.0+dfsg-1     amd64        an ordinary repackaged upstream",
        "ii  pkg           1:2.0-1        amd64        an epoch",
        "ii  pkg           2.0-1~deb12u1  amd64        a stable update, not a pre-release",
        "ii  pkg           2.0~bpo12+1    amd64        a backport",
        "pkg/stable 2.0-1 amd64 [upgradable from: 1.9-1]",  # apt list --upgradable's own
    ],
)
def test_a_package_row_with_an_ordinary_version_or_status_is_not_kept_for_it(
    engine: RulesOnly, row: str
) -> None:
    plain = "ii  lib{0:<11} 1.{0}-1      amd64        library number {0}"
    # (past the 2,000 lines a dpkg listing is shown whole)
    rows = [plain.format(number) for number in range(2100)]
    rows[1050] = row
    kept = engine.apply("dpkg -l", "\n".join(rows), 0).output.split("\n")
    assert row not in kept


def _pytest_report(captured: list[str]) -> list[str]:
    """A failing pytest run of 60 tests whose failing test printed ``captured``."""
    return [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.11.7, pytest-9.2.0, pluggy-1.7.0",
        "rootdir: /work/proj",
        "plugins: timeout-2.4.0",
        "timeout: 0.2s",
        "timeout method: signal",
        "timeout func_only: False",
        "collected 60 items",
        "",
        *[f"tests/test_m{number}.py ..........                                  [{number}%]"
          for number in range(30)],
        "tests/test_sync.py F                                                   [100%]",
        "",
        "=================================== FAILURES ===================================",
        "__________________________________ test_sync ___________________________________",
        "",
        "    def test_sync():",
        ">       assert sync() == 3",
        "E       assert 2 == 3",
        "",
        "tests/test_sync.py:9: AssertionError",
        "----------------------------- Captured log call ------------------------------",
        *captured,
        "=========================== short test summary info ============================",
        "FAILED tests/test_sync.py::test_sync - assert 2 == 3",
        "========================= 1 failed, 59 passed in 0.91s =========================",
    ]


def test_a_pytest_header_line_holding_a_setting_of_this_run_is_kept(engine: RulesOnly) -> None:
    # a plugin's deprecation notice first, as pytest-asyncio prints it: the header is past
    # the lines kept at the output's start
    notice = [".venv/lib/python3.11/site-packages/plugin.py:306: PytestDeprecationWarning: "
              "The configuration option is unset.", "The default will change. " * 20, "",
              "  warnings.warn(PytestDeprecationWarning(_UNSET))"]
    report = notice + _pytest_report(["INFO     sync:sync.py:12 fetched 2 rows"])
    kept = engine.apply("pytest --timeout=0.2", "\n".join(report), 1).output.split("\n")
    assert "timeout: 0.2s" in kept
    assert "timeout method: signal" not in kept  # no number: a setting every run shows


def test_what_a_failing_pytest_test_printed_keeps_its_first_and_last_lines(
    engine: RulesOnly,
) -> None:
    captured = [f"DEBUG    sync:sync.py:{number} page {number} fetched" for number in range(40)]
    captured[-1] = "WARNING  sync:sync.py:88 gave up after 40 pages: 2 rows of 3"
    captured[20] = "INFO     sync:sync.py:50 " + "x" * 300  # a dumped value
    report = _pytest_report(captured)
    kept = engine.apply("pytest", "\n".join(report), 1).output.split("\n")
    assert captured[0] in kept and captured[2] in kept
    assert captured[-2] in kept and captured[-1] in kept
    assert captured[10] not in kept and captured[20] not in kept
    assert any(line.startswith("… 35 lines omitted") for line in kept)  # the rest, counted
