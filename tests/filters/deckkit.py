"""A real deck (the installed ``filters`` plugin) and a throwaway ``exec`` tool, for the tests."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pydantic

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext


class CommandParams(pydantic.BaseModel):
    """Parameters of the throwaway tools."""

    command: str


class RunOrCanned:
    """Returns canned output for known commands; runs any other command with ``bash -c``."""

    name = "run-or-canned"

    def __init__(self, canned: Mapping[str, tuple[str, int]], truncated: bool = False) -> None:
        self.canned = dict(canned)
        self.truncated = truncated

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        command = str(call.params["command"])
        if command in self.canned:
            text, code = self.canned[command]
            return ToolOutput(call.tool_id, text, {"stdout": text, "stderr": ""},
                              truncated=self.truncated, exit_code=code)
        proc = await asyncio.create_subprocess_exec(
            "bash", "-c", command, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        out, _ = await proc.communicate()
        text = out.decode("utf-8", "replace")
        return ToolOutput(call.tool_id, text, {"stdout": text, "stderr": ""},
                          exit_code=proc.returncode)


class ExecToolPlugin:
    """Registers ``sh`` (capability ``execute``) and ``show`` (capability ``read``)."""

    def __init__(self, canned: Mapping[str, tuple[str, int]] | None = None,
                 truncated: bool = False) -> None:
        self.executor = RunOrCanned(canned or {}, truncated)

    @hookimpl
    def tooldeck_register_tools(self, register: Any) -> None:
        for tool_id, capability in (("sh", "execute"), ("show", "read")):
            register(ToolDef(id=tool_id, description=f"throwaway {capability} tool",
                             params=CommandParams, executor=self.executor.name,
                             capabilities={capability}))

    @hookimpl
    def tooldeck_register_executors(self, register: Any) -> None:
        register(self.executor)


def open_deck(tmp_path: Path, toml: str = "", **plugins: object) -> Deck:
    """A deck from a real config file in ``tmp_path`` with the filters plugin and ``plugins``.

    The ``overflow`` plugin, which would add its reference to filtered outputs, is disabled:
    these tests look at what the filters plugin itself returns.
    """
    config = tmp_path / "tooldeck.toml"
    if "disable = [" in toml:
        toml = toml.replace("disable = [", 'disable = ["overflow", ', 1)
    else:
        toml = '[plugins]\ndisable = ["overflow"]\n' + toml if "[plugins]" not in toml else toml
    config.write_text(toml)
    return Deck.from_config(config, extra_plugins=plugins, environ={})
