"""The memory store: short notes in SQLite, ranked by FTS5's BM25, scoped per caller.

One database per user (mode 0600, WAL journal). Every note belongs to a scope; a search sees
only its own scope's notes. The search text is never handed to FTS5's query language: it is
cut into words, and each word becomes a quoted term, so no input can make the query fail or
reach another scope.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from pathlib import Path

from tooldeck.storage_api import Note

__all__ = ["MemoryStore", "Note", "search_terms"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    scope TEXT NOT NULL,
    created REAL NOT NULL,
    tags TEXT NOT NULL,
    content TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notes_by_scope ON notes(scope, id);
CREATE VIRTUAL TABLE IF NOT EXISTS notes_text USING fts5(
    content, tags, content='notes', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS notes_added AFTER INSERT ON notes BEGIN
    INSERT INTO notes_text(rowid, content, tags) VALUES (new.id, new.content, new.tags);
END;
CREATE TRIGGER IF NOT EXISTS notes_deleted AFTER DELETE ON notes BEGIN
    INSERT INTO notes_text(notes_text, rowid, content, tags)
    VALUES ('delete', old.id, old.content, old.tags);
END;
"""
_WORD = re.compile(r"\w+", re.UNICODE)
_MAX_TERMS = 32


def search_terms(query: str) -> str | None:
    """An FTS5 query matching any word of ``query``, each word quoted; ``None`` if no words.

    :param query: free text as the model wrote it.
    :returns: ``"w1" OR "w2" …`` (at most 32 words), or ``None``.
    """
    words = list(dict.fromkeys(word.lower() for word in _WORD.findall(query)))[:_MAX_TERMS]
    return " OR ".join(f'"{word}"' for word in words) or None


class MemoryStore:
    """The notes of one user, kept in SQLite.

    :param path: the database file (created 0600, its folder 0700).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600))
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)

    def save(self, scope: str, content: str, tags: tuple[str, ...], *, keep: int) -> int:
        """Store a note for ``scope``, then delete the scope's oldest beyond ``keep``.

        :returns: the new note's id.
        """
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute(
                    "INSERT INTO notes (scope, created, tags, content) VALUES (?, ?, ?, ?)",
                    (scope, time.time(), " ".join(tags), content))
                ident = int(cursor.lastrowid or 0)
                self._db.execute(
                    "DELETE FROM notes WHERE scope = ? AND id NOT IN "
                    "(SELECT id FROM notes WHERE scope = ? ORDER BY id DESC LIMIT ?)",
                    (scope, scope, keep))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return ident

    def search(self, scope: str, query: str, limit: int) -> list[Note]:
        """The notes of ``scope`` best matching ``query`` (BM25; newer first on ties).

        :param scope: whose notes.
        :param query: free text.
        :param limit: most notes returned.
        :returns: the notes, best first; none when the query has no words.
        """
        terms = search_terms(query)
        if terms is None:
            return []
        with self._lock:
            rows = self._db.execute(
                "SELECT notes.id, notes.created, notes.tags, notes.content FROM notes_text "
                "JOIN notes ON notes.id = notes_text.rowid "
                "WHERE notes_text MATCH ? AND notes.scope = ? "
                "ORDER BY bm25(notes_text), notes.id DESC LIMIT ?",
                (terms, scope, limit)).fetchall()
        return [Note(int(i), float(c), tuple(t.split()), str(body)) for i, c, t, body in rows]

    def recent(self, scope: str, limit: int) -> list[Note]:
        """The newest ``limit`` notes of ``scope``, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, tags, content FROM notes WHERE scope = ? "
                "ORDER BY id DESC LIMIT ?", (scope, limit)).fetchall()
        return [Note(int(i), float(c), tuple(t.split()), str(body)) for i, c, t, body in rows]

    def count(self, scope: str) -> int:
        """How many notes ``scope`` holds."""
        with self._lock:
            row = self._db.execute("SELECT count(*) FROM notes WHERE scope = ?", (scope,))
            return int(row.fetchone()[0])

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()
