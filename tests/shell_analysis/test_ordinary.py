"""Ordinary developer commands: never blocked, never opaque, no confirm pattern hit."""

from __future__ import annotations

import pytest

from tooldeck.shell_analysis import (
    DEFAULT_BLOCKED,
    DEFAULT_CONFIRM_PATTERNS,
    analyze,
    decide,
    find_blocked,
    find_confirm,
)

ROOTS = ("/home/dev/proj",)
HOME = "/home/dev"

ORDINARY = [
    "ls -la",
    "git status",
    "git diff HEAD~1",
    "git log --oneline -n 20",
    "git commit -m 'fix: handle empty input; add test'",
    "git checkout -b feature/x",
    "cargo test 2>&1 | tail -80",
    "cargo build --release",
    "cargo clippy --workspace -- -D warnings 2>&1",
    "cd /home/dev/proj && cargo test --lib",
    "pytest -q",
    "pytest tests/ -k 'not slow' -x",
    "grep -rn TODO src/",
    "python -m pip list",
    "python3 -c 'print(1)'",
    "npm test",
    "npm run build",
    "make -j2",
    'echo "a; b"',
    "echo 'sudo is a word here'",
    "find . -name '*.py'",
    "find . -type f -name '*.rs' | wc -l",
    "head -n 50 README.md",
    "ls -la | grep '^d'",
    "wc -l src/*.py",
    "mkdir -p build/out",
    "touch notes.txt",
    "cp a.txt b.txt",
    "mv old.txt new.txt",
    "echo hello > out.txt",
    "sort data.txt | uniq -c | sort -rn | head",
    "diff -u a.txt b.txt",
    "du -sh .",
    "df -h",
    "ps aux | grep python",
    "which python3",
    "env | sort",
    'export PATH="$PATH:/opt/bin"',
    "FOO=1 make test",
    "timeout 60 pytest -q",
    "nice -n 10 make",
    "for f in src/*.py; do echo $f; done",
    "if [ -f setup.cfg ]; then cat setup.cfg; fi",
    "jq '.name' package.json",
    "sed 's/a/b/' file.txt",
    "awk '{print $1}' data.txt",
    "tar -czf out.tgz src/",
    "go test ./...",
    "ruff check . && mypy src",
    "terraform plan",
    "docker run --rm alpine ls",
    "git commit -m 'release \U0001f389'",
    "cat < input.txt > /dev/null",
    "git log --format='%h %s' | head",
    "bash scripts/build.sh",
    "sh -c 'ls -la && git status'",
    "python - <<'EOF'\nprint('hi')\nEOF",
    "cat <<EOF > config.toml\n[tool]\nname = 'x'\nEOF",
]


@pytest.mark.parametrize("command", ORDINARY)
def test_ordinary_command_is_clean(command: str) -> None:
    analysis = analyze(command)
    assert not analysis.opaque, analysis.opaque_reasons
    assert find_blocked(analysis, DEFAULT_BLOCKED, protected_roots=ROOTS, home=HOME) is None
    assert find_confirm(command, analysis, DEFAULT_CONFIRM_PATTERNS) is None
    assert decide(command, protected_roots=ROOTS, home=HOME).decision == "allow"


def test_enough_ordinary_commands() -> None:
    assert len(ORDINARY) >= 35


@pytest.mark.parametrize(
    "command",
    ["rm -rf ./build", "rm -rf build/*", "rm -r /home/dev/proj/target", "rm -r /home/dev/proj/*"],
)
def test_deleting_inside_the_sandbox_is_not_blocked_but_asks(command: str) -> None:
    verdict = decide(command, protected_roots=ROOTS, home=HOME, cwd="/home/dev/proj")
    assert verdict.decision == "ask"
    assert verdict.rule == "confirm"


def test_zeph_literal_prefix_still_blocks_absolute_rm_rf() -> None:
    # Zeph's built-in pattern "rm -rf /" has prefix semantics; we keep it (zeph-test-cases 1.1).
    verdict = decide("rm -rf /home/dev/proj/target", protected_roots=ROOTS, home=HOME)
    assert verdict.decision == "block"
    assert verdict.block is not None
    assert verdict.block.pattern == "rm -rf /"
