"""The scheduler: tasks validated when scheduled, fired through the pipeline, kept on disk."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.config import parse_document
from tooldeck.deck import Deck, ToolResult
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.plugins.scheduler.runner import TaskRunner
from tooldeck.plugins.scheduler.store import Task, TaskStore
from tooldeck.plugins.scheduler.timing import BadSchedule, next_fire

MakeDeck = Callable[..., Deck]
RULES = "".join(
    f'[[tools.permissions.{tool}]]\npattern = "*"\naction = "allow"\n'
    for tool in ("schedule_periodic", "schedule_deferred", "cancel_task", "list_tasks", "read",
                 "memory_save", "memory_search"))
SEARCH = {"tool": "memory_search", "params": {"query": "x"}}


def config_text(tmp_path: Path, extra: str = "") -> str:
    audit = json.dumps(str(tmp_path / "audit.jsonl"))
    return (f"[tools.audit]\npath = {audit}\n"
            f"[tools.memory]\npath = {json.dumps(str(tmp_path / 'memory.sqlite3'))}\n"
            f"[tools.file]\nallowed_paths = [{json.dumps(str(tmp_path))}]\n"
            f"[tools.scheduler]\npath = {json.dumps(str(tmp_path / 'tasks.sqlite3'))}\n"
            f"{extra}{RULES}")


@pytest.fixture
async def make_deck(tmp_path: Path) -> AsyncIterator[MakeDeck]:
    decks: list[Deck] = []

    def make(extra: str = "") -> Deck:
        text = config_text(tmp_path, extra)
        deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()


async def schedule(deck: Deck, tool_id: str, /, **params: Any) -> ToolResult:
    caller = params.pop("caller", None)
    return await deck.call(ToolCall(tool_id, params, caller_id=caller))


def audit_kinds(tmp_path: Path, kind: str) -> list[dict[str, Any]]:
    lines = (tmp_path / "audit.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["kind"] == kind]


class FakeClock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def test_a_periodic_task_fires_on_schedule_through_the_pipeline(
        make_deck: MakeDeck, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    deck = make_deck()
    scheduled = await schedule(deck, "schedule_periodic", name="nightly", cron="0 3 * * *",
                               tool="read", params={"path": str(tmp_path / "notes.txt")})
    assert scheduled.ok, scheduled.text
    clock = FakeClock()
    runner = TaskRunner(deck, clock)
    try:
        assert await runner.run_due() == []  # not due yet
        fired = []
        for _ in range(3):
            clock.now = runner.store.next_due() or 0.0
            fired += await runner.run_due()
        assert [task.name for task, _ in fired] == ["nightly"] * 3
        assert all(result.ok and "hello" in result.text for _, result in fired)
        assert runner.store.tasks()[0].runs == 3
    finally:
        runner.close()
    calls = [r for r in audit_kinds(tmp_path, "tool_call") if r.get("tool") == "read"]
    assert len(calls) == 3
    assert [r["task"] for r in audit_kinds(tmp_path, "scheduler.fired")] == ["nightly"] * 3


async def test_a_missed_stretch_fires_once_and_a_restart_keeps_the_task(
        make_deck: MakeDeck, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    first = make_deck()
    await schedule(first, "schedule_periodic", name="hourly", cron="0 * * * *", tool="read",
                   params={"path": str(tmp_path / "a.txt")})
    await first.aclose()
    clock = FakeClock()
    clock.now += 10 * 3600  # ten firings missed while nothing ran
    runner = TaskRunner(make_deck(), clock)
    try:
        assert len(await runner.run_due()) == 1
        assert await runner.run_due() == []
        assert (runner.store.next_due() or 0) > clock.now
    finally:
        runner.close()


async def test_a_deferred_task_fires_once_and_is_gone(make_deck: MakeDeck,
                                                      tmp_path: Path) -> None:
    deck = make_deck()
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
    result = await schedule(deck, "schedule_deferred", name="later", at=at, tool="memory_save",
                            params={"content": "deferred note"})
    assert result.ok, result.text
    clock = FakeClock()
    runner = TaskRunner(deck, clock)
    try:
        clock.now += 7200
        assert [t.name for t, r in await runner.run_due() if r.ok] == ["later"]
        assert runner.store.tasks() == []
    finally:
        runner.close()


async def test_cancel_stops_a_task(make_deck: MakeDeck) -> None:
    deck = make_deck()
    await schedule(deck, "schedule_periodic", name="t", cron="*/5 * * * *", **SEARCH)
    assert "t: memory_search every '*/5 * * * *'" in (await schedule(deck, "list_tasks")).text
    assert (await schedule(deck, "cancel_task", name="t")).ok
    missing = await schedule(deck, "cancel_task", name="t")
    assert missing.error is not None and "no task named 't'" in missing.error.message
    assert (await schedule(deck, "list_tasks")).text == "no tasks scheduled"


async def test_a_firing_is_judged_by_the_policy_of_its_time(make_deck: MakeDeck,
                                                            tmp_path: Path) -> None:
    """The policy at firing time decides; an ask has nobody to confirm it and fails closed."""
    (tmp_path / "b.txt").write_text("b\n")
    deck = make_deck('[[tools.permissions.read]]\npattern = "*b.txt"\naction = "ask"\n')
    await schedule(deck, "schedule_periodic", name="r", cron="* * * * *", tool="read",
                   params={"path": str(tmp_path / "b.txt")})
    clock = FakeClock()
    runner = TaskRunner(deck, clock)
    try:
        clock.now += 120
        ((_, result),) = await runner.run_due()
    finally:
        runner.close()
    assert result.error is not None
    assert result.error.category is ErrorCategory.CONFIRMATION_REQUIRED
    fired = audit_kinds(tmp_path, "scheduler.fired")[-1]
    assert (fired["ok"], fired["category"]) == (False, "confirmation_required")


@pytest.mark.parametrize(("params", "message"), [
    ({"cron": "* * * *"}, "has 4 fields"),
    ({"cron": "61 * * * *"}, "Bad minute"),
    ({"cron": "* * * * * *"}, "fires every 1 s; the minimum is 60 s"),
    ({"cron": "0 3 * * *", "tool": "nope"}, "no tool named 'nope'"),
    ({"cron": "0 3 * * *", "tool": "list_tasks"}, "cannot schedule or cancel"),
    ({"cron": "0 3 * * *", "params": {"paht": "x"}}, "parameters for read"),
    ({"cron": "0 3 * * *", "name": "../x"}, "name"),
])
async def test_bad_schedules_are_invalid_parameters(make_deck: MakeDeck, params: dict[str, Any],
                                                    message: str) -> None:
    deck = make_deck()
    full = {"name": "x", "tool": "read", "params": {"path": "f"}, **params}
    result = await schedule(deck, "schedule_periodic", **full)
    assert result.error is not None and result.error.category is ErrorCategory.INVALID_PARAMETERS
    assert message in result.error.message


@pytest.mark.parametrize(("at", "message"), [
    ("2001-01-01T00:00:00Z", "in the past"),
    ("2099-01-01T00:00:00", "no time zone"),
    ("next tuesday", "not an ISO 8601 time"),
])
async def test_bad_times_are_invalid_parameters(make_deck: MakeDeck, at: str,
                                                message: str) -> None:
    result = await schedule(make_deck(), "schedule_deferred", name="x", at=at, **SEARCH)
    assert result.error is not None and result.error.category is ErrorCategory.INVALID_PARAMETERS
    assert message in result.error.message


async def test_names_are_unique_per_caller_and_scopes_are_apart(make_deck: MakeDeck) -> None:
    deck = make_deck("max_tasks = 2\n")
    args = {"cron": "0 3 * * *", **SEARCH}
    assert (await schedule(deck, "schedule_periodic", name="a", caller="alice", **args)).ok
    taken = await schedule(deck, "schedule_periodic", name="a", caller="alice", **args)
    assert taken.error is not None and "exists" in taken.error.message
    assert (await schedule(deck, "schedule_periodic", name="a", caller="bob", **args)).ok
    assert (await schedule(deck, "schedule_periodic", name="b", caller="alice", **args)).ok
    full = await schedule(deck, "schedule_periodic", name="c", caller="alice", **args)
    assert full.error is not None and "limit is 2" in full.error.message
    listing = (await schedule(deck, "list_tasks", caller="bob")).text
    assert listing.startswith("a: memory_search") and "b:" not in listing


async def test_the_default_policy_asks_before_scheduling(tmp_path: Path) -> None:
    deck = Deck.from_config(None, environ={"TOOLDECK_TOOLS_AUDIT_ENABLED": "false",
                                           "TOOLDECK_TOOLS_SCHEDULER_PATH":
                                           str(tmp_path / "t.sqlite3")})
    try:
        result = await schedule(deck, "schedule_periodic", name="x", cron="0 3 * * *",
                                **SEARCH)
        assert result.error is not None
        assert result.error.category is ErrorCategory.CONFIRMATION_REQUIRED
        assert (await schedule(deck, "list_tasks")).ok
    finally:
        await deck.aclose()


@given(st.text(max_size=40))
def test_any_cron_text_is_accepted_or_refused_cleanly(text: str) -> None:
    with contextlib.suppress(BadSchedule):
        assert next_fire(text, 1_767_225_600.0) > 1_767_225_600.0


def test_the_command_line_fires_due_tasks_once(tmp_path: Path) -> None:
    (tmp_path / "c.txt").write_text("c\n")
    config = tmp_path / "tooldeck.toml"
    config.write_text(config_text(tmp_path))
    store = TaskStore(tmp_path / "tasks.sqlite3")
    try:  # a task already due, as if scheduled earlier
        assert store.add(Task("default", "soon", None, None, time.time() - 1, "read",
                              {"path": str(tmp_path / "c.txt")}), limit=10) is None
    finally:
        store.close()
    tooldeck = str(Path(sys.executable).parent / "tooldeck")
    proc = subprocess.run([tooldeck, "scheduler", "run", "--once",
                           "--config", str(config)], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (0, "soon: read ok\n"), proc.stderr
    listed = subprocess.run([tooldeck, "scheduler", "list",
                             "--config", str(config)], capture_output=True, text=True,
                            timeout=60)
    assert (listed.returncode, listed.stdout) == (0, "")
