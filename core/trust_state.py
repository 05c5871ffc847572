"""Trust levels set at run time, for callers and tool sources, kept in one SQLite file per user.

Not to be confused with :mod:`tooldeck.trust` (which project *configuration files* are
trusted) nor :mod:`tooldeck.trust_levels` (the scale itself). This is the shared state behind
``tooldeck trust set`` / ``reset``: the trust gate reads it, the anomaly detector writes its
blocks into it, and every process of the user sees the same rows.

======================  ===================================================================
rule                    behaviour
======================  ===================================================================
one file per user       ``trust_state.sqlite3`` in the user data directory (folder 0700,
                        file 0600, created without following a symlink), WAL journal so a
                        killed writer leaves it readable; writers wait for each other
                        (``BEGIN IMMEDIATE``, busy timeout)
one row per subject     a subject is a caller (its ``caller_id``; calls without one are the
                        caller ``''``) or a tool source (``builtin``, ``mcp:<server>``,
                        ``skill:<name>``); a row replaces whatever configuration says
any caller id           names are stored as bytes (UTF-8, lone surrogates kept), so any
                        string round-trips exactly; up to :data:`MAX_NAME_CHARS` characters
seen at once            every read checks SQLite's ``data_version``: a row another process
                        wrote is seen on the next call, without re-reading an unchanged file
fail closed             a file that is not a database, a row that does not parse, a schema
                        from a newer tooldeck, or a file removed or replaced under a running
                        deck raise :class:`TrustStateError`; readers treat that as
                        ``blocked``
======================  ===================================================================
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Literal, Protocol, cast

import attrs

from tooldeck.dirs import data_dir
from tooldeck.storage_api import Storage
from tooldeck.trust_levels import TrustLevel, parse_trust_level

__all__ = [
    "MAX_NAME_CHARS",
    "SOURCE_NAME",
    "STATE_FILE",
    "Override",
    "Subject",
    "TrustState",
    "TrustStateError",
    "TrustStore",
    "default_state_path",
    "session_trust_state",
]

STATE_FILE = "trust_state.sqlite3"
MAX_NAME_CHARS = 4096
"""The longest caller id or source name a row can hold."""
SOURCE_NAME = re.compile(r"^(builtin|(mcp|skill):[A-Za-z0-9][A-Za-z0-9_.-]{0,127})$")
"""What a tool source is called: ``builtin``, ``mcp:<server>`` or ``skill:<name>``."""

_SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS trust_overrides (
    kind TEXT NOT NULL,
    name BLOB NOT NULL,
    level TEXT NOT NULL,
    set_by TEXT NOT NULL,
    reason TEXT NOT NULL,
    set_at REAL NOT NULL,
    PRIMARY KEY (kind, name)
)
"""
_BUSY_TIMEOUT_S = 10.0

Kind = Literal["caller", "source"]


class TrustStateError(Exception):
    """The trust state cannot be read or written; whoever reads it must fail closed."""


@attrs.frozen
class Subject:
    """Whom a trust level is about.

    :param kind: ``caller`` or ``source``.
    :param name: the caller id (``''`` for calls without one) or the source name.
    """

    kind: Kind
    name: str

    @classmethod
    def caller(cls, caller_id: str | None) -> Subject:
        """The subject of a caller; ``None`` (no caller id) is the caller ``''``."""
        return cls("caller", caller_id or "")

    @classmethod
    def source(cls, name: str) -> Subject:
        """The subject of a tool source (``builtin``, ``mcp:<server>``, ``skill:<name>``).

        :raises ValueError: ``name`` is not a source name.
        """
        if not SOURCE_NAME.match(name):
            raise ValueError(f"not a tool source name: {name!r} (expected builtin, "
                             "mcp:<server> or skill:<name>)")
        return cls("source", name)

    def __str__(self) -> str:
        return f"{self.kind} {self.name!r}"


@attrs.frozen
class Override:
    """A trust level set at run time.

    :param subject: whom it is about.
    :param level: the level.
    :param by: who set it (``anomaly``, ``cli``, ``api`` or what the caller of the API says).
    :param reason: why, in words (may be empty).
    :param at: Unix time it was set.
    """

    subject: Subject
    level: TrustLevel
    by: str
    reason: str
    at: float


def default_state_path() -> Path:
    """Where the trust state lives: ``trust_state.sqlite3`` in the user data directory."""
    return data_dir() / STATE_FILE


def _encode(name: str) -> bytes:
    return name.encode("utf-8", "surrogatepass")


def _check_name(subject: Subject) -> None:
    if not isinstance(subject.name, str) or len(subject.name) > MAX_NAME_CHARS:
        raise ValueError(f"a {subject.kind} name must be a string of at most "
                         f"{MAX_NAME_CHARS} characters")
    if subject.kind == "source":
        Subject.source(subject.name)
    elif subject.kind != "caller":
        raise ValueError(f"unknown subject kind {subject.kind!r}")


def _row(kind: object, name: object, level: object, by: object, reason: object,
         at: object) -> Override:
    if kind not in ("caller", "source") or not isinstance(name, bytes):
        raise TrustStateError(f"unreadable row: kind {kind!r}")
    if not (isinstance(level, str) and isinstance(by, str) and isinstance(reason, str)
            and isinstance(at, (int, float))):
        raise TrustStateError("unreadable row: wrong column types")
    try:
        text = name.decode("utf-8", "surrogatepass")
        parsed = parse_trust_level(level)
    except (UnicodeDecodeError, ValueError) as exc:
        raise TrustStateError(f"unreadable row: {exc}") from None
    return Override(Subject(kind, text), parsed, by, reason, float(at))


class TrustState:
    """The run-time trust levels of one user, shared by every process through SQLite.

    :param path: the database file (default :func:`default_state_path`).
    :raises TrustStateError: the file cannot be opened as a trust state database.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else default_state_path()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._identity: tuple[int, int] = (0, 0)
        self._version: int | None = None
        self._cache: dict[Subject, Override] = {}
        self._closed = False
        with self._lock:
            if os.path.lexists(self.path):  # else created by the first write: judging that
                self._open()                # only reads (tooldeck replay) writes nothing

    # -- opening -----------------------------------------------------------------------

    def _open(self) -> None:
        self._version = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW
                         | getattr(os, "O_CLOEXEC", 0), 0o600)
            try:
                st = os.fstat(fd)
                if st.st_mode & 0o077:
                    os.fchmod(fd, 0o600)
            finally:
                os.close(fd)
            db = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, isolation_level=None,
                                 check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise TrustStateError(f"cannot open the trust state {self.path}: {exc}") from None
        try:
            db.execute("PRAGMA journal_mode=WAL")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > _SCHEMA_VERSION:
                raise TrustStateError(f"{self.path} was written by a newer tooldeck (schema "
                                      f"{version}); refusing to guess what it says")
            if version < _SCHEMA_VERSION:
                db.execute("BEGIN IMMEDIATE")
                try:
                    db.execute(_SCHEMA)
                    db.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
        except sqlite3.Error as exc:
            db.close()
            raise TrustStateError(f"{self.path} is not a usable trust state: {exc}") from None
        except TrustStateError:
            db.close()
            raise
        self._db = db
        self._identity = (st.st_dev, st.st_ino)
        self._version = None

    def _connection(self, *, create: bool = False) -> sqlite3.Connection | None:
        """The open connection, after checking the file is still the one it opened.

        ``None`` while no file was ever there (nobody set a level yet), unless ``create``.
        """
        if self._closed:
            raise TrustStateError(f"the trust state {self.path} is closed")
        if self._db is None:
            if not create and not os.path.lexists(self.path):
                return None
            self._open()
        try:
            st = os.stat(self.path)
        except OSError:
            raise TrustStateError(f"the trust state {self.path} was removed while in use; "
                                  "restart to start from an empty one") from None
        if (st.st_dev, st.st_ino) != self._identity:
            raise TrustStateError(f"the trust state {self.path} was replaced while in use; "
                                  "restart to read the new one")
        return self._db

    # -- reading -----------------------------------------------------------------------

    def _refresh(self) -> None:
        db = self._connection()
        if db is None:
            self._cache, self._version = {}, None
            return
        try:
            version = db.execute("PRAGMA data_version").fetchone()[0]
            if version == self._version:
                return
            rows = db.execute("SELECT kind, name, level, set_by, reason, set_at "
                              "FROM trust_overrides").fetchall()
        except sqlite3.Error as exc:
            raise TrustStateError(f"cannot read the trust state {self.path}: {exc}") from None
        cache = {}
        for row in rows:
            override = _row(*row)
            cache[override.subject] = override
        self._cache, self._version = cache, version

    def overrides(self) -> Mapping[Subject, Override]:
        """Every row, as of now (another process's writes included).

        :raises TrustStateError: the state cannot be read.
        """
        with self._lock:
            self._refresh()
            return self._cache  # replaced on change, never mutated

    def get(self, subject: Subject) -> Override | None:
        """The row of ``subject``, or ``None`` when configuration decides.

        :raises TrustStateError: the state cannot be read.
        """
        with self._lock:
            self._refresh()
            return self._cache.get(subject)

    # -- writing -----------------------------------------------------------------------

    def _write(self, subject: Subject, new: Override | None) -> Override | None:
        _check_name(subject)
        key = (subject.kind, _encode(subject.name))
        with self._lock:
            db = self._connection(create=True)
            assert db is not None
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    found = db.execute(
                        "SELECT kind, name, level, set_by, reason, set_at FROM trust_overrides "
                        "WHERE kind = ? AND name = ?", key).fetchone()
                    if new is None:
                        db.execute("DELETE FROM trust_overrides WHERE kind = ? AND name = ?", key)
                    else:
                        db.execute("INSERT OR REPLACE INTO trust_overrides VALUES "
                                   "(?, ?, ?, ?, ?, ?)",
                                   (*key, str(new.level), new.by, new.reason, new.at))
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise TrustStateError(f"cannot write the trust state {self.path}: "
                                      f"{exc}") from None
            self._version = None  # our own writes do not move data_version: re-read
            self._refresh()
        return None if found is None else _row(*found)

    def set(self, subject: Subject, level: TrustLevel, *, by: str,
            reason: str = "") -> Override | None:
        """Set ``subject``'s level, replacing its row.

        :param subject: whom it is about.
        :param level: the new level.
        :param by: who sets it (recorded with the row).
        :param reason: why (recorded with the row).
        :returns: the row it replaced, if any.
        :raises ValueError: the subject's name is not acceptable.
        :raises TrustStateError: the state cannot be written.
        """
        return self._write(subject, Override(subject, TrustLevel(level), by, reason,
                                             time.time()))

    def reset(self, subject: Subject) -> Override | None:
        """Remove ``subject``'s row, so configuration decides again.

        :returns: the row removed, or ``None`` when there was none.
        :raises ValueError: the subject's name is not acceptable.
        :raises TrustStateError: the state cannot be written.
        """
        return self._write(subject, None)

    def close(self) -> None:
        """Close the connection (further use raises :class:`TrustStateError`)."""
        with self._lock:
            self._closed = True
            if self._db is not None:
                self._db.close()
                self._db = None

    async def aclose(self) -> None:
        """:meth:`close`, for :class:`tooldeck.runtime.SessionState`."""
        self.close()


class TrustStore(Protocol):
    """What :func:`session_trust_state` returns: :class:`TrustState` or a shared backend's twin.

    Every method may raise :class:`TrustStateError`; readers treat that as ``blocked``.
    """

    def overrides(self) -> Mapping[Subject, Override]:
        """Every row, as of now."""
        ...

    def get(self, subject: Subject) -> Override | None:
        """The row of ``subject``, or ``None``."""
        ...

    def set(self, subject: Subject, level: TrustLevel, *, by: str,
            reason: str = "") -> Override | None:
        """Set ``subject``'s level; the row it replaced, if any."""
        ...

    def reset(self, subject: Subject) -> Override | None:
        """Remove ``subject``'s row; the row removed, if any."""
        ...


class _HasStorage(Protocol):
    @property
    def storage(self) -> Storage: ...


def session_trust_state(runtime: _HasStorage) -> TrustStore:
    """The deck's run-time trust levels, from its storage backend (``runtime.storage``).

    Embedded: a :class:`TrustState` on the default path, opened on first use and shared by
    every plugin of the deck (a failed open is not remembered: the next use tries again).
    A shared backend gives every worker of its namespace the same rows.

    :param runtime: any runtime of the deck.
    :raises TrustStateError: the state cannot be opened.
    """
    return cast(TrustStore, runtime.storage.trust())
