"""``set_working_directory`` through a real deck: file tools and the shell follow it per caller."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall


def make_deck(root: Path, shell_root: Path | None = None) -> Deck:
    doc = parse_document(
        f'[tools.file]\nallowed_paths = ["{root}"]\n'
        f'[tools.shell]\nallowed_paths = ["{shell_root or root}"]\n'
        f'[tools.audit]\npath = "{root.parent / "audit.jsonl"}"\n'
        + "".join(f'[[tools.permissions.{tool}]]\npattern = "*"\naction = "allow"\n'
                  for tool in ("bash", "read", "set_working_directory")), None, "test")
    return Deck.from_config(doc)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    sandbox = tmp_path / "sandbox"
    (sandbox / "pkg" / "sub").mkdir(parents=True)
    (sandbox / "top.txt").write_text("top\n")
    (sandbox / "pkg" / "inner.txt").write_text("inner\n")
    (tmp_path / "outside").mkdir()
    return sandbox


def call(deck: Deck, tool: str, caller: str | None = None, **params: object) -> tuple[bool, str]:
    result = deck.call_sync(ToolCall(tool, params, caller_id=caller))
    return result.ok, result.text


def test_relative_paths_of_later_file_calls_start_there(root: Path) -> None:
    deck = make_deck(root)
    assert call(deck, "set_working_directory", path="pkg") == (
        True, f"Working directory: {root}/pkg")
    assert call(deck, "read", path="inner.txt") == (True, "   1\tinner")
    assert call(deck, "set_working_directory", path="..") == (True, f"Working directory: {root}")
    assert call(deck, "read", path="top.txt") == (True, "   1\ttop")
    deck.close()


def test_the_shell_runs_in_the_chosen_directory(root: Path) -> None:
    deck = make_deck(root)
    assert call(deck, "set_working_directory", path="pkg/sub")[0]
    ok, text = call(deck, "bash", command="pwd")
    assert ok and text.strip().splitlines()[0] == f"{root}/pkg/sub"
    ok, text = call(deck, "bash", command="cat ../inner.txt")
    assert ok and "inner" in text
    deck.close()


def test_each_caller_keeps_its_own_directory(root: Path) -> None:
    deck = make_deck(root)
    assert call(deck, "set_working_directory", "agent-a", path="pkg")[0]
    assert call(deck, "read", "agent-a", path="inner.txt") == (True, "   1\tinner")
    ok, text = call(deck, "read", "agent-b", path="inner.txt")
    assert not ok and "inner.txt" in text
    assert call(deck, "read", "agent-b", path="top.txt") == (True, "   1\ttop")
    deck.close()


@pytest.mark.parametrize(
    "target", ["../../outside", "/etc", "~", "../..", "../../sandbox/../outside"])
def test_outside_the_sandbox_is_refused_and_nothing_changes(root: Path, target: str) -> None:
    deck = make_deck(root)
    assert call(deck, "set_working_directory", path="pkg")[0]
    ok, text = call(deck, "set_working_directory", path=target)
    assert not ok and "policy_blocked" in text
    assert call(deck, "read", path="inner.txt") == (True, "   1\tinner")
    deck.close()


def test_a_symlink_out_of_the_sandbox_is_refused(root: Path) -> None:
    (root / "escape").symlink_to(root.parent / "outside")
    deck = make_deck(root)
    ok, text = call(deck, "set_working_directory", path="escape")
    assert not ok and "policy_blocked" in text
    deck.close()


def test_a_missing_directory_or_a_file_is_refused(root: Path) -> None:
    deck = make_deck(root)
    ok, text = call(deck, "set_working_directory", path="nope")
    assert not ok and "does not exist" in text
    ok, text = call(deck, "set_working_directory", path="top.txt")
    assert not ok and "is not a directory" in text
    deck.close()


def test_the_shell_refuses_a_directory_outside_its_own_roots(root: Path) -> None:
    deck = make_deck(root, shell_root=root / "pkg")
    assert call(deck, "set_working_directory", path=".")[0]
    ok, text = call(deck, "bash", command="pwd")
    assert not ok and "sandbox-cwd" in text and "outside the shell's roots" in text
    assert call(deck, "set_working_directory", path="pkg")[0]
    ok, text = call(deck, "bash", command="pwd")
    assert ok and text.strip().splitlines()[0] == f"{root}/pkg"
    deck.close()
