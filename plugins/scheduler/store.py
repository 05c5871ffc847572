"""The task store: scheduled calls in SQLite, so they survive a restart.

One database per user (mode 0600, WAL journal). A task belongs to the scope of the caller
that scheduled it, and its name is unique within that scope. Firing is at most once: the
runner moves a task's next time forward (or removes a one-shot task) in the same transaction
that claims it, before the call runs, so two runners or a crash mid-call never fire it twice.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tooldeck.storage_api import Task

__all__ = ["Task", "TaskStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tasks (
    scope TEXT NOT NULL,
    name TEXT NOT NULL,
    caller TEXT,
    cron TEXT,
    next_run REAL NOT NULL,
    tool TEXT NOT NULL,
    params TEXT NOT NULL,
    created REAL NOT NULL,
    runs INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, name)
);
CREATE INDEX IF NOT EXISTS tasks_by_time ON tasks(next_run);
"""


def _task(row: tuple[Any, ...]) -> Task:
    scope, name, caller, cron, next_run, tool, params, runs = row
    return Task(scope, name, caller, cron, float(next_run), tool, json.loads(params), int(runs))


_COLUMNS = "scope, name, caller, cron, next_run, tool, params, runs"


class TaskStore:
    """The scheduled tasks of one user, kept in SQLite.

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

    def add(self, task: Task, *, limit: int) -> str | None:
        """Store a new task; the reason when it cannot be (name taken, scope full).

        :param task: the task.
        :param limit: most tasks the scope may hold.
        :returns: ``None`` on success, else why not.
        """
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                taken = self._db.execute("SELECT 1 FROM tasks WHERE scope = ? AND name = ?",
                                         (task.scope, task.name)).fetchone()
                count = self._db.execute("SELECT count(*) FROM tasks WHERE scope = ?",
                                         (task.scope,)).fetchone()[0]
                if taken:
                    reason: str | None = (f"a task named {task.name!r} exists; cancel it first "
                                          "or choose another name")
                elif count >= limit:
                    reason = f"{count} tasks are scheduled, the limit is {limit}"
                else:
                    reason = None
                    self._db.execute(
                        f"INSERT INTO tasks ({_COLUMNS}, created) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (task.scope, task.name, task.caller, task.cron, task.next_run, task.tool,
                         json.dumps(dict(task.params)), task.runs, time.time()))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return reason

    def cancel(self, scope: str, name: str) -> bool:
        """Delete a task; whether it existed."""
        with self._lock:
            cursor = self._db.execute("DELETE FROM tasks WHERE scope = ? AND name = ?",
                                      (scope, name))
            return cursor.rowcount > 0

    def tasks(self, scope: str | None = None) -> list[Task]:
        """The tasks of ``scope`` (every scope's when ``None``), soonest first."""
        query = f"SELECT {_COLUMNS} FROM tasks"
        args: tuple[Any, ...] = ()
        if scope is not None:
            query, args = query + " WHERE scope = ?", (scope,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY next_run, scope, name", args).fetchall()
        return [_task(row) for row in rows]

    def claim_due(self, now: float, following: Callable[[Task], float | None]) -> list[Task]:
        """Take every task due at ``now``, moving each on before it runs.

        :param now: Unix time.
        :param following: the next time of a task after this firing (``None``: remove it).
        :returns: the claimed tasks, as they were when due.
        """
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                due = [_task(row) for row in self._db.execute(
                    f"SELECT {_COLUMNS} FROM tasks WHERE next_run <= ? ORDER BY next_run",
                    (now,)).fetchall()]
                for task in due:
                    then = following(task)
                    if then is None:
                        self._db.execute("DELETE FROM tasks WHERE scope = ? AND name = ?",
                                         (task.scope, task.name))
                    else:
                        self._db.execute(
                            "UPDATE tasks SET next_run = ?, runs = runs + 1 "
                            "WHERE scope = ? AND name = ?", (then, task.scope, task.name))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return due

    def next_due(self) -> float | None:
        """When the soonest task is due, or ``None`` when none is scheduled."""
        with self._lock:
            row = self._db.execute("SELECT min(next_run) FROM tasks").fetchone()
        return None if row[0] is None else float(row[0])

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()
