"""The PostgreSQL backend's stores, one by one, on the real server (two backends = two workers)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.fleet.conftest import admin
from tooldeck.config import StorageConfig
from tooldeck.pg_server import TemporaryPostgres
from tooldeck.plugins.postgres.backend import PostgresStorage
from tooldeck.plugins.postgres.migrate import LOCK_KEY, migrate, migrations
from tooldeck.storage_api import StorageError, Task
from tooldeck.trust_levels import TrustLevel
from tooldeck.trust_state import Subject

NOWHERE = Path("/nonexistent/unused")

OpenBackend = Callable[..., PostgresStorage]


@pytest.fixture
def backend(pg_url: str, pg_server: TemporaryPostgres) -> Iterator[OpenBackend]:
    """``backend(namespace="default")``: a backend on the test's database, closed at the end."""
    opened: list[PostgresStorage] = []

    def open_one(namespace: str = "default") -> PostgresStorage:
        config = StorageConfig(url=pg_url, namespace=namespace)
        storage = PostgresStorage.open(config, {"TOOLDECK_PG_PASSWORD": pg_server.password})
        opened.append(storage)
        return storage

    yield open_one
    for storage in opened:
        storage.close()


def database(pg_url: str) -> str:
    return pg_url.rsplit("/", 1)[1]


# ------------------------------------------------------------------ migrations


def test_migrations_are_numbered_files_applied_once(pg_url: str,
                                                    pg_server: TemporaryPostgres) -> None:
    shipped = migrations()
    assert [v for v, _, _ in shipped] == list(range(1, len(shipped) + 1))
    with admin(pg_server, database(pg_url)) as conn:
        assert migrate(conn) == [v for v, _, _ in shipped]
        assert migrate(conn) == []


def test_workers_migrating_at_once_migrate_once(pg_url: str, pg_server: TemporaryPostgres) -> None:
    applied: list[list[int]] = []
    barrier = threading.Barrier(4)

    def worker() -> None:
        with admin(pg_server, database(pg_url)) as conn:
            barrier.wait()
            applied.append(migrate(conn))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(applied) == [[], [], [], [1]]


def test_a_schema_from_a_newer_tooldeck_is_refused(pg_url: str,
                                                   pg_server: TemporaryPostgres) -> None:
    with admin(pg_server, database(pg_url)) as conn:
        migrate(conn)
        conn.execute("INSERT INTO tooldeck.schema_version (version, name) VALUES (999, 'x')")
        with pytest.raises(StorageError, match="version 999, newer than this tooldeck"):
            migrate(conn)


def test_the_migration_lock_is_held_while_migrating(pg_url: str,
                                                    pg_server: TemporaryPostgres) -> None:
    with admin(pg_server, database(pg_url)) as holder, admin(pg_server, database(pg_url)) as conn:
        holder.execute("BEGIN")
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        conn.execute("SET lock_timeout = '300ms'")
        with pytest.raises(StorageError, match="lock"):
            migrate(conn)  # waits for the holder, then gives up
        holder.execute("ROLLBACK")
        assert migrate(conn) == [1]


# ------------------------------------------------------------------ quota


def test_the_quota_counts_exactly_the_limit_across_backends(backend: OpenBackend) -> None:
    quotas = [backend().quota() for _ in range(2)]
    taken: list[bool] = []
    lock = threading.Lock()

    def take(quota: Any) -> None:
        for _ in range(30):
            ok = quota.take("team", 50)
            with lock:
                taken.append(ok)

    threads = [threading.Thread(target=take, args=(quotas[i % 2],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert taken.count(True) == 50 and taken.count(False) == 70
    assert quotas[0].used("team") == quotas[1].used("team") == 50
    assert quotas[0].used("someone else") == 0


def test_namespaces_share_nothing(backend: OpenBackend) -> None:
    red, blue = backend("red"), backend("blue")
    assert red.quota().take("c", 1)
    assert blue.quota().take("c", 1)  # a quota of its own
    red.trust().set(Subject.caller("c"), TrustLevel.BLOCKED, by="test")
    assert blue.trust().get(Subject.caller("c")) is None
    red.append_log("audit", NOWHERE).append('{"n": 1}')
    assert blue.append_log("audit", NOWHERE).tail(5) == []


# ------------------------------------------------------------------ trust


def test_a_trust_change_reaches_the_other_backend_and_is_never_stale(
        backend: OpenBackend) -> None:
    mine, theirs = backend(), backend()
    subject = Subject.caller("eve\udcff")  # any string, lone surrogates included
    assert theirs.trust().get(subject) is None  # read once: a copy is kept now
    mine.trust().set(subject, TrustLevel.BLOCKED, by="test", reason="why")
    deadline = time.monotonic() + 5
    while theirs.trust().get(subject) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    row = theirs.trust().get(subject)
    assert row is not None and row.level is TrustLevel.BLOCKED and row.reason == "why"
    assert mine.trust().reset(subject) is not None
    deadline = time.monotonic() + 5
    while theirs.trust().get(subject) is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert theirs.trust().get(subject) is None


def test_while_the_listener_is_down_every_read_asks_the_server(
        backend: OpenBackend, pg_url: str, pg_server: TemporaryPostgres) -> None:
    mine, theirs = backend(), backend()
    subject = Subject.caller("mallory")
    assert theirs.trust().get(subject) is None and theirs.listening
    with admin(pg_server, database(pg_url)) as conn:  # drop every listening connection
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE query LIKE 'LISTEN%%' AND pid <> pg_backend_pid()")
    deadline = time.monotonic() + 5
    while theirs.listening and time.monotonic() < deadline:
        time.sleep(0.005)
    # written while nobody listens: no notification can arrive, the next read still sees it
    mine.trust().set(subject, TrustLevel.BLOCKED, by="test")
    row = theirs.trust().get(subject)
    assert row is not None and row.level is TrustLevel.BLOCKED
    deadline = time.monotonic() + 10  # and the listener comes back by itself
    while not theirs.listening and time.monotonic() < deadline:
        time.sleep(0.05)
    assert theirs.listening


def test_a_server_that_goes_away_makes_trust_unreadable_and_calls_fail_closed() -> None:
    from tooldeck.trust_state import TrustStateError

    with TemporaryPostgres() as server:  # a server of its own, to stop under the backend
        config = StorageConfig(url=server.url(), connect_timeout_secs=2)
        storage = PostgresStorage.open(config, {"TOOLDECK_PG_PASSWORD": server.password})
        try:
            assert storage.trust().get(Subject.caller("x")) is None  # a copy is kept now
            server.stop()
            deadline = time.monotonic() + 10
            while storage.listening and time.monotonic() < deadline:
                time.sleep(0.01)
            with pytest.raises(TrustStateError, match="cannot read the shared trust state"):
                storage.trust().get(Subject.caller("x"))
            with pytest.raises(psycopg.OperationalError):
                storage.quota().take("x", 10)
        finally:
            storage.close()


# ------------------------------------------------------------------ overflow


def test_overflow_keeps_any_text_per_scope(backend: OpenBackend) -> None:
    one, two = backend(), backend()
    store = one.overflow(NOWHERE, retention_days=7, max_bytes=1000)
    text = "nul \x00 surrogate \udc80 end"
    ref = store.put("caller:a", "bash", text)
    assert ref is not None and ref.startswith("overflow:")
    other = two.overflow(NOWHERE, retention_days=7, max_bytes=1000)
    assert other.get("caller:a", ref) == text
    assert other.get("caller:a", ref.removeprefix("overflow:")) == text
    assert other.get("caller:b", ref) is None
    assert other.get("caller:a", "overflow:not-a-uuid") is None
    other.drop_scope("caller:a")
    assert store.get("caller:a", ref) is None


def test_overflow_keeps_the_newest_bytes_of_a_scope(backend: OpenBackend) -> None:
    store = backend().overflow(NOWHERE, retention_days=0, max_bytes=250)
    refs = [store.put("s", "t", str(i) * 100) for i in range(4)]
    assert store.put("s", "t", "x" * 251) is None  # alone over the cap
    kept = [ref for ref in refs if ref is not None and store.get("s", ref) is not None]
    assert kept == refs[2:]


# ------------------------------------------------------------------ tasks


def _task(name: str, at: float, cron: str | None = None) -> Task:
    return Task("default", name, None, cron, at, "echo", {"command": name})


def test_each_due_task_is_claimed_by_one_runner(backend: OpenBackend) -> None:
    stores = [backend().tasks(NOWHERE, _unused), backend().tasks(NOWHERE, _unused)]
    for i in range(20):
        assert stores[0].add(_task(f"t{i}", 100.0), limit=50) is None
    assert stores[1].add(_task("t0", 100.0), limit=50) is not None  # the name is taken
    claimed: list[str] = []
    lock = threading.Lock()

    def claim(store: Any) -> None:
        got = store.claim_due(200.0, lambda task: None)
        with lock:
            claimed.extend(task.name for task in got)

    threads = [threading.Thread(target=claim, args=(stores[i % 2],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(claimed) == sorted(f"t{i}" for i in range(20))
    assert stores[1].tasks() == [] and stores[0].next_due() is None


def test_a_periodic_task_moves_on_and_the_scope_limit_holds(backend: OpenBackend) -> None:
    store = backend().tasks(NOWHERE, _unused)
    assert store.add(_task("p", 10.0, "* * * * *"), limit=2) is None
    assert store.add(_task("q", 20.0), limit=2) is None
    assert "the limit is 2" in (store.add(_task("r", 30.0), limit=2) or "")
    assert [t.name for t in store.claim_due(15.0, lambda task: 70.0)] == ["p"]
    assert [(t.name, t.next_run, t.runs) for t in store.tasks("default")] == [
        ("q", 20.0, 0), ("p", 70.0, 1)]
    assert store.cancel("default", "q") and not store.cancel("default", "q")
    assert store.next_due() == 70.0


def _unused(path: Path) -> Any:
    raise AssertionError("the shared backend never opens the embedded store")


# ------------------------------------------------------------------ memory


def test_notes_are_found_by_words_within_their_scope(backend: OpenBackend) -> None:
    store = backend().memory(NOWHERE, _unused)
    first = store.save("alice", "deploy the billing service on friday", ("ops",), keep=10)
    store.save("alice", "lunch with bob", (), keep=10)
    store.save("bob", "billing is broken", (), keep=10)
    assert [n.id for n in store.search("alice", "Billing, OR \"friday\" AND ('", 5)] == [first]
    assert [n.content for n in store.search("alice", "ops", 5)] == [
        "deploy the billing service on friday"]
    assert store.search("alice", "!!! ???", 5) == []
    assert store.count("alice") == 2 and store.count("carol") == 0
    assert [n.content for n in store.recent("alice", 1)] == ["lunch with bob"]
    for i in range(5):
        store.save("alice", f"note {i}", (), keep=3)
    assert [n.content for n in store.recent("alice", 10)] == ["note 4", "note 3", "note 2"]
    with pytest.raises(ValueError, match="NUL"):
        store.save("alice", "a\x00b", (), keep=3)


# ------------------------------------------------------------------ logs


def test_the_audit_log_tail_is_the_newest_records_in_order(backend: OpenBackend) -> None:
    one, two = backend(), backend()
    for i in range(5):
        (one if i % 2 else two).append_log("audit", NOWHERE).append(f'{{"n": {i}}}')
    one.append_log("egress", NOWHERE).append('{"egress": true}')
    assert two.append_log("audit", NOWHERE).tail(3) == ['{"n": 2}', '{"n": 3}', '{"n": 4}']
    assert one.append_log("egress", NOWHERE).tail(3) == ['{"egress": true}']


def test_publish_reaches_every_worker_of_the_namespace(backend: OpenBackend) -> None:
    sender, receiver, stranger = backend(), backend(), backend("elsewhere")
    heard: list[str] = []
    strangers: list[str] = []
    receiver.subscribe("policy", heard.append)
    stranger.subscribe("policy", strangers.append)
    time.sleep(1.2)  # the listener picks up a new channel within a tick
    sender.publish("policy", "abc123")
    deadline = time.monotonic() + 5
    while not heard and time.monotonic() < deadline:
        time.sleep(0.01)
    assert heard == ["abc123"] and strangers == []


def test_an_unreachable_url_is_a_storage_error(pg_server: TemporaryPostgres) -> None:
    config = StorageConfig(url=pg_server.url("no_such_database"), connect_timeout_secs=3)
    with pytest.raises(StorageError, match="no_such_database"):
        PostgresStorage.open(config, {"TOOLDECK_PG_PASSWORD": pg_server.password})
