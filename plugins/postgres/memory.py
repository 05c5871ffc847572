"""Memory notes in PostgreSQL, ranked by full-text search, scoped per caller.

The search text is never parsed as a query language: it is cut into words (at most 32),
each word becomes its own ``plainto_tsquery`` parameter, OR'ed together; ranking is
``ts_rank`` (the embedded store's is FTS5's BM25, so equal scores may order differently).
A note cannot hold a NUL character here (PostgreSQL text refuses it).
"""

from __future__ import annotations

import re
import time
from typing import Any

from psycopg_pool import ConnectionPool

from tooldeck.storage_api import Note

__all__ = ["PgMemoryStore"]

_WORD = re.compile(r"\w+", re.UNICODE)
_MAX_TERMS = 32


def _words(query: str) -> list[str]:
    return list(dict.fromkeys(word.lower() for word in _WORD.findall(query)))[:_MAX_TERMS]


def _note(row: tuple[Any, ...]) -> Note:
    ident, created, tags, content = row
    return Note(int(ident), float(created), tuple(str(tags).split()), str(content))


class PgMemoryStore:
    """A :class:`~tooldeck.storage_api.MemoryBackend` every worker of a namespace shares.

    :param pool: the deck's connection pool.
    :param namespace: the ``[storage] namespace``.
    """

    def __init__(self, pool: ConnectionPool[Any], namespace: str) -> None:
        self._pool = pool
        self._namespace = namespace

    def save(self, scope: str, content: str, tags: tuple[str, ...], *, keep: int) -> int:
        """Store a note for ``scope``, then delete the scope's oldest beyond ``keep``.

        :raises ValueError: the note holds a NUL character.
        """
        if "\x00" in content or any("\x00" in tag for tag in tags):
            raise ValueError("a note cannot hold a NUL character in shared storage")
        ns = self._namespace
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute("INSERT INTO tooldeck.notes (namespace, scope, created, tags, "
                               "content) VALUES (%s, %s, %s, %s, %s) RETURNING id",
                               (ns, scope, time.time(), " ".join(tags), content)).fetchone()
            assert row is not None
            conn.execute("DELETE FROM tooldeck.notes WHERE namespace = %s AND scope = %s AND "
                         "id NOT IN (SELECT id FROM tooldeck.notes WHERE namespace = %s AND "
                         "scope = %s ORDER BY id DESC LIMIT %s)", (ns, scope, ns, scope, keep))
        return int(row[0])

    def search(self, scope: str, query: str, limit: int) -> list[Note]:
        """The notes of ``scope`` best matching ``query`` (newer first on ties)."""
        words = _words(query)
        if not words:
            return []
        terms = " || ".join(["plainto_tsquery('simple', %s)"] * len(words))
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT id, created, tags, content FROM tooldeck.notes, "
                f"(SELECT {terms} AS query) q "
                "WHERE namespace = %s AND scope = %s AND search @@ q.query "
                "ORDER BY ts_rank(search, q.query) DESC, id DESC LIMIT %s",
                (*words, self._namespace, scope, limit)).fetchall()
        return [_note(row) for row in rows]

    def recent(self, scope: str, limit: int) -> list[Note]:
        """The newest ``limit`` notes of ``scope``, newest first."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT id, created, tags, content FROM tooldeck.notes WHERE "
                                "namespace = %s AND scope = %s ORDER BY id DESC LIMIT %s",
                                (self._namespace, scope, limit)).fetchall()
        return [_note(row) for row in rows]

    def count(self, scope: str) -> int:
        """How many notes ``scope`` holds."""
        with self._pool.connection() as conn:
            row = conn.execute("SELECT count(*) FROM tooldeck.notes WHERE namespace = %s AND "
                               "scope = %s", (self._namespace, scope)).fetchone()
        return 0 if row is None else int(row[0])

    def close(self) -> None:
        """Nothing to release: the pool belongs to the deck's backend."""
