"""Fixtures for the core suite: real runtimes built from TOML text and throwaway plugins.

Runtimes are built with only the built-in ``audit`` and ``permissions`` plugins installed, so
plugins that other parts of the project add to the entry points later cannot change what these
tests observe. Throwaway plugins are passed in as ``extra_plugins``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.build import build_runtime
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.loader import PluginSpec, discover
from tooldeck.models import Decision, ToolCall, ToolDef, ToolOutput, Verdict
from tooldeck.runtime import CallContext

BUILTINS = ("audit", "permissions")


class CommandParams(pydantic.BaseModel):
    """Parameters of the throwaway tools: one required ``command`` string."""

    model_config = pydantic.ConfigDict(extra="forbid")

    command: str


class RecordingExecutor:
    """Executor that records every call it runs and answers ``ran: <input>``.

    :param name: the executor name.
    :param raises: an exception to raise instead of answering.
    """

    def __init__(self, name: str, raises: BaseException | None = None) -> None:
        self.name = name
        self.raises = raises
        self.calls: list[tuple[ToolCall, CallContext]] = []

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        self.calls.append((call, ctx))
        if self.raises is not None:
            raise self.raises
        return ToolOutput(tool_name=ctx.tool.id, summary=f"ran: {call.input_text(ctx.tool)}")


class ToolPlugin:
    """Throwaway plugin: registers some tools and the one executor that runs them."""

    def __init__(self, tools: tuple[ToolDef, ...], executor: RecordingExecutor) -> None:
        self.tools = tools
        self.executor = executor

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[[ToolDef], None]) -> None:
        for tool in self.tools:
            register(tool)

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[[object], None]) -> None:
        register(self.executor)


def command_tool(
    tool_id: str = "echo",
    *,
    executor: str = "recorder",
    capabilities: tuple[str, ...] = (),
    params: type[pydantic.BaseModel] = CommandParams,
) -> ToolDef:
    """A tool whose input is its ``command`` parameter."""
    return ToolDef(
        id=tool_id,
        description=f"throwaway tool {tool_id}",
        params=params,
        executor=executor,
        capabilities=capabilities,
        input_param="command",
    )


@pytest.fixture
def tool_plugin() -> Callable[..., ToolPlugin]:
    """Factory: ``tool_plugin("echo", "cat", capabilities=("read",), raises=exc)``."""

    def make(
        *tool_ids: str,
        capabilities: tuple[str, ...] = (),
        raises: BaseException | None = None,
        params: type[pydantic.BaseModel] = CommandParams,
        executor: str = "recorder",
    ) -> ToolPlugin:
        ids = tool_ids or ("echo",)
        tools = tuple(
            command_tool(t, executor=executor, capabilities=capabilities, params=params)
            for t in ids
        )
        return ToolPlugin(tools, RecordingExecutor(executor, raises))

    return make


@pytest.fixture
def builtins_installed() -> dict[str, PluginSpec]:
    """The built-in plugins this suite relies on, as discovered from the entry points."""
    found = discover()
    return {name: found[name] for name in BUILTINS}


@pytest.fixture
def make_deck(
    tmp_path: Path, builtins_installed: dict[str, PluginSpec]
) -> Iterator[Callable[..., Deck]]:
    """Factory: ``make_deck(toml_text, {"name": plugin}, environ={...})`` → a real deck.

    The document is labelled ``<tmp>/tooldeck.toml`` so error messages name a file. Decks are
    closed (audit files and the private ``call_sync`` loop released) after the test.
    """
    decks: list[Deck] = []

    def make(
        toml: str = "",
        plugins: Mapping[str, object] | None = None,
        *,
        environ: Mapping[str, str] | None = None,
    ) -> Deck:
        doc = parse_document(toml, tmp_path / "tooldeck.toml", "test")
        env = {} if environ is None else environ
        runtime = build_runtime(
            doc, installed=builtins_installed, extra_plugins=plugins, environ=env
        )
        deck = Deck(runtime, extra_plugins=plugins, environ=env)
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        deck.close()


def read_audit(deck: Deck) -> list[dict[str, Any]]:
    """The records in the deck's JSONL audit file (empty when it does not exist)."""
    path = deck.runtime.settings.core.audit.resolved_path()
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


@pytest.fixture
def audit_records() -> Callable[[Deck], list[dict[str, Any]]]:
    """``audit_records(deck)``: the JSON records the deck's audit sink wrote so far."""
    return read_audit


class FixedGate:
    """Throwaway gate plugin voting the same way on every call (None abstains)."""

    def __init__(self, verdict: Verdict | None, reason: str = "") -> None:
        self.verdict = verdict
        self.reason = reason or f"fixed {verdict}"
        self.seen: list[ToolCall] = []

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef) -> Decision | None:
        self.seen.append(call)
        return None if self.verdict is None else Decision(self.verdict, self.reason)


@pytest.fixture
def fixed_gate() -> type[FixedGate]:
    """``fixed_gate(Verdict.ASK, "reason")``: a throwaway gate plugin (``None`` abstains)."""
    return FixedGate
