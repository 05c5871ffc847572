"""Ordinary developer commands are allowed under the embedded default configuration."""

from __future__ import annotations

from typing import Any

import pytest

ORDINARY = [
    "ls -la", "git status", "git diff HEAD~1", "cargo test 2>&1 | tail -80", "pytest -q",
    "grep -rn TODO src/", "python -m pip list", "npm test", "make -j2",
    "git log --oneline -20", "git add src/main.py", "git commit -m 'fix: typo'",
    "cat README.md", "head -n 50 src/app.py", "wc -l src/*.py",
    "find . -name '*.py' -newer setup.cfg", "du -sh .", "cargo build --release",
    "cargo clippy -- -D warnings", "go test ./...", "npm run build", "python3 -c 'print(1)'",
    "echo hello > out.txt", "mkdir -p build/out", "touch notes.md", "cp src/a.py src/b.py",
    "sed -n '1,20p' src/app.py", "sort data.txt | uniq -c | sort -rn | head",
    "git branch -a", "ruff check .", "mypy --strict src", "tar czf dist.tgz dist/",
    "diff -u a.txt b.txt", "cargo fmt --check", "pip install -e .", "uname -a", "pwd",
    "ls 2>/dev/null", "export FOO=1 && make test", "cd src && ls", "which python",
    "git diff --stat main...HEAD", "docker ps",
]


def test_there_are_at_least_thirty() -> None:
    assert len(ORDINARY) >= 30


@pytest.mark.parametrize("command", ORDINARY)
def test_ordinary_command_is_allowed(check_cli: Any, write_config: Any, command: str) -> None:
    data = check_cli(command, write_config(default=True))
    assert data["verdict"] == "allow", data
    assert data["opaque"] is False
