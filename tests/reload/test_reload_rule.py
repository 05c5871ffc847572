"""The hot-reload rule, piece by piece, with real files and the real watcher."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.runtime import Runtime


def digest(text: str) -> str:
    """A generation of one config file and no other policy file."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]

pytestmark = pytest.mark.timeout(60)


def rules(*pairs: tuple[str, str]) -> str:
    return "".join(f'[[tools.permissions.echo]]\npattern = "{p}"\naction = "{a}"\n\n'
                   for p, a in pairs)


LOOSE = rules(("*", "allow"))
TIGHT = rules(("rm*", "deny"), ("*", "allow"))


def save_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


class Setup:
    def __init__(self, tmp_path: Path, echo: Any, text: str, settle_s: float) -> None:
        self.config = tmp_path / "tooldeck.toml"
        self.audit = tmp_path / "audit.jsonl"
        self.config.write_text(text)
        self.echo = echo
        self.deck = Deck.from_config(self.config, extra_plugins={"echo": self.echo},
                                     environ={"TOOLDECK_TOOLS_AUDIT_PATH": str(self.audit)},
                                     settle_s=settle_s)

    def records(self, kind: str) -> list[dict[str, Any]]:
        if not self.audit.exists():
            return []
        lines = [json.loads(line) for line in self.audit.read_text().splitlines()]
        return [r for r in lines if r["kind"] == kind]

    async def runs(self, text: str = "rm -rf /") -> bool:
        return (await self.deck.call(ToolCall("echo", {"text": text}), confirm=True)).ok


@contextlib.asynccontextmanager
async def watching(setup: Setup) -> AsyncIterator[asyncio.Queue[bool]]:
    outcomes: asyncio.Queue[bool] = asyncio.Queue()
    task = asyncio.create_task(setup.deck.watch(on_reload=outcomes.put_nowait))
    await asyncio.sleep(0.3)
    try:
        yield outcomes
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await setup.deck.aclose()


async def test_a_zero_byte_file_is_a_save_in_progress(tmp_path: Path, echo: Any) -> None:
    setup = Setup(tmp_path, echo, TIGHT, settle_s=5)
    before = setup.deck.runtime
    setup.config.write_bytes(b"")
    started = time.monotonic()
    assert await setup.deck.reload() is False
    assert time.monotonic() - started < 2, "skipped at once, not after a settle"
    assert setup.deck.runtime is before
    assert not await setup.runs()
    assert setup.records("policy.reload_failed") == []
    await setup.deck.aclose()


async def test_an_atomic_tightening_applies_without_waiting_for_the_settle(
        tmp_path: Path, echo: Any) -> None:
    setup = Setup(tmp_path, echo, LOOSE, settle_s=30)
    async with watching(setup) as outcomes:
        assert await setup.runs()
        started = time.monotonic()
        save_atomically(setup.config, TIGHT)
        assert await asyncio.wait_for(outcomes.get(), 10) is True
        assert time.monotonic() - started < 5, "well under the 30 s settle"
        assert not await setup.runs()
    (event,) = setup.records("policy.reloaded")
    assert event["change"] == "tighten"
    assert event["new_digest"] == digest(TIGHT)


async def test_an_in_place_tightening_waits_for_the_settle(tmp_path: Path, echo: Any) -> None:
    setup = Setup(tmp_path, echo, LOOSE, settle_s=0.6)
    setup.config.write_text(TIGHT)  # same inode: a prefix of it could look like a tightening
    reload = asyncio.create_task(setup.deck.reload())
    await asyncio.sleep(0.3)
    assert not reload.done() and await setup.runs()
    assert await reload is True
    assert not await setup.runs()
    await setup.deck.aclose()


async def test_a_loosening_waits_for_a_stable_file_and_is_audited_as_such(
        tmp_path: Path, echo: Any) -> None:
    setup = Setup(tmp_path, echo, TIGHT, settle_s=0.6)
    async with watching(setup) as outcomes:
        save_atomically(setup.config, LOOSE)
        await asyncio.sleep(0.3)
        assert not await setup.runs(), "not before the settle interval"
        assert await asyncio.wait_for(outcomes.get(), 10) is True
        assert await setup.runs()
    (event,) = setup.records("policy.loosened")
    assert event["loosened"] == ["tools.permissions.echo"]
    assert event["old_digest"] == digest(TIGHT) and event["new_digest"] == digest(LOOSE)
    assert setup.records("policy.reloaded") == []
    calls = setup.records("tool_call")
    assert [c["policy"] for c in calls] == [digest(TIGHT), digest(LOOSE)]


async def test_a_file_that_keeps_changing_is_never_applied(tmp_path: Path, echo: Any) -> None:
    setup = Setup(tmp_path, echo, TIGHT, settle_s=0.4)
    reload = asyncio.create_task(setup.deck.reload())
    for i in range(8):  # rewritten in place every 0.1 s: never stable for 0.4 s
        setup.config.write_text(LOOSE + f"# {i}\n")
        await asyncio.sleep(0.1)
        assert not await setup.runs()
    assert not reload.done()
    assert await asyncio.wait_for(reload, 5) is True  # stable at last: applied
    assert await setup.runs()
    assert setup.deck.runtime.digest() == digest(LOOSE + "# 7\n")
    await setup.deck.aclose()


async def test_an_invalid_file_keeps_the_last_good_policy_and_is_audited_once_stable(
        tmp_path: Path, echo: Any) -> None:
    setup = Setup(tmp_path, echo, TIGHT, settle_s=0.4)
    async with watching(setup) as outcomes:
        save_atomically(setup.config, rules(("*", "perhaps")))
        assert await asyncio.wait_for(outcomes.get(), 10) is False
        assert not await setup.runs()
    (failed,) = setup.records("policy.reload_failed")
    assert failed["kept_digest"] == digest(TIGHT)
    assert "tools.permissions.echo" in failed["reason"]


async def test_the_digest_is_of_what_was_read_not_of_the_disk_now(
        tmp_path: Path, echo: Any) -> None:
    setup = Setup(tmp_path, echo, TIGHT, settle_s=5)
    setup.config.write_text(LOOSE)
    assert setup.deck.runtime.digest() == digest(TIGHT)
    await setup.runs()
    (call,) = setup.records("tool_call")
    assert call["policy"] == digest(TIGHT)
    await setup.deck.aclose()


async def test_an_unreadable_policy_file_is_refused_not_raised(
        tmp_path: Path, echo: Any) -> None:
    odd = tmp_path / "odd.toml"
    odd.write_text("# a policy file a plugin recorded\n")

    class Recorder:
        @hookimpl
        def tooldeck_configure(self, runtime: Runtime) -> None:
            runtime.add_policy_file(odd)

    config = tmp_path / "tooldeck.toml"
    config.write_text(TIGHT)
    deck = Deck.from_config(config, extra_plugins={"echo": echo, "recorder": Recorder()},
                            environ={"TOOLDECK_TOOLS_AUDIT_ENABLED": "false"}, settle_s=0.1)
    odd.unlink()
    odd.mkdir()  # now it cannot be read as a file
    assert await deck.reload() is False
    assert "cannot read a policy file" in (deck.last_reload_error or "")
    await deck.aclose()
