"""Shared pieces of the reload tests: a tool that records what it ran."""

from __future__ import annotations

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext


class EchoParams(pydantic.BaseModel):
    text: str


class RecordingEcho:
    """A tool that records every text it was run with."""

    name = "echo"

    def __init__(self) -> None:
        self.ran: list[str] = []

    @hookimpl
    def tooldeck_register_executors(self, register: object) -> None:
        register(self)  # type: ignore[operator]

    @hookimpl
    def tooldeck_register_tools(self, register: object) -> None:
        register(ToolDef(id="echo", description="echo", params=EchoParams,  # type: ignore[operator]
                         executor="echo", input_param="text"))

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        self.ran.append(call.params["text"])
        return ToolOutput("echo", call.params["text"])


@pytest.fixture
def echo() -> RecordingEcho:
    """A fresh recording ``echo`` tool plugin."""
    return RecordingEcho()
