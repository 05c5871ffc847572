"""Fixtures for the anomaly detector tests: decks with a tool that fails on demand."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pydantic
import pytest

from tests.trust_gate.conftest import audit_path, config_path, config_text, project
from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext

__all__ = ["audit_path", "config_path", "project"]

ON = "[tools.anomaly]\nenabled = true\n"
RULES = ('[[tools.permissions.job]]\npattern = "ask*"\naction = "ask"\n'
         '[[tools.permissions.job]]\npattern = "*"\naction = "allow"\n')


class JobParams(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    value: str


class Jobs:
    """The ``job`` tool: ``ok`` succeeds, ``fail`` fails, ``deny`` is denied by a gate.

    ``pair-ok`` and ``pair-fail`` wait until two such calls are running, so that two calls
    are surely in flight at once.
    """

    name = "jobs"

    def __init__(self) -> None:
        self.running = 0
        self.both: asyncio.Event | None = None

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[..., None]) -> None:
        register(self)

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
        register(ToolDef(id="job", description="job", params=JobParams, executor="jobs",
                         capabilities={"read"}, input_param="value"))

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall) -> Any:
        from tooldeck.models import Decision, Verdict

        if call.tool_id == "job" and call.params.get("value") == "deny":
            return Decision(Verdict.DENY, "denied by the test gate")
        return None

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        value = call.params["value"]
        if value.startswith("pair-"):
            self.both = self.both or asyncio.Event()
            self.running += 1
            if self.running % 2:
                await self.both.wait()
            else:
                self.both.set()
                self.both = None
            value = value.removeprefix("pair-")
        if value == "fail":
            raise ToolError(ErrorCategory.PERMANENT_FAILURE, "the job failed")
        return ToolOutput("job", "done")


def job(value: str, caller: str | None = "alice", **kw: Any) -> ToolCall:
    """A call of the ``job`` tool."""
    return ToolCall("job", {"value": value}, caller_id=caller, **kw)


@pytest.fixture
async def make_deck(project: Path, config_path: Path,
                    audit_path: Path) -> AsyncIterator[Callable[..., Deck]]:
    """A deck from the default config, the ``job`` tool's rules and ``body``."""
    decks: list[Deck] = []

    def make(body: str = ON, **kw: Any) -> Deck:
        config_path.parent.mkdir(exist_ok=True)
        config_path.write_text(config_text(RULES + body, audit_path))
        deck = Deck.from_config(config_path, extra_plugins={"jobs": Jobs()}, **kw)
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()
