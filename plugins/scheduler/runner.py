"""The runner: fires due tasks as ordinary calls through a deck's full pipeline.

A host runs one :class:`TaskRunner` beside its deck (``tooldeck scheduler run`` does it from
the command line). Each firing is ``deck.call`` with the task's tool, parameters and caller
id, so gates, quotas, filters and the audit log apply as to any call; nobody is there to
confirm, so a call the policy asks about is refused (``confirmation_required``). A periodic
task that missed firings while nothing ran fires once, then keeps to its schedule.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from tooldeck.audit import runtime_event
from tooldeck.deck import Deck, ToolResult
from tooldeck.models import ToolCall
from tooldeck.plugins.scheduler.settings import SchedulerSettings
from tooldeck.plugins.scheduler.store import TaskStore
from tooldeck.plugins.scheduler.timing import BadSchedule, next_fire
from tooldeck.storage_api import Task

__all__ = ["TaskRunner"]

MAX_SLEEP_S = 60.0


class TaskRunner:
    """Fire the tasks of a deck's task store when they are due.

    :param deck: the deck whose pipeline runs every firing.
    :param clock: the current Unix time (tests pass a fake one).
    """

    def __init__(self, deck: Deck, clock: Callable[[], float] = time.time) -> None:
        self.deck = deck
        self.clock = clock
        runtime = deck.runtime
        settings = runtime.settings.get(SchedulerSettings)
        path = settings.database(runtime.settings.document.directory)
        self.store = runtime.storage.tasks(path, TaskStore)
        """The deck's task store (``runtime.storage``): shared by a fleet's runners, each task
        is claimed by one of them."""

    def _following(self, now: float) -> Callable[[Task], float | None]:
        def following(task: Task) -> float | None:
            if task.cron is None:
                return None
            try:
                return next_fire(task.cron, now)
            except BadSchedule:  # stored by an older version with other rules: stop it
                return None

        return following

    async def run_due(self) -> list[tuple[Task, ToolResult]]:
        """Fire every task due now, one after another.

        :returns: each fired task with the result of its call.
        """
        now = self.clock()
        fired = []
        for task in self.store.claim_due(now, self._following(now)):
            result = await self.deck.call(
                ToolCall(task.tool, dict(task.params), caller_id=task.caller), confirm=False)
            runtime = self.deck.runtime
            runtime.hooks.audit(runtime_event("scheduler.fired", {
                "task": task.name, "scope": task.scope, "tool": task.tool,
                "call_id": result.call.call_id, "ok": result.ok,
                "category": None if result.error is None else result.error.category.value,
            }), runtime)
            fired.append((task, result))
        return fired

    async def run(self, stop: asyncio.Event) -> None:
        """Fire tasks as they fall due until ``stop`` is set.

        Sleeps until the soonest task (at most a minute, so tasks added by another process
        are seen), or until ``stop``.
        """
        while not stop.is_set():
            await self.run_due()
            soonest = self.store.next_due()
            wait = MAX_SLEEP_S if soonest is None else soonest - self.clock()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=min(max(wait, 0.0), MAX_SLEEP_S))

    def close(self) -> None:
        """Stop using the store; it is the deck's, closed with the deck, so nothing closes here."""
