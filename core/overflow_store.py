"""The overflow store: long tool outputs in one SQLite file, scoped to a session.

One database per user (mode 0600, WAL journal so a killed writer leaves it readable). A row
belongs to a session scope; a lookup from another scope finds nothing, and deleting a session
deletes its rows (``ON DELETE CASCADE``). Ids are random UUIDs; anything that is not one is
"not found" without touching the database. Old rows go after ``retention_days``, and a
session's oldest rows go when its bytes pass ``max_bytes``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import uuid
from pathlib import Path

__all__ = ["OverflowStore", "parse_id"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    scope TEXT PRIMARY KEY,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tool_overflow (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL REFERENCES sessions(scope) ON DELETE CASCADE,
    tool TEXT NOT NULL,
    created REAL NOT NULL,
    bytes INTEGER NOT NULL,
    content TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tool_overflow_by_scope ON tool_overflow(scope, created);
"""
_PREFIX = "overflow:"


def parse_id(text: str) -> str | None:
    """The canonical UUID in ``overflow:<uuid>`` (or a bare UUID), or ``None``."""
    text = text.strip()
    if text.startswith(_PREFIX):
        text = text[len(_PREFIX):]
    if len(text) not in (32, 36):
        return None
    try:
        return str(uuid.UUID(text))
    except ValueError:
        return None


class OverflowStore:
    """Long outputs of one user, kept in SQLite.

    :param path: the database file (created 0600, its folder 0700).
    :param retention_days: rows older than this are deleted on each write (0: kept).
    :param max_bytes: bytes kept per scope, oldest deleted first (0: unlimited).
    """

    def __init__(self, path: Path, *, retention_days: int, max_bytes: int) -> None:
        self.path = path
        self.retention_days = retention_days
        self.max_bytes = max_bytes
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600))
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)

    def put(self, scope: str, tool: str, content: str) -> str | None:
        """Store ``content`` for ``scope``; ``None`` when it alone is over the byte cap.

        :returns: the new entry's id (``overflow:<uuid>``).
        """
        size = len(content.encode("utf-8", "surrogatepass"))
        if self.max_bytes and size > self.max_bytes:
            return None
        ident = str(uuid.uuid4())
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if self.retention_days:
                    self._db.execute("DELETE FROM tool_overflow WHERE created < ?",
                                     (now - self.retention_days * 86400,))
                self._db.execute("INSERT OR IGNORE INTO sessions VALUES (?, ?)", (scope, now))
                self._db.execute("INSERT INTO tool_overflow VALUES (?, ?, ?, ?, ?, ?)",
                                 (ident, scope, tool, now, size, content))
                if self.max_bytes:
                    self._evict(scope)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return _PREFIX + ident

    def _evict(self, scope: str) -> None:
        rows = self._db.execute(
            "SELECT id, bytes FROM tool_overflow WHERE scope = ? ORDER BY created DESC, rowid DESC",
            (scope,)).fetchall()
        total = 0
        for ident, size in rows:
            total += size
            if total > self.max_bytes:
                self._db.execute("DELETE FROM tool_overflow WHERE id = ?", (ident,))

    def get(self, scope: str, ident: str) -> str | None:
        """The content stored under ``ident`` for ``scope``, or ``None`` (not found)."""
        canonical = parse_id(ident)
        if canonical is None:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT content FROM tool_overflow WHERE id = ? AND scope = ?",
                (canonical, scope)).fetchone()
        return None if row is None else str(row[0])

    def drop_scope(self, scope: str) -> None:
        """Delete a session and, by cascade, everything stored for it."""
        with self._lock:
            self._db.execute("DELETE FROM sessions WHERE scope = ?", (scope,))

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()
