"""The run-time trust state: one SQLite file shared by processes, failing closed."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.trust_levels import TrustLevel
from tooldeck.trust_state import (
    MAX_NAME_CHARS,
    Subject,
    TrustState,
    TrustStateError,
    default_state_path,
)


@pytest.fixture
def state(tmp_path: Path) -> TrustState:
    store = TrustState(tmp_path / "state" / "trust.sqlite3")
    yield store
    store.close()


def _created(path: Path) -> None:
    """Make the state file exist, as the first level set does."""
    store = TrustState(path)
    try:
        store.reset(Subject.caller("nobody"))
    finally:
        store.close()


def test_merely_reading_creates_no_file(tmp_path: Path) -> None:
    """Judging only (tooldeck replay, check) writes nothing, not even an empty state file."""
    path = tmp_path / "state" / "t.sqlite3"
    store = TrustState(path)
    try:
        assert store.overrides() == {}
        assert store.get(Subject.caller("a")) is None
        assert not path.exists() and not path.parent.exists()
        store.set(Subject.caller("a"), TrustLevel.BLOCKED, by="t")
        assert path.exists()
    finally:
        store.close()


def test_the_file_is_private_and_in_the_user_data_dir(tmp_path: Path) -> None:
    store = TrustState()
    try:
        store.reset(Subject.caller("nobody"))  # the first write creates the file
        assert store.path == default_state_path()
        assert str(store.path).startswith(os.environ["XDG_DATA_HOME"])
        assert store.path.stat().st_mode & 0o777 == 0o600
        assert store.path.parent.stat().st_mode & 0o777 == 0o700
        with sqlite3.connect(store.path) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()


def test_set_get_reset(state: TrustState) -> None:
    alice = Subject.caller("alice")
    assert state.get(alice) is None
    assert state.set(alice, TrustLevel.BLOCKED, by="anomaly", reason="r") is None
    row = state.get(alice)
    assert row is not None and (row.level, row.by, row.reason) == (TrustLevel.BLOCKED,
                                                                  "anomaly", "r")
    previous = state.set(alice, TrustLevel.VERIFIED, by="ops")
    assert previous is not None and previous.level is TrustLevel.BLOCKED
    assert state.reset(alice) is not None
    assert state.reset(alice) is None
    assert state.overrides() == {}


# Caller ids a host might pass: any string must name exactly one caller.
ODD_NAMES = ["", " ", "a\x00b", "a\nb", "\ud800", "x\udfff", "'; DROP TABLE trust_overrides;--",
             "caller:alice", "ALICE", "alice ", "\u202ealice", "é", "e\u0301", "🙂" * 10,
             "x" * MAX_NAME_CHARS]


@pytest.mark.parametrize("name", ODD_NAMES, ids=range(len(ODD_NAMES)))
def test_odd_caller_ids_round_trip_exactly(state: TrustState, name: str) -> None:
    state.set(Subject.caller(name), TrustLevel.BLOCKED, by="t")
    rows = state.overrides()
    assert list(rows) == [Subject.caller(name)]
    for other in ODD_NAMES:
        if other != name:
            assert state.get(Subject.caller(other)) is None
    assert Subject.caller("alice") not in rows or name == "alice"


@pytest.fixture(scope="module")
def shared_state(tmp_path_factory: pytest.TempPathFactory) -> TrustState:
    store = TrustState(tmp_path_factory.mktemp("prop") / "t.sqlite3")
    yield store
    store.close()


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.text(max_size=40), min_size=1, max_size=5, unique=True))
def test_any_text_names_one_caller(shared_state: TrustState, names: list[str]) -> None:
    for subject in list(shared_state.overrides()):
        shared_state.reset(subject)
    for i, name in enumerate(names):
        shared_state.set(Subject.caller(name), list(TrustLevel)[i % 4], by="t")
    rows = shared_state.overrides()
    assert set(rows) == {Subject.caller(n) for n in names}
    for i, name in enumerate(names):
        assert rows[Subject.caller(name)].level is list(TrustLevel)[i % 4]


def test_names_too_long_or_not_sources_are_refused(state: TrustState) -> None:
    with pytest.raises(ValueError):
        state.set(Subject.caller("x" * (MAX_NAME_CHARS + 1)), TrustLevel.BLOCKED, by="t")
    with pytest.raises(ValueError):
        state.set(Subject("source", "github"), TrustLevel.TRUSTED, by="t")
    assert state.overrides() == {}


def test_another_connection_s_writes_are_seen_at_once(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    reader, writer = TrustState(path), TrustState(path)
    try:
        assert reader.overrides() == {}
        writer.set(Subject.source("mcp:x"), TrustLevel.TRUSTED, by="w")
        assert Subject.source("mcp:x") in reader.overrides()
        writer.reset(Subject.source("mcp:x"))
        assert reader.overrides() == {}
    finally:
        reader.close()
        writer.close()


_WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from tooldeck.trust_levels import TrustLevel
    from tooldeck.trust_state import Subject, TrustState
    store = TrustState(Path(sys.argv[1]))
    worker = sys.argv[2]
    for i in range(20):
        store.set(Subject.caller(f"{worker}-{i}"), TrustLevel.BLOCKED, by=worker)
        store.set(Subject.caller("shared"), TrustLevel.QUARANTINED, by=worker)
        if i % 2:
            store.reset(Subject.caller(f"{worker}-{i}"))
    store.close()
""")


def test_concurrent_processes_writing_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    _created(path)  # create it once, before the writers race
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), f"w{n}"],
                              stderr=subprocess.PIPE, text=True) for n in range(3)]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    store = TrustState(path)
    try:
        rows = store.overrides()
        expected = {Subject.caller(f"w{n}-{i}") for n in range(3) for i in range(0, 20, 2)}
        assert set(rows) == expected | {Subject.caller("shared")}
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# -- failing closed ------------------------------------------------------------------------


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"not a database, just garbage " * 100)
    with pytest.raises(TrustStateError, match="not a usable trust state"):
        TrustState(path)


def test_a_file_corrupted_under_a_reader_fails(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    store = TrustState(path)
    try:
        store.set(Subject.caller("a"), TrustLevel.BLOCKED, by="t")
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        with open(path, "r+b") as f:  # in place: same inode
            f.write(b"\x00garbage" * 4096)
        with pytest.raises(TrustStateError):
            TrustState(path)
        with pytest.raises(TrustStateError):
            store.set(Subject.caller("b"), TrustLevel.BLOCKED, by="t")
    finally:
        store.close()


@pytest.mark.parametrize("sql", [
    "INSERT INTO trust_overrides VALUES ('caller', CAST('a' AS BLOB), 'superuser', 'x', '', 0)",
    "INSERT INTO trust_overrides VALUES ('group', CAST('a' AS BLOB), 'trusted', 'x', '', 0)",
    "INSERT INTO trust_overrides VALUES ('caller', 'text, not bytes', 'trusted', 'x', '', 0)",
    "INSERT INTO trust_overrides VALUES ('caller', x'ff', 'trusted', 'x', '', 0)",
    "INSERT INTO trust_overrides VALUES ('caller', CAST('a' AS BLOB), 'trusted', 'x', '', 'x')",
    "PRAGMA user_version = 99",
], ids=["level", "kind", "text-name", "bad-utf8", "time", "newer-schema"])
def test_a_row_or_schema_tooldeck_cannot_read_fails_every_read(tmp_path: Path,
                                                                sql: str) -> None:
    path = tmp_path / "t.sqlite3"
    _created(path)
    store = TrustState(path)
    try:
        with sqlite3.connect(path) as db:
            db.execute(sql)
        if "user_version" in sql:
            with pytest.raises(TrustStateError, match="newer tooldeck"):
                TrustState(path)
            return
        with pytest.raises(TrustStateError, match="unreadable row"):
            store.overrides()
    finally:
        store.close()


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_file_removed_or_replaced_under_a_reader_fails(tmp_path: Path, how: str) -> None:
    path = tmp_path / "t.sqlite3"
    store = TrustState(path)
    try:
        store.set(Subject.caller("a"), TrustLevel.BLOCKED, by="anomaly")
        os.unlink(path)
        if how == "replaced":
            _created(path)  # an empty store in its place would lift the block
        with pytest.raises(TrustStateError, match=how):
            store.get(Subject.caller("a"))
    finally:
        store.close()


def test_a_symlink_in_place_of_the_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.sqlite3"
    _created(target)
    link = tmp_path / "t.sqlite3"
    link.symlink_to(target)
    with pytest.raises(TrustStateError, match="cannot open"):
        TrustState(link)


def test_a_closed_state_refuses_use(state: TrustState) -> None:
    state.close()
    with pytest.raises(TrustStateError, match="closed"):
        state.overrides()
