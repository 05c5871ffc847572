"""Finding link creations: every spelling of ln/cp/link, and what cannot be seen."""

from __future__ import annotations

import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.paths import PathSandbox
from tooldeck.shell_analysis import analyze
from tooldeck.shell_analysis.link_rules import link_findings
from tooldeck.shell_analysis.links import scan_links


def _found(command: str) -> list[tuple[str, str, str, str, bool]]:
    scan = scan_links(analyze(command))
    assert not scan.unclear, scan.unclear
    return [(c.kind, c.target, c.link, c.placement, c.relative) for c in scan.creations]


@pytest.mark.parametrize(("command", "expected"), [
    ("ln -s a b", [("symbolic", "a", "b", "either", False)]),
    ("ln a b", [("hard", "a", "b", "either", False)]),
    ("ln -sf a b", [("symbolic", "a", "b", "either", False)]),
    ("ln b a -s", [("symbolic", "b", "a", "either", False)]),
    ("ln --symbolic a b", [("symbolic", "a", "b", "either", False)]),
    ("ln --sym a b", [("symbolic", "a", "b", "either", False)]),
    ("ln -sT a b", [("symbolic", "a", "b", "name", False)]),
    ("ln -s a b/", [("symbolic", "a", "b/", "into", False)]),
    ("ln -s a", [("symbolic", "a", ".", "into", False)]),
    ("ln -s a b dir", [("symbolic", "a", "dir", "into", False),
                       ("symbolic", "b", "dir", "into", False)]),
    ("ln -st dir a b", [("symbolic", "a", "dir", "into", False),
                        ("symbolic", "b", "dir", "into", False)]),
    ("ln -s -t dir a", [("symbolic", "a", "dir", "into", False)]),
    ("ln --target-directory=dir -s a", [("symbolic", "a", "dir", "into", False)]),
    ("ln -s --target-directory dir a", [("symbolic", "a", "dir", "into", False)]),
    ("ln -sr a b", [("symbolic", "a", "b", "either", True)]),
    ("ln -S .bak -s a b", [("symbolic", "a", "b", "either", False)]),
    ("ln -s -- -a b", [("symbolic", "-a", "b", "either", False)]),
    ("ln --backup=numbered -s a b", [("symbolic", "a", "b", "either", False)]),
    ("cp -s a b", [("symbolic", "a", "b", "either", False)]),
    ("cp -rl a b", [("hard", "a", "b", "either", False)]),
    ("cp --link a b", [("hard", "a", "b", "either", False)]),
    ("cp --symbolic-link a b", [("symbolic", "a", "b", "either", False)]),
    ("cp -t dir -l a", [("hard", "a", "dir", "into", False)]),
    ("link a b", [("hard", "a", "b", "name", False)]),
    ("/usr/bin/LN -s a b", [("symbolic", "a", "b", "either", False)]),
    ("env X=1 nohup ln -s a b", [("symbolic", "a", "b", "either", False)]),
    ("bash -c 'ln -s a b'", [("symbolic", "a", "b", "either", False)]),
    ("echo $(ln -s a b)", [("symbolic", "a", "b", "either", False)]),
    ("cp a b", []),
    ("cp -r --preserve=links a b", []),
    ("cp --sparse=always a b", []),
    ("lns -s a b", []),
    ("python3 -c 'print(1)'", []),
    ("python3 -m pip list", []),
])
def test_creations(command: str, expected: list[tuple[str, str, str, str, bool]]) -> None:
    assert _found(command) == expected


@pytest.mark.parametrize("command", [
    "ln -s $T x", "ln -s \"$T\" x", "ln -s ?? x", "ln -s a* x", "ln -s {a,b} x",
    "ln -s a $D", "ln -st \"$D\" a", "ln --frobnicate a b", "ln --s a b", "ln -q a b",
    "ln -s", "ln -T a b c", "cat l | xargs ln -s", "xargs -0 ln -t d",
    "find . -exec ln -s {} d \\;", "cp -s $X y", "cp --s a b",
    "python -c 'import os; os.symlink(\"/\", \"r\")'",
    "python3.12 -c 'import os; os.link(\"a\", \"b\")'",
    "node -e \"require('fs').linkSync('a','b')\"",
    "perl -e 'link \"a\", \"b\"; symlink(\"a\", \"c\")'",
    "ruby -e 'require \"fileutils\"; FileUtils.ln_s(\"/\", \"r\")'",
    "php -r 'symlink(\"/\", \"r\");'",
    "ln $FLAGS a b",
])
def test_unclear(command: str) -> None:
    assert scan_links(analyze(command)).unclear, command


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([
    "ln", "cp", "link", "-s", "-f", "-l", "-t", "-T", "-r", "--sym", "--link", "--", "a",
    "../b", "/c", "d/", "$x", "*", "-st", "--target-directory=e", "python", "-c",
    "'os.symlink(1)'", "&&", "|", "xargs",
]), max_size=12))
def test_scan_never_raises(words: list[str]) -> None:
    scan = scan_links(analyze(" ".join(words)))
    for creation in scan.creations:
        assert creation.target and creation.link


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"ln -s./\x00a$*~", "..", "ln -s ", " && cat "]),
                max_size=30).map("".join))
def test_link_rules_never_raise(command: str) -> None:
    with tempfile.TemporaryDirectory() as root:
        sandbox = PathSandbox([root], cwd=root, deny_read=["**/.env"])
        findings = link_findings(analyze(command), sandbox)
    assert all(f.decision in ("deny", "ask") for f in findings)
    assert all(f.rule != "link-unclear" or "failed" not in f.detail for f in findings), command
