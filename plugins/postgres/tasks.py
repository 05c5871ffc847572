"""Scheduled calls in PostgreSQL: several runners, each due task fired by exactly one."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from psycopg_pool import ConnectionPool

from tooldeck.storage_api import Task

__all__ = ["PgTaskStore"]

_COLUMNS = "scope, name, caller, cron, next_run, tool, params, runs"


def _task(row: tuple[Any, ...]) -> Task:
    scope, name, caller, cron, next_run, tool, params, runs = row
    return Task(scope, name, caller, cron, float(next_run), tool, json.loads(params), int(runs))


class PgTaskStore:
    """A :class:`~tooldeck.storage_api.TaskBackend` every worker of a namespace shares.

    Claiming locks the due rows (``FOR UPDATE SKIP LOCKED``) and moves them on in the same
    transaction, so two runners never fire one task twice and neither waits for the other.

    :param pool: the deck's connection pool.
    :param namespace: the ``[storage] namespace``.
    """

    def __init__(self, pool: ConnectionPool[Any], namespace: str) -> None:
        self._pool = pool
        self._namespace = namespace

    def add(self, task: Task, *, limit: int) -> str | None:
        """Store a new task; ``None`` on success, else why not."""
        ns = self._namespace
        with self._pool.connection() as conn, conn.transaction():
            # one writer per scope at a time, so the count and the insert agree
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"{ns}\n{task.scope}",))
            taken = conn.execute("SELECT 1 FROM tooldeck.tasks WHERE namespace = %s AND "
                                 "scope = %s AND name = %s", (ns, task.scope, task.name)).fetchone()
            row = conn.execute("SELECT count(*) FROM tooldeck.tasks WHERE namespace = %s AND "
                               "scope = %s", (ns, task.scope)).fetchone()
            count = int(row[0]) if row is not None else 0
            if taken:
                return (f"a task named {task.name!r} exists; cancel it first or choose another "
                        "name")
            if count >= limit:
                return f"{count} tasks are scheduled, the limit is {limit}"
            conn.execute(
                f"INSERT INTO tooldeck.tasks (namespace, {_COLUMNS}, created) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (ns, task.scope, task.name, task.caller, task.cron, task.next_run, task.tool,
                 json.dumps(dict(task.params)), task.runs, time.time()))
        return None

    def cancel(self, scope: str, name: str) -> bool:
        """Delete a task; whether it existed."""
        with self._pool.connection() as conn:
            cursor = conn.execute("DELETE FROM tooldeck.tasks WHERE namespace = %s AND "
                                  "scope = %s AND name = %s", (self._namespace, scope, name))
            return bool(cursor.rowcount > 0)

    def tasks(self, scope: str | None = None) -> list[Task]:
        """The tasks of ``scope`` (every scope's when ``None``), soonest first."""
        query = f"SELECT {_COLUMNS} FROM tooldeck.tasks WHERE namespace = %s"
        args: tuple[Any, ...] = (self._namespace,)
        if scope is not None:
            query, args = query + " AND scope = %s", (*args, scope)
        with self._pool.connection() as conn:
            rows = conn.execute(query + " ORDER BY next_run, scope, name", args).fetchall()
        return [_task(row) for row in rows]

    def claim_due(self, now: float, following: Callable[[Task], float | None]) -> list[Task]:
        """Take every task due at ``now`` that no other runner holds, moving each on."""
        ns = self._namespace
        with self._pool.connection() as conn, conn.transaction():
            due = [_task(row) for row in conn.execute(
                f"SELECT {_COLUMNS} FROM tooldeck.tasks WHERE namespace = %s AND next_run <= %s "
                "ORDER BY next_run FOR UPDATE SKIP LOCKED", (ns, now)).fetchall()]
            for task in due:
                then = following(task)
                if then is None:
                    conn.execute("DELETE FROM tooldeck.tasks WHERE namespace = %s AND "
                                 "scope = %s AND name = %s", (ns, task.scope, task.name))
                else:
                    conn.execute("UPDATE tooldeck.tasks SET next_run = %s, runs = runs + 1 "
                                 "WHERE namespace = %s AND scope = %s AND name = %s",
                                 (then, ns, task.scope, task.name))
        return due

    def next_due(self) -> float | None:
        """When the soonest task is due, or ``None``."""
        with self._pool.connection() as conn:
            row = conn.execute("SELECT min(next_run) FROM tooldeck.tasks WHERE namespace = %s",
                               (self._namespace,)).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def close(self) -> None:
        """Nothing to release: the pool belongs to the deck's backend."""
