"""Decks on the PostgreSQL backend: each kind of state one deck writes, another deck sees."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fleet.conftest import admin, fleet_config
from tests.fleet.worker import EchoPlugin
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.pg_server import TemporaryPostgres
from tooldeck.plugins.scheduler.runner import TaskRunner

MakeDeck = Callable[..., Deck]


@pytest.fixture
def make_pg_deck(pg_url: str, tmp_path: Path) -> Iterator[MakeDeck]:
    """``make_pg_deck(extra_toml)``: a deck on the test's database; closed at the end."""
    decks: list[Deck] = []

    def make(extra: str = "") -> Deck:
        doc = parse_document(fleet_config(pg_url, extra), tmp_path / "tooldeck.toml", "test")
        deck = Deck.from_config(doc, extra_plugins={"echo": EchoPlugin()})
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        deck.close()


def rows(pg_server: TemporaryPostgres, pg_url: str, stream: str) -> list[dict[str, Any]]:
    with admin(pg_server, pg_url.rsplit("/", 1)[1]) as conn:
        lines = conn.execute("SELECT line FROM tooldeck.log_records WHERE stream = %s "
                             "ORDER BY id", (stream,)).fetchall()
    return [json.loads(line) for (line,) in lines]


def test_a_caller_the_anomaly_detector_blocks_on_one_worker_is_blocked_on_all(
        make_pg_deck: MakeDeck) -> None:
    anomaly = "[tools.anomaly]\nenabled = true\n"
    first, second = make_pg_deck(anomaly), make_pg_deck(anomaly)
    for _ in range(5):  # refused calls count as failures: a rate of 100 %
        refused = first.call_sync(ToolCall("bash", {"command": "curl http://169.254.169.254/"},
                                           caller_id="flaky"))
        assert refused.error is not None
        assert refused.error.category is ErrorCategory.POLICY_BLOCKED
    blocked = second.call_sync(ToolCall("echo", {"command": "hi"}, caller_id="flaky"))
    assert blocked.error is not None
    assert blocked.error.category is ErrorCategory.POLICY_BLOCKED
    assert "trust=blocked" in blocked.error.message
    assert second.call_sync(ToolCall("echo", {"command": "hi"}, caller_id="fine")).ok


def test_the_egress_log_of_every_worker_is_shared(make_pg_deck: MakeDeck, pg_url: str,
                                                  pg_server: TemporaryPostgres) -> None:
    deck = make_pg_deck()
    result = deck.call_sync(ToolCall("bash", {"command": "curl http://169.254.169.254/"},
                                     caller_id="c"))
    assert result.error is not None and result.error.category is ErrorCategory.POLICY_BLOCKED
    hops = rows(pg_server, pg_url, "egress")
    assert [(h["host"], h["blocked"], h["caller_id"]) for h in hops] == [
        ("169.254.169.254", True, "c")]
    audit = rows(pg_server, pg_url, "audit")
    assert [r["call_id"] for r in audit if r["kind"] == "tool_call"] == [result.call.call_id]


async def test_scheduled_tasks_are_shared_and_fire_once(make_pg_deck: MakeDeck) -> None:
    scheduler, *runners = make_pg_deck(), make_pg_deck(), make_pg_deck()
    for name in ("a", "b", "c"):
        done = await scheduler.call(ToolCall("schedule_deferred", {
            "name": name, "at": "2099-01-01T00:00:00Z", "tool": "echo",
            "params": {"command": name}}, caller_id="ops"), confirm=True)
        assert done.ok, done.text
    fired = []
    for deck in runners:
        runner = TaskRunner(deck, clock=lambda: 4102444800.0)  # 2100: every task is due
        assert sorted(t.name for t in runner.store.tasks()) in (["a", "b", "c"], [])
        fired += [(task.name, result.text) for task, result in await runner.run_due()]
    assert sorted(fired) == [("a", "a"), ("b", "b"), ("c", "c")]


async def test_a_note_saved_on_one_worker_is_found_on_another(make_pg_deck: MakeDeck) -> None:
    writer, reader = make_pg_deck(), make_pg_deck()
    saved = await writer.call(ToolCall("memory_save", {"content": "the deploy key rotates on "
                                                       "mondays", "tags": ["ops"]},
                                       caller_id="alice"), confirm=True)
    assert saved.ok, saved.text
    found = await reader.call(ToolCall("memory_search", {"query": "when does the key rotate "
                                                         "mondays"}, caller_id="alice"),
                              confirm=True)
    assert found.ok and "rotates on mondays" in found.text
    other = await reader.call(ToolCall("memory_search", {"query": "mondays"}, caller_id="bob"),
                              confirm=True)
    assert "rotates on mondays" not in other.text


def test_audit_tail_reads_the_shared_log(make_pg_deck: MakeDeck, pg_url: str,
                                         tmp_path: Path) -> None:
    deck = make_pg_deck()
    for word in ("one", "two", "three"):
        assert deck.call_sync(ToolCall("echo", {"command": word})).ok
    config = tmp_path / "fleet.toml"
    config.write_text(f'[storage]\nurl = "{pg_url}"\n')
    proc = subprocess.run([str(Path(sys.executable).parent / "tooldeck"), "--config",
                           str(config), "--json", "audit", "tail", "-n", "2"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert [r["command"] for r in json.loads(proc.stdout)] == ["two", "three"]
    assert not (tmp_path / "audit.jsonl").exists()


async def test_a_policy_one_worker_reloads_is_followed_by_the_others(
        pg_url: str, tmp_path: Path) -> None:
    config = tmp_path / "shared" / "tooldeck.toml"  # one configuration directory, shared
    config.parent.mkdir()
    config.write_text(fleet_config(pg_url))
    first = Deck.from_config(config, extra_plugins={"echo": EchoPlugin()})
    second = Deck.from_config(config, extra_plugins={"echo": EchoPlugin()})
    follower = asyncio.create_task(second.follow_fleet())
    try:
        await asyncio.sleep(1.5)  # the follower's listener picks up the channel
        assert (await second.call(ToolCall("echo", {"command": "rm -rf x"}))).ok
        # a tightening, saved by rename: applied at once by the rule
        tighter = tmp_path / "shared" / "tooldeck.toml.tmp"
        tighter.write_text(fleet_config(pg_url).replace(
            '[[tools.permissions.echo]]\n', '[[tools.permissions.echo]]\npattern = "rm *"\n'
            'action = "deny"\n\n[[tools.permissions.echo]]\n', 1))
        tighter.replace(config)
        assert await first.reload()
        deadline = time.monotonic() + 10
        while second.runtime.digest() != first.runtime.digest() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert second.runtime.digest() == first.runtime.digest()
        denied = await second.call(ToolCall("echo", {"command": "rm -rf x"}))
        assert denied.error is not None
        assert denied.error.category is ErrorCategory.POLICY_BLOCKED
    finally:
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower
        await first.aclose()
        await second.aclose()


def test_stats_sums_the_shared_audit_log(make_pg_deck: MakeDeck, pg_url: str,
                                         tmp_path: Path) -> None:
    deck = make_pg_deck(f'[tools.file]\nallowed_paths = ["{tmp_path}"]\n')
    (tmp_path / "notes.txt").write_text("hello\n")
    past = time.time_ns() - 60 * 10**9 + 123_457  # fine-grained, long ago
    os.utime(tmp_path / "notes.txt", ns=(past, past))
    time.sleep(0.5)  # and its ctime (now) out of the result cache's racy window
    for _ in range(3):  # a cacheable read: a miss, then hits
        read = deck.call_sync(ToolCall("read", {"path": str(tmp_path / "notes.txt")}),
                              confirm=True)
        assert read.ok, read.text
    config = tmp_path / "fleet.toml"
    config.write_text(f'[storage]\nurl = "{pg_url}"\n')
    proc = subprocess.run([str(Path(sys.executable).parent / "tooldeck"), "--config",
                           str(config), "--json", "stats"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)
    assert stats["audit_log"] == "the postgresql audit log"
    assert (stats["result_cache"]["hits"], stats["result_cache"]["misses"]) == (2, 1)
