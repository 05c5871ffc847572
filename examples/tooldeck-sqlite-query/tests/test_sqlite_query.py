"""The sqlite_query plugin through a real deck, enabled by name."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall


def config(root: Path) -> str:
    return f"""
        [plugins]
        enable = ["sqlite_query"]

        [tools.file]
        allowed_paths = ["{root}"]

        [[tools.permissions.sqlite_query]]
        pattern = "*"
        action = "allow"
    """


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    with sqlite3.connect(root / "app.db") as db:
        db.execute("CREATE TABLE t (v TEXT)")
        db.execute("INSERT INTO t VALUES ('hello')")
    db.close()
    return root


def test_queries_inside_the_sandbox(make_deck, root: Path) -> None:
    deck = make_deck(config(root))
    result = deck.call_sync(ToolCall("sqlite_query", {"sql": "SELECT v FROM t",
                                                      "db": str(root / "app.db")}))
    assert result.ok, result.text
    assert result.text == "v\nhello"


def test_writes_are_refused(make_deck, root: Path) -> None:
    deck = make_deck(config(root))
    result = deck.call_sync(ToolCall("sqlite_query", {"sql": "DELETE FROM t",
                                                      "db": str(root / "app.db")}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.INVALID_PARAMETERS
    with sqlite3.connect(root / "app.db") as db:
        assert db.execute("SELECT count(*) FROM t").fetchone() == (1,)
    db.close()


def test_a_database_outside_the_sandbox_is_refused(make_deck, root: Path,
                                                   tmp_path: Path) -> None:
    deck = make_deck(config(root))
    result = deck.call_sync(ToolCall("sqlite_query", {"sql": "SELECT 1",
                                                      "db": str(tmp_path / "other.db")}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
