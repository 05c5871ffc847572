"""Decks built from a real configuration file, with stand-in tools the utility gate scores."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext

TOOLS = ("lookup", "memory_probe", "refused", "asked")
"""Stand-in tools: ``lookup`` has the default gain (0.5), ``memory_probe`` a memory tool's
(0.8); the policy denies ``refused`` and asks about ``asked``."""


class StubParams(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    value: str = ""


class Stubs:
    """Registers the stand-in tools, run by one executor that records what ran."""

    name = "stub"

    def __init__(self, tools: Iterable[str]) -> None:
        self.tools = list(tools)
        self.ran: list[tuple[str, str]] = []

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[..., None]) -> None:
        register(self)

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
        for tool in self.tools:
            register(ToolDef(id=tool, description=tool, params=StubParams, executor="stub"))

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        self.ran.append((call.tool_id, call.params.get("value", "")))
        return ToolOutput(call.tool_id, f"ran {call.tool_id} {call.params.get('value', '')}")


POLICY = ('[[tools.permissions.lookup]]\npattern = "*"\naction = "allow"\n'
          '[[tools.permissions.memory_probe]]\npattern = "*"\naction = "allow"\n'
          '[[tools.permissions.refused]]\npattern = "*"\naction = "deny"\n'
          '[[tools.permissions.asked]]\npattern = "*"\naction = "ask"\n')


def utility(**keys: Any) -> str:
    """A ``[tools.utility]`` table, enabled unless ``keys`` say otherwise."""
    values = {"enabled": True, **keys}
    return "[tools.utility]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items())


@pytest.fixture
def audit_path(tmp_path: Path) -> Path:
    """The audit file of ``make_deck``'s decks."""
    return tmp_path / "audit.jsonl"


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    """The configuration file ``make_deck`` writes."""
    return tmp_path / "conf" / "tooldeck.toml"


def write_config(path: Path, audit_path: Path, body: str) -> None:
    """The embedded default, the audit path, the stand-ins' policy and ``body``."""
    path.parent.mkdir(exist_ok=True)
    path.write_text(f'{embedded_default_text()}\n[tools.audit]\npath = "{audit_path}"\n'
                    f"{POLICY}{body}")


@pytest.fixture
async def make_deck(tmp_path: Path, config_path: Path, audit_path: Path,
                    monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Callable[..., Any]]:
    """``make_deck(body, **deck_options)`` → (deck, stubs); decks are closed after the test."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    decks: list[Deck] = []

    def make(body: str, **options: Any) -> tuple[Deck, Stubs]:
        write_config(config_path, audit_path, body)
        stubs = Stubs(TOOLS)
        deck = Deck.from_config(config_path, extra_plugins={"stubs": stubs}, **options)
        decks.append(deck)
        return deck, stubs

    yield make
    for deck in decks:
        await deck.aclose()


@pytest.fixture
def audit(audit_path: Path) -> Callable[..., list[dict[str, Any]]]:
    """``audit(kind=None)``: the records written so far, oldest first."""
    def read(kind: str | None = None) -> list[dict[str, Any]]:
        if not audit_path.exists():
            return []
        records = [json.loads(line) for line in audit_path.read_text("utf-8").splitlines()]
        return [r for r in records if kind is None or r["kind"] == kind]
    return read
