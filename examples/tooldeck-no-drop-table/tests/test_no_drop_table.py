"""The no_drop_table gate through a real deck: it vetoes calls the permission rules allow."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall


def config(root: Path) -> str:
    return f"""
        [plugins]
        enable = ["no_drop_table"]

        [tools.file]
        allowed_paths = ["{root}"]

        [[tools.permissions.write]]
        pattern = "*"
        action = "allow"
    """


@pytest.mark.parametrize("content", ["DROP TABLE users;", "drop\n  table users",
                                     "x; Drop/**/Table t"])
def test_denies_drop_table_anywhere_in_the_parameters(make_deck, tmp_path: Path,
                                                      content: str) -> None:
    deck = make_deck(config(tmp_path))
    result = deck.call_sync(ToolCall("write", {"path": "migrate.sql", "content": content}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
    assert result.decision is not None and result.decision.gate == "no_drop_table"
    assert not (tmp_path / "migrate.sql").exists()


def test_abstains_on_other_calls(make_deck, tmp_path: Path) -> None:
    deck = make_deck(config(tmp_path))
    result = deck.call_sync(ToolCall("write", {"path": str(tmp_path / "ok.sql"),
                                               "content": "SELECT 1;"}))
    assert result.ok, result.text
