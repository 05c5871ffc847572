"""Shell checkpoints, undo and redo (zeph-test-cases §1.13), through a real deck."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.plugins.shell.checkpoints import Checkpoints, UndoError
from tooldeck.plugins.shell.transaction import take_snapshot

ON = "[tools.shell]\ncheckpoints_enabled = true\n"


async def undo(deck: Any, count: int = 1) -> Any:
    return await deck.call(ToolCall("shell_undo", {"count": count}), confirm=True)


async def redo(deck: Any) -> Any:
    return await deck.call(ToolCall("shell_redo", {}), confirm=True)


async def listing(deck: Any) -> Any:
    return await deck.call(ToolCall("shell_checkpoints", {}), confirm=True)


async def write(deck: Any, helpers: Any, command: str) -> None:
    result = await helpers.run(deck, command, confirm=True)
    assert result.error is None, result.error


def test_tools_only_when_enabled(make_deck: Any) -> None:
    names = {"shell_undo", "shell_redo", "shell_checkpoints"}
    assert not names & set(make_deck().runtime.tools)
    assert not names & set(make_deck(default=True).runtime.tools)
    tools = make_deck(ON, default=True).runtime.tools
    assert names <= set(tools)
    assert tools["shell_undo"].capabilities == {"write"}
    assert tools["shell_redo"].capabilities == {"write"}
    assert tools["shell_checkpoints"].read_only


async def test_undo_count_must_be_positive(make_deck: Any, helpers: Any) -> None:
    deck = make_deck(ON)
    await write(deck, helpers, "echo a > a.txt")
    assert (await undo(deck, 0)).output.summary == "Undo count must be > 0."
    assert (await undo(deck, -3)).output.summary == "Undo count must be > 0."


async def test_empty_stacks(make_deck: Any) -> None:
    deck = make_deck(ON)
    assert (await undo(deck)).output.summary == "Nothing to undo."
    assert (await redo(deck)).output.summary == "Nothing to redo."
    empty = await listing(deck)
    assert empty.output.summary == "No checkpoints."
    assert empty.output.raw_response == {"checkpoints": ()}


async def test_undo_then_redo_round_trips(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ON)
    target = sandbox / "f.txt"
    target.write_text("v1")
    await write(deck, helpers, "echo v2 > f.txt")
    assert target.read_text() == "v2\n"
    result = await undo(deck)
    assert result.output.summary == "Undid 1 command(s)."
    assert target.read_text() == "v1"
    assert (await redo(deck)).output.summary == "Redone: echo v2 > f.txt"
    assert target.read_text() == "v2\n"
    assert (await listing(deck)).output.raw_response == {"checkpoints": ("echo v2 > f.txt",)}
    assert (await undo(deck)).output.summary == "Undid 1 command(s)."
    assert target.read_text() == "v1"


async def test_redo_of_a_delete(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ON)
    doomed = sandbox / "doomed.txt"
    doomed.write_text("keep me")
    await write(deck, helpers, "rm doomed.txt")
    assert not doomed.exists()
    await undo(deck)
    assert doomed.read_text() == "keep me"
    assert (await redo(deck)).output.summary == "Redone: rm doomed.txt"
    assert not doomed.exists()


async def test_undo_of_a_creation_deletes_and_redo_recreates(
        make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ON)
    await write(deck, helpers, "mkdir d && echo hi > d/x.txt")
    await undo(deck)
    assert not (sandbox / "d").exists()
    await redo(deck)
    assert (sandbox / "d" / "x.txt").read_text() == "hi\n"


async def test_list_is_most_recent_first(make_deck: Any, helpers: Any) -> None:
    deck = make_deck(ON)
    for name in ("a", "b", "c"):
        await write(deck, helpers, f"echo {name} > {name}.txt")
    await write(deck, helpers, "ls")
    result = await listing(deck)
    assert result.output.summary == "1. echo c > c.txt\n2. echo b > b.txt\n3. echo a > a.txt"


async def test_eviction_beyond_max(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ON + "max_checkpoints = 2\n")
    for name in ("a", "b", "c"):
        await write(deck, helpers, f"echo {name} > {name}.txt")
    assert (await listing(deck)).output.raw_response["checkpoints"] == (
        "echo c > c.txt", "echo b > b.txt")
    assert (await undo(deck, 5)).output.summary == "Undid 2 command(s)."
    assert (sandbox / "a.txt").exists()
    assert not (sandbox / "b.txt").exists() and not (sandbox / "c.txt").exists()


async def test_undo_clamps_and_reports_the_rest(
        make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ON)
    for name in ("a", "b", "c"):
        await write(deck, helpers, f"echo {name} > {name}.txt")
    result = await undo(deck, 2)
    assert result.output.summary == "Undid 2 of 3 available command(s); 1 more available."
    assert (await undo(deck, 99)).output.summary == "Undid 1 command(s)."
    assert not any(sandbox.glob("*.txt"))
    assert (await undo(deck)).output.summary == "Nothing to undo."


async def test_record_after_undo_clears_redo(make_deck: Any, helpers: Any) -> None:
    deck = make_deck(ON)
    await write(deck, helpers, "echo a > a.txt")
    await undo(deck)
    await write(deck, helpers, "echo b > b.txt")
    assert (await redo(deck)).output.summary == "Nothing to redo."


async def test_redo_order_is_last_undone_first(
        make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ON)
    (sandbox / "f.txt").write_text("0")
    await write(deck, helpers, "echo 1 > f.txt")
    await write(deck, helpers, "echo 2 > f.txt")
    await undo(deck, 2)
    assert (sandbox / "f.txt").read_text() == "0"
    assert (await redo(deck)).output.summary == "Redone: echo 1 > f.txt"
    assert (await redo(deck)).output.summary == "Redone: echo 2 > f.txt"
    assert (sandbox / "f.txt").read_text() == "2\n"


async def test_rolled_back_and_read_commands_are_not_recorded(
        make_deck: Any, helpers: Any) -> None:
    deck = make_deck(ON + "auto_rollback = true\n")
    await write(deck, helpers, "echo x > x.txt; exit 3")
    await write(deck, helpers, "cat /dev/null")
    assert (await listing(deck)).output.raw_response == {"checkpoints": ()}


async def test_undo_and_redo_are_gated(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ON, default=True)
    await write(deck, helpers, "echo a > a.txt")
    refused = await deck.call(ToolCall("shell_undo", {"count": 1}), confirm=False)
    assert refused.error is not None and (sandbox / "a.txt").exists()
    allowed = await deck.call(ToolCall("shell_checkpoints", {}))
    assert allowed.output.summary == "1. echo a > a.txt"


async def test_checkpoints_are_per_deck(make_deck: Any, helpers: Any) -> None:
    first, second = make_deck(ON), make_deck(ON)
    await write(first, helpers, "echo a > a.txt")
    assert (await undo(second)).output.summary == "Nothing to undo."


async def test_checkpoints_outlive_a_reload(make_deck: Any, helpers: Any,
                                            sandbox: Path) -> None:
    """A policy reload must not forget what can be undone."""
    deck = make_deck(ON)
    await write(deck, helpers, "echo a > a.txt")
    assert await deck.reload()
    assert (await undo(deck)).output.summary == "Undid 1 command(s)."
    assert not (sandbox / "a.txt").exists()


async def test_closing_the_deck_removes_the_copies(make_deck: Any, helpers: Any,
                                                   sandbox: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    copies = tmp_path / "copies"
    copies.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(copies))
    deck = make_deck(ON)
    (sandbox / "a.txt").write_text("before")
    await write(deck, helpers, "echo after > a.txt")
    assert await deck.reload()
    assert list(copies.iterdir())  # the checkpoint's copy outlived the reload
    await deck.aclose()
    assert not list(copies.iterdir())


def test_undo_failed_for_all(tmp_path: Path) -> None:
    checkpoints = Checkpoints()
    folder = tmp_path / "dir"
    folder.mkdir()
    target = folder / "f.txt"
    target.write_text("before")
    checkpoints.record("echo x > dir/f.txt",
                       take_snapshot([str(target)], roots=[tmp_path], scope=(),
                                     max_bytes=0), 5)
    target.unlink()
    folder.rmdir()
    folder.write_text("a file where the directory was")
    with pytest.raises(UndoError, match=r"^Undo failed: rollback errors for all checkpoints\.$"):
        checkpoints.undo(1)
    assert checkpoints.undo(1) == "Nothing to undo."
    assert checkpoints.redo() == "Nothing to redo."


async def test_undo_failed_through_the_deck(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ON)
    await write(deck, helpers, "mkdir d && echo x > d/f.txt")
    await write(deck, helpers, "echo y > d/f.txt")
    (sandbox / "d" / "f.txt").unlink()
    (sandbox / "d").rmdir()
    (sandbox / "d").write_text("not a directory")
    result = await undo(deck)
    assert result.error.category is ErrorCategory.PERMANENT_FAILURE
    assert result.error.message == "Undo failed: rollback errors for all checkpoints."


async def test_redo_failed(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ON)
    (sandbox / "d").mkdir()
    await write(deck, helpers, "echo x > d/f.txt")
    await undo(deck)
    (sandbox / "d").rmdir()
    (sandbox / "d").write_text("not a directory")
    result = await redo(deck)
    assert result.error.category is ErrorCategory.PERMANENT_FAILURE
    assert result.error.message.startswith("Redo failed: ")
    assert (await redo(deck)).output.summary == "Nothing to redo."
