"""Hot reload with real file events: build aside, swap, drain, never loosen on a bad file."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext, Runtime

pytestmark = pytest.mark.timeout(60)


class ProbeParams(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    value: str = "x"


class ProbeExecutor:
    """Returns which runtime ran the call; can be held open to simulate a long call."""

    name = "probe"

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.started = asyncio.Event()
        self.hold = False

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        self.started.set()
        if self.hold:
            await self.release.wait()
        return ToolOutput("probe", f"runtime {id(ctx.runtime)}")


class ProbePlugin:
    def __init__(self) -> None:
        self.executors: list[ProbeExecutor] = []
        self.unconfigured: list[tuple[int, int]] = []

    @hookimpl
    def tooldeck_register_executors(self, register: object) -> None:
        executor = ProbeExecutor()
        self.executors.append(executor)
        register(executor)  # type: ignore[operator]

    @hookimpl
    def tooldeck_register_tools(self, register: object) -> None:
        register(ToolDef(id="probe", description="probe", params=ProbeParams,  # type: ignore[operator]
                         executor="probe", input_param="value"))

    @hookimpl
    def tooldeck_unconfigure(self, runtime: Runtime) -> None:
        self.unconfigured.append((id(runtime), runtime.inflight))


def policy(action: str, audit: Path) -> str:
    return (f'[tools.audit]\npath = "{audit}"\n\n'
            f'[[tools.permissions.probe]]\npattern = "*"\naction = "{action}"\n')


def save_atomically(path: Path, text: str) -> None:
    """Save the way editors do: write a temporary file, then rename it over the original."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def audit_kinds(audit: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in audit.read_text().splitlines()]


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path, ProbePlugin]:
    config = tmp_path / "conf" / "tooldeck.toml"
    config.parent.mkdir()
    audit = tmp_path / "audit.jsonl"
    config.write_text(policy("allow", audit))
    return config, audit, ProbePlugin()


@pytest.fixture
async def watching(setup: tuple[Path, Path, ProbePlugin]) -> AsyncIterator[
        tuple[Deck, asyncio.Queue[bool], Path, Path, ProbePlugin]]:
    config, audit, plugin = setup
    deck = Deck.from_config(config, extra_plugins={"probe": plugin})
    outcomes: asyncio.Queue[bool] = asyncio.Queue()
    task = asyncio.create_task(deck.watch(on_reload=outcomes.put_nowait))
    await asyncio.sleep(0.3)  # let the watcher start
    yield deck, outcomes, config, audit, plugin
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await deck.aclose()


async def verdict(deck: Deck) -> str:
    result = await deck.call(ToolCall("probe", {"value": "v"}))
    return "allow" if result.ok else result.error.category.label  # type: ignore[union-attr]


async def test_atomic_rename_save_is_picked_up(watching) -> None:  # type: ignore[no-untyped-def]
    deck, outcomes, config, audit, _ = watching
    assert await verdict(deck) == "allow"
    save_atomically(config, policy("deny", audit))
    assert await asyncio.wait_for(outcomes.get(), 10) is True
    assert await verdict(deck) == ErrorCategory.POLICY_BLOCKED.label
    reloaded = [r for r in audit_kinds(audit) if r["kind"] == "policy.reloaded"]
    assert len(reloaded) == 1
    assert reloaded[0]["old_digest"] != reloaded[0]["new_digest"]


async def test_broken_toml_keeps_old_policy_and_audits(watching) -> None:  # type: ignore[no-untyped-def]
    deck, outcomes, config, audit, _ = watching
    before = deck.runtime
    save_atomically(config, "[[tools.permissions.probe]\npattern = ")
    assert await asyncio.wait_for(outcomes.get(), 10) is False
    assert deck.runtime is before
    assert await verdict(deck) == "allow"
    failed = [r for r in audit_kinds(audit) if r["kind"] == "policy.reload_failed"]
    assert failed and failed[0]["file"] == str(config)
    assert "invalid TOML" in str(failed[0]["reason"])


async def test_invalid_value_keeps_old_policy(watching) -> None:  # type: ignore[no-untyped-def]
    deck, outcomes, config, audit, _ = watching
    save_atomically(config, policy("perhaps", audit))
    assert await asyncio.wait_for(outcomes.get(), 10) is False
    assert "tools.permissions.probe" in (deck.last_reload_error or "")
    assert await verdict(deck) == "allow"


async def test_deleting_the_file_does_not_loosen(setup) -> None:  # type: ignore[no-untyped-def]
    config, audit, plugin = setup
    config.write_text(policy("deny", audit))
    deck = Deck.from_config(config, extra_plugins={"probe": plugin})
    outcomes: asyncio.Queue[bool] = asyncio.Queue()
    task = asyncio.create_task(deck.watch(on_reload=outcomes.put_nowait))
    await asyncio.sleep(0.3)
    try:
        config.with_name("other.toml").write_text("# unrelated\n")  # a change in the directory
        config.unlink()
        assert await asyncio.wait_for(outcomes.get(), 10) is False
        assert "deleted" in (deck.last_reload_error or "")
        assert await verdict(deck) == ErrorCategory.POLICY_BLOCKED.label
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await deck.aclose()


async def test_call_in_flight_finishes_on_old_runtime(setup) -> None:  # type: ignore[no-untyped-def]
    config, audit, plugin = setup
    deck = Deck.from_config(config, extra_plugins={"probe": plugin})
    old = deck.runtime
    old_executor = plugin.executors[-1]
    old_executor.hold = True
    in_flight = asyncio.create_task(deck.call(ToolCall("probe", {"value": "v"})))
    await asyncio.wait_for(old_executor.started.wait(), 5)

    save_atomically(config, policy("deny", audit))  # a tightening saved atomically: at once
    reload_task = asyncio.create_task(deck.reload())
    await asyncio.sleep(0.05)
    assert deck.runtime is not old, "the new runtime is swapped in while the call runs"
    assert not reload_task.done(), "the old runtime is drained before it is retired"
    assert plugin.unconfigured == []
    assert await verdict(deck) == ErrorCategory.POLICY_BLOCKED.label

    old_executor.release.set()
    result = await in_flight
    assert result.ok and result.text == f"runtime {id(old)}"
    assert await reload_task is True
    assert plugin.unconfigured == [(id(old), 0)]
    await deck.aclose()


async def test_reload_refused_when_policy_file_recorded_by_plugin_is_gone(
        setup: tuple[Path, Path, ProbePlugin], tmp_path: Path) -> None:
    config, _audit, plugin = setup
    overlay = tmp_path / "overlay.toml"
    overlay.write_text("# tightening overlay\n")

    class Recorder:
        @hookimpl
        def tooldeck_configure(self, runtime: Runtime) -> None:
            if overlay.exists():
                runtime.add_policy_file(overlay)

    deck = Deck.from_config(config, extra_plugins={"probe": plugin, "recorder": Recorder()})
    overlay.unlink()
    assert await deck.reload() is False
    assert str(overlay) in (deck.last_reload_error or "")
    await deck.aclose()
