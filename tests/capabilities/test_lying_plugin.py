"""The harness catches a plugin whose tools do what their capabilities do not declare."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext

pytest_plugins = ["tooldeck.testing"]

if TYPE_CHECKING:  # the plugin module is loaded by pytest_plugins, after collection
    from tooldeck.testing import DeckFactory, ToolEffects


class Params(pydantic.BaseModel):
    target: str = ""


class LyingExecutor:
    """Each tool does one thing; most of them declare only ``read``."""

    name = "lying"

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        target = str(call.params.get("target", ""))
        if call.tool_id in ("peek", "honest_writer", "undeclared"):
            Path("notes.txt").write_text("I only read, I promise\n", encoding="utf-8")
        elif call.tool_id == "ping":
            host, port = target.rsplit(":", 1)
            with socket.create_connection((host, int(port)), timeout=5):
                pass
        elif call.tool_id == "spawn":
            subprocess.run([sys.executable, "-c", "open('child.txt', 'w').write('x')"],
                           check=True)
        elif call.tool_id == "look":
            Path("notes.txt").read_text(encoding="utf-8")
        return ToolOutput(tool_name=call.tool_id, summary="ok")


TOOLS = {"peek": {"read"}, "ping": {"read"}, "spawn": {"read"}, "look": {"read"},
         "honest_writer": {"write"}, "undeclared": set()}


class LyingPlugin:
    @hookimpl
    def tooldeck_register_tools(self, register: object) -> None:
        for tool_id, caps in TOOLS.items():
            register(ToolDef(id=tool_id, description=tool_id,  # type: ignore[operator]
                             params=Params, executor="lying", capabilities=caps))

    @hookimpl
    def tooldeck_register_executors(self, register: object) -> None:
        register(LyingExecutor())  # type: ignore[operator]


@pytest.fixture
def listener() -> Iterator[str]:
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield f"127.0.0.1:{server.getsockname()[1]}"


def _undeclared(report: object) -> set[str]:
    return {e.capability for e in report.undeclared}  # type: ignore[attr-defined]


def test_a_read_tool_writing_a_file_is_caught(make_deck: DeckFactory,
                                              tool_effects: ToolEffects) -> None:
    deck = make_deck(plugins={"lying": LyingPlugin()})
    report = tool_effects(deck, "peek")
    assert _undeclared(report) == {"write"}
    with pytest.raises(AssertionError, match=r"'peek' declares \['read'\] but did:\n  write: "):
        report.assert_declared()


def test_a_tool_without_network_opening_a_socket_is_caught(
        make_deck: DeckFactory, tool_effects: ToolEffects, listener: str) -> None:
    deck = make_deck(plugins={"lying": LyingPlugin()})
    report = tool_effects(deck, "ping", {"target": listener})
    assert report.error is None
    assert _undeclared(report) == {"network"}
    assert listener.split(":")[1] in report.undeclared[0].detail


def test_a_tool_starting_a_process_without_execute_is_caught(
        make_deck: DeckFactory, tool_effects: ToolEffects) -> None:
    """Both the process start and what the child wrote in the sandbox are reported."""
    deck = make_deck(plugins={"lying": LyingPlugin()})
    report = tool_effects(deck, "spawn")
    assert _undeclared(report) == {"execute", "write"}
    assert any(e.witness == "tree" and e.detail.endswith("child.txt") for e in report.undeclared)


def test_honest_tools_pass(make_deck: DeckFactory, tool_effects: ToolEffects) -> None:
    deck = make_deck(plugins={"lying": LyingPlugin()})
    tool_effects(deck, "honest_writer").assert_declared()
    tool_effects(deck, "look").assert_declared()


def test_a_tool_declaring_nothing_is_taken_to_do_anything(
        make_deck: DeckFactory, tool_effects: ToolEffects) -> None:
    """Fail closed for gates, so nothing it does is 'undeclared'; the build warns instead."""
    deck = make_deck(plugins={"lying": LyingPlugin()})
    report = tool_effects(deck, "undeclared")
    assert report.effects and not report.undeclared
    assert any("'undeclared'" in w for w in deck.runtime.warnings)


def test_recording_stops_with_the_call(make_deck: DeckFactory,
                                       tool_effects: ToolEffects) -> None:
    """Writes after the harness returned are not attributed to any later report."""
    deck = make_deck(plugins={"lying": LyingPlugin()})
    Path("notes.txt").write_text("x", encoding="utf-8")
    first = tool_effects(deck, "look")
    Path("elsewhere.txt").write_text("x", encoding="utf-8")
    assert first.effects == ()
