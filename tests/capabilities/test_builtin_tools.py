"""Every built-in tool declares its capabilities, and does nothing it did not declare."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tooldeck.capabilities import CAPABILITIES, normalise

pytest_plugins = ["tooldeck.testing"]

if TYPE_CHECKING:  # the plugin module is loaded by pytest_plugins, after collection
    from tooldeck.testing import DeckFactory, ToolEffects


def test_every_builtin_tool_declares_capabilities_from_the_vocabulary(
        make_deck: DeckFactory) -> None:
    deck = make_deck()
    tools = list(deck.runtime.tools.values())
    assert len(tools) > 20
    for tool in tools:
        assert tool.capabilities & CAPABILITIES, f"{tool.id} declares no capability"
        assert tool.capabilities == normalise(tool.capabilities), tool.id
    assert not [w for w in deck.runtime.warnings if "declares no capability" in w]


def _seed(sandbox: Path) -> None:
    (sandbox / "a.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    (sandbox / "d").mkdir()
    (sandbox / "d" / "b.txt").write_text("gamma\n", encoding="utf-8")


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("read", {"path": "a.txt"}),
    ("write", {"path": "new.txt", "content": "x\n"}),
    ("edit", {"path": "a.txt", "old_string": "beta", "new_string": "BETA"}),
    ("find_path", {"pattern": "**/*.txt"}),
    ("grep", {"pattern": "alpha"}),
    ("list_directory", {}),
    ("create_directory", {"path": "e/f"}),
    ("delete_path", {"path": "d", "recursive": True}),
    ("move_path", {"source": "a.txt", "destination": "moved.txt"}),
    ("copy_path", {"source": "a.txt", "destination": "copy.txt"}),
    ("set_working_directory", {"path": "d"}),
    ("bash", {"command": "echo hi > out.txt"}),
    ("memory_save", {"content": "the build uses nox"}),
    ("memory_search", {"query": "nox"}),
    ("list_tasks", {}),
    ("search_code", {"query": "alpha"}),
]


WARM_UP: dict[str, list[tuple[str, dict[str, Any]]]] = {
    # the memory and task stores are created by whichever tool touches them first; a read
    # tool finds them made (creating one is the ``state`` tool's effect, seen above)
    "memory_search": [("memory_save", {"content": "the build uses nox"})],
    "list_tasks": [("cancel_task", {"name": "none"})],
}


@pytest.mark.parametrize(("tool_id", "params"), CALLS, ids=[c[0] for c in CALLS])
def test_builtin_tools_do_only_what_they_declare(
        make_deck: DeckFactory, tool_effects: ToolEffects,
        tool_id: str, params: dict[str, Any]) -> None:
    _seed(tool_effects.sandbox)
    deck = make_deck()
    if tool_id not in deck.runtime.tools:
        pytest.fail(f"{tool_id} is not offered by the default configuration")
    for warm_id, warm_params in WARM_UP.get(tool_id, []):
        tool_effects(deck, warm_id, warm_params)
    report = tool_effects(deck, tool_id, params)
    assert report.error is None, report.error
    report.assert_declared()


def test_the_harness_sees_what_the_writing_tools_do(
        make_deck: DeckFactory, tool_effects: ToolEffects) -> None:
    """Not vacuous: ``write`` and ``bash`` are seen writing and starting a process."""
    _seed(tool_effects.sandbox)
    deck = make_deck()
    wrote = tool_effects(deck, "write", {"path": "new.txt", "content": "x\n"})
    assert {e.capability for e in wrote.effects} == {"write"}
    ran = tool_effects(deck, "bash", {"command": "echo hi > out.txt"})
    assert {"execute", "write"} <= {e.capability for e in ran.effects}
    assert (tool_effects.sandbox / "out.txt").read_text() == "hi\n"
