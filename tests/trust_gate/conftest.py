"""Fixtures for the trust gate tests: decks built from config text, with stand-in tools.

The stand-in tools let the tests use Zeph's tool ids (``fs_delete_path``, ``write_log``,
MCP ids) as real registered tools that a real executor runs; they declare no capabilities
unless a test says so, so what denies them is the name rules under test.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

import attrs
import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck, combine_decisions
from tooldeck.models import Decision, ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext


class StubParams(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    value: str = ""


@attrs.frozen
class SourcedToolDef(ToolDef):
    """A tool definition with the optional ``source`` / ``trust`` an MCP client may add."""

    source: Any = None
    trust: Any = None


class Stubs:
    """Registers the named tools, all run by one executor that answers ``ran <id>``."""

    name = "stub"

    def __init__(self, tools: Iterable[ToolDef]) -> None:
        self.tools = list(tools)
        self.ran: list[str] = []

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[..., None]) -> None:
        register(self)

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
        for tool in self.tools:
            register(tool)

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        self.ran.append(call.tool_id)
        return ToolOutput(call.tool_id, f"ran {call.tool_id}")


def stub(tool_id: str, *, capabilities: Iterable[str] = (), source: Any = None,
         trust: Any = None) -> ToolDef:
    """A stand-in tool definition."""
    if source is None and trust is None:
        return ToolDef(id=tool_id, description=tool_id, params=StubParams, executor="stub",
                       capabilities=frozenset(capabilities))
    return SourcedToolDef(id=tool_id, description=tool_id, params=StubParams,
                          executor="stub", capabilities=frozenset(capabilities),
                          source=source, trust=trust)


def allow_rules(*tool_ids: str) -> str:
    """Permission rules allowing every call of the given tools."""
    return "".join(f'[[tools.permissions.{t}]]\npattern = "*"\naction = "allow"\n'
                   for t in tool_ids)


def judge(deck: Deck, tool_id: str, *, caller: str | None = None,
          params: dict[str, Any] | None = None) -> Decision:
    """The combined gate decision on one call; nothing runs."""
    runtime = deck.runtime
    call = ToolCall(tool_id, params or {}, caller_id=caller)
    return combine_decisions(runtime.hooks.check_call(call, runtime.tools[tool_id], runtime))


def trust_vote(deck: Deck, tool_id: str, **kw: Any) -> Decision | None:
    """The trust gate's own vote (``None``: it abstained)."""
    runtime = deck.runtime
    call = ToolCall(tool_id, kw.get("params") or {}, caller_id=kw.get("caller"))
    votes = runtime.hooks.check_call(call, runtime.tools[tool_id], runtime)
    return next((v for v in votes if v.gate == "trust_gate"), None)


def audit_records(path: Path) -> list[dict[str, Any]]:
    """Every record of an audit file."""
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory, made the current directory."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    """Where ``make_deck`` writes the configuration."""
    return tmp_path / "conf" / "tooldeck.toml"


@pytest.fixture
def audit_path(tmp_path: Path) -> Path:
    """The audit file of ``make_deck``'s decks."""
    return tmp_path / "audit.jsonl"


def config_text(body: str, audit: Path) -> str:
    """The embedded default configuration plus ``body``, auditing to ``audit``."""
    return f'{embedded_default_text()}\n[tools.audit]\npath = "{audit}"\n{body}'


@pytest.fixture
async def make_deck(project: Path, config_path: Path,
                    audit_path: Path) -> AsyncIterator[Callable[..., Deck]]:
    """Build a deck from the default config plus ``body`` and stand-in ``tools``."""
    decks: list[Deck] = []

    def make(body: str = "", tools: Iterable[ToolDef] = (), **kw: Any) -> Deck:
        config_path.parent.mkdir(exist_ok=True)
        config_path.write_text(config_text(body, audit_path))
        deck = Deck.from_config(config_path, extra_plugins={"stubs": Stubs(tools)}, **kw)
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()
