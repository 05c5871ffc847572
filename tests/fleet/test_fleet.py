"""The acceptance of issue 19: four worker processes on one real PostgreSQL server.

Each worker is a separate process with its own deck (``worker.py``); the server is real
(see ``conftest.py``). Nothing is mocked.
"""

from __future__ import annotations

import os
import signal
import statistics
from typing import Any

import pytest

from tests.fleet.conftest import admin, fleet_config
from tooldeck.pg_server import TemporaryPostgres

PROPAGATION_LIMIT_S = 0.2

# four decks start in four processes: on a loaded 2-core machine that alone takes a while
pytestmark = pytest.mark.timeout(600)


def test_four_workers_share_one_quota_of_100_calls(pg_url: str, start_workers: Any,
                                                   pg_server: TemporaryPostgres) -> None:
    workers = start_workers(4, fleet_config(pg_url, "[tools]\nmax_tool_calls_per_session = 100\n"))
    for worker in workers:  # all four at once: 160 calls race for 100
        worker.send(op="calls", n=40, caller="team")
    outcomes = [worker.read()["outcomes"] for worker in workers]
    assert sum(o.get("ok", 0) for o in outcomes) == 100, outcomes
    assert sum(o.get("quota_blocked", 0) for o in outcomes) == 60, outcomes
    assert all(set(o) <= {"ok", "quota_blocked"} for o in outcomes), outcomes
    # another caller has a quota of its own
    assert workers[0].ask(op="calls", n=3, caller="other")["outcomes"] == {"ok": 3}
    # the four workers started at once and migrated the schema exactly once
    with admin(pg_server, pg_url.rsplit("/", 1)[1]) as conn:
        versions = conn.execute("SELECT version FROM tooldeck.schema_version").fetchall()
    assert versions == [(1,)]


def test_a_trust_block_set_by_one_worker_is_enforced_by_the_others_within_200_ms(
        pg_url: str, start_workers: Any) -> None:
    # the pollers call every 10 ms; no audit rows, so that they load the machine less
    setter, *others = start_workers(4, fleet_config(pg_url, "[tools.audit]\nenabled = false\n"))
    for worker in others:
        worker.send(op="until_blocked", caller="mallory")
    for worker in others:  # the others are calling as mallory, successfully
        assert worker.read() == {"calling": True}
    before = setter.ask(op="block", caller="mallory")["before"]
    answers = [worker.read() for worker in others]
    assert all("at" in a and a["calls"] > 1 for a in answers), answers
    delays = [a["at"] - before for a in answers]
    assert max(delays) <= PROPAGATION_LIMIT_S, delays
    print(f"block enforced after {statistics.median(delays) * 1000:.1f} ms (median), "
          f"{max(delays) * 1000:.1f} ms (max)")


def test_overflow_written_by_one_worker_is_read_by_another(pg_url: str,
                                                           start_workers: Any) -> None:
    writer, reader = start_workers(2, fleet_config(pg_url, "[tools.overflow]\nthreshold = 1000\n"))
    text = "".join(f"line {i:04d} of a long output\n" for i in range(400))
    stored = writer.ask(op="echo", text=text, caller="alice")
    assert stored["ok"] and stored["overflow_id"], stored
    assert len(stored["text"]) < len(text)
    read = reader.ask(op="read", id=stored["overflow_id"], caller="alice")
    assert read["ok"] and "line 0399 of a long output" in read["text"], read
    assert "line 0200 of a long output" in read["text"]
    # another caller's scope does not see it, on any worker
    other = reader.ask(op="read", id=stored["overflow_id"], caller="bob")
    assert "line 0200" not in other["text"]


def test_audit_records_of_every_worker_are_complete_after_a_kill_9(
        pg_url: str, start_workers: Any, pg_server: TemporaryPostgres) -> None:
    workers = start_workers(4, fleet_config(pg_url))
    for worker in workers:
        worker.send(op="stream", n=60)
    returned: set[str] = set()
    victim = workers[0]
    for _ in range(20):  # the victim is killed mid-stream, after 20 calls returned
        answer = victim.read()
        returned.add(answer["returned"])
    os.kill(victim.proc.pid, signal.SIGKILL)
    victim.proc.wait(30)
    for worker in workers[1:]:
        while "done" not in (answer := worker.read()):
            returned.add(answer["returned"])
    with admin(pg_server, pg_url.rsplit("/", 1)[1]) as conn:
        rows = conn.execute("SELECT line::json ->> 'call_id' FROM tooldeck.log_records "
                            "WHERE stream = 'audit'").fetchall()
    audited = {row[0] for row in rows}
    assert len(returned) == 20 + 3 * 60
    assert returned <= audited, sorted(returned - audited)[:5]
