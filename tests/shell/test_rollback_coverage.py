"""Rule ``rollback-coverage``: which commands a transaction's snapshot covers, and why not."""

from __future__ import annotations

import pytest

from tooldeck.plugins.shell.rollback_coverage import uncovered_writes
from tooldeck.shell_analysis import analyze


@pytest.mark.parametrize("command", [
    "echo x > out.txt", "echo x >> 'a b.txt'; exit 2", "mv a b", "cp -r src dst", "rm -rf build",
    "sed -i s/a/b/ f", "sed s/a/b/ f > g", "ls -la | grep x | wc -l", "sort -u f", "cmd=1",
    "find . -name '*.py'", "git status", "git diff HEAD", "echo a 2>&1 >&2",
    "touch a; mkdir -p b/c", "tee log < in", "cat a > b", "ln -s a b", "test -f a && echo yes",
])
def test_covered(command: str) -> None:
    assert uncovered_writes(analyze(command)) == ()


@pytest.mark.parametrize(("command", "reason"), [
    ('rm "$f"', "operand '\"$f\"' of 'rm' is only known at run time"),
    ("rm *.txt", "operand '*.txt' of 'rm' is only known at run time"),
    ("cp a {b,c}", "of 'cp' is only known at run time"),
    ("cd sub && rm a", "'cd sub' changes the directory"),
    ("pushd sub; rm a", "changes the directory"),
    ("find . -delete", "'find' may write files"),
    ("find . -exec rm {} +", "'rm {}' gets its operands at run time"),
    ("ls | xargs rm", "'xargs rm' gets its operands at run time"),
    ("python3 -c 'open(\"x\", \"w\")'", "'python3' may write files"),
    ("awk '{print > \"out\"}' f", "'awk' may write files"),
    ("make install", "'make' may write files"),
    ("tar xf a.tar", "'tar' may write files"),
    ("sort -o out in", "'sort' may write files"),
    ("sed 's/a/b/w out' f", "may write with a sed ``w`` command"),
    ("git checkout main", "'git' may write files"),
    ("echo x > $out", "redirection '> $out' writes to a path only known at run time"),
    ("echo x >> \"$d/log\"", "redirection '>> \"$d/log\"'"),
    ("echo x &> `pwd`/log", "redirection '&> `pwd`/log'"),
    ("echo x > *.log", "redirection '> *.log'"),
    ("bash -c 'rm \"$1\"' _ a", "of 'rm' is only known at run time"),
])
def test_uncovered(command: str, reason: str) -> None:
    reasons = uncovered_writes(analyze(command))
    assert any(reason in r for r in reasons), reasons
