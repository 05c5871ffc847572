"""A deck over a temporary sandbox, with a counting read-only tool beside the file tools."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import attrs
import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck, ToolResult
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.plugins.result_cache import store_of
from tooldeck.plugins.result_cache.freshness import RACY_WINDOW_NS
from tooldeck.runtime import CallContext

SETTLED_S = 2 * RACY_WINDOW_NS / 1e9
"""Sleeping this long makes every earlier change old enough for its result to be cached
(a sleep never ends early, so this holds however loaded the machine is)."""


def settle() -> None:
    """Let every change made so far leave the racy window."""
    time.sleep(SETTLED_S)


class LookupParams(pydantic.BaseModel):
    q: str


class Counting:
    """A read-only tool ``lookup`` that depends on no local state, counting its runs."""

    name = "counting"

    def __init__(self) -> None:
        self.runs = 0

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        self.runs += 1
        return ToolOutput(call.tool_id, f"answer {call.params['q']} #{self.runs}", read_paths=())

    @hookimpl
    def tooldeck_register_tools(self, register: Any) -> None:
        register(ToolDef(id="lookup", description="look up", params=LookupParams,
                         executor=self.name, capabilities={"read"}))

    @hookimpl
    def tooldeck_register_executors(self, register: Any) -> None:
        register(self)


@attrs.define
class Env:
    """A deck, its sandbox root, its config file and the counting tool."""

    deck: Deck
    root: Path
    config: Path
    audit: Path
    counting: Counting

    async def call(self, tool: str, caller: str | None = None, **params: Any) -> ToolResult:
        return await self.deck.call(ToolCall(tool, params, caller_id=caller))

    async def text(self, tool: str, **params: Any) -> str:
        result = await self.call(tool, **params)
        assert result.ok, result.text
        return result.text

    def hits(self) -> int:
        return store_of(self.deck.runtime).counts.hits

    async def reconfigure(self, body: str, lookup: str = "allow", deny_read: str = "") -> None:
        write_config(self.config, self.audit, body, lookup, deny_read)
        assert await self.deck.reload(), self.deck.last_reload_error


def write_config(config: Path, audit: Path, body: str, lookup: str = "allow",
                 deny_read: str = "") -> None:
    default = embedded_default_text()
    if deny_read:
        default = default.replace("deny_read = [", f'deny_read = ["{deny_read}", ', 1)
    text = (f'{default}\n[tools.audit]\npath = "{audit}"\n'
            f'[tools.overflow]\npath = "{audit.parent / "overflow.sqlite3"}"\n'
            f'[[tools.permissions.lookup]]\npattern = "*"\naction = "{lookup}"\n'
            f"{body}\n")
    tmp = config.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, config)


async def _no_wait() -> None:
    await asyncio.sleep(0)


MakeEnv = Callable[..., Env]


@pytest.fixture
async def make_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[MakeEnv]:
    root = tmp_path / "root"
    root.mkdir()
    monkeypatch.chdir(root)
    envs: list[Env] = []

    def make(body: str = "") -> Env:
        config = tmp_path / "tooldeck.toml"
        audit = tmp_path / "audit.jsonl"
        write_config(config, audit, body)
        counting = Counting()
        deck = Deck.from_config(config, extra_plugins={"counting": counting}, environ={},
                                settle_wait=_no_wait)
        env = Env(deck, root, config, audit, counting)
        envs.append(env)
        return env

    yield make
    for env in envs:
        await env.deck.aclose()
