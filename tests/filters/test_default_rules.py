"""Zeph §4.4: the embedded rules' matchers and behaviour, through the rules' pipeline alone."""

from __future__ import annotations

import pytest

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.engine import FilterEngine
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
                    "python -m ruff check ."], ["cargo clippy"]),
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
    ("command", "line_count"),
    [
        ("find . -name '*.rs'", 150),
        ("grep -r foo .", 100),
        ("du -sh *", 80),
        ("jest --coverage", 150),
        ("ruff check .", 100),
        ("make all", 100),
        ("pytest tests/", 150),
        ("go test ./...", 100),
        ("terraform plan -out=tfplan", 80),
        ("kubectl get pods -n default", 70),
    ],
)
def test_long_outputs_are_truncated(engine: RulesOnly, command: str, line_count: int) -> None:
    result = engine.apply(command, numbered(line_count), 0)
    assert result.confidence is FilterConfidence.PARTIAL
    assert "lines omitted" in result.output
    assert result.output.startswith("line 0\n")
    assert result.output.endswith(f"line {line_count - 1}")


def test_git_log_keeps_every_hash(engine: RulesOnly) -> None:
    log = "\n".join(f"abc{number:04d} commit message {number}" for number in range(300))
    result = engine.apply("git log --oneline", log, 0)
    assert result.output == log  # hashes are identifiers: protected


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


def test_ls_drops_build_directories(engine: RulesOnly) -> None:
    raw = "node_modules\n.git\ntarget\n__pycache__\n.venv\nsrc\nCargo.toml"
    result = engine.apply("ls -la", raw, 0)
    assert result.confidence is FilterConfidence.FULL
    assert result.output == "(5 noise lines removed)\n\nsrc\nCargo.toml"


def test_docker_build_legacy(engine: RulesOnly) -> None:
    raw = (
        "Step 1/5 : FROM node:20\n ---> a1b2c3d4e5f6\nRemoving intermediate container 123abc\n"
        "Successfully built a1b2c3d4e5f6\nSuccessfully tagged myapp:latest"
    )
    result = engine.apply("docker build -t myapp .", raw, 0)
    assert result.confidence is FilterConfidence.FULL
    assert result.output == (
        "Successfully built a1b2c3d4e5f6\nSuccessfully tagged myapp:latest\n(3 noise lines removed)"
    )


def test_docker_compose(engine: RulesOnly) -> None:
    raw = (
        " Network app_default  Created\n Container app-db-1  Creating\n"
        " Container app-db-1  Created\n Container app-db-1  Starting\n"
        " Container app-db-1  Started\nAll containers up"
    )
    result = engine.apply("docker compose up -d", raw, 0)
    assert result.confidence is FilterConfidence.FULL
    assert result.output == "All containers up\n(5 noise lines removed)"


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
        "up to date, audited 121 packages\nfound 0 vulnerabilities\n(2 noise lines removed)"
    )


@pytest.mark.parametrize("command", ["pip install requests", "pip3 install -r requirements.txt"])
def test_pip_install(engine: RulesOnly, command: str) -> None:
    raw = (
        "Collecting requests\n  Downloading requests-2.31.0-py3-none-any.whl (62 kB)\n"
        "Using cached idna-3.6-py3-none-any.whl\nInstalling collected packages: idna, requests\n"
        "Successfully installed idna-3.6 requests-2.31.0"
    )
    result = engine.apply(command, raw, 0)
    assert result.confidence is FilterConfidence.FULL
    assert (
        result.output == "Successfully installed idna-3.6 requests-2.31.0\n(4 noise lines removed)"
    )


def test_curl(engine: RulesOnly) -> None:
    raw = (
        "  % Total    % Received % Xferd  Average Speed\n"
        "Resolving example.com... 93.184.216.34\nConnecting to example.com|93.184.216.34|:443\n"
        '{"status": "ok", "items": []}'
    )
    result = engine.apply("curl https://example.com", raw, 0)
    assert result.confidence is FilterConfidence.FULL
    assert result.output.startswith('{"status": "ok", "items": []}')


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
    assert result.rules == ("cargo-test",)
    assert engine.matching_rules("cargo clippy")[0].name == "cargo-clippy"
