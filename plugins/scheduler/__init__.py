"""Built-in plugin ``scheduler``: tool calls scheduled for later, kept across restarts.

============  ===============================================================================
module        job
============  ===============================================================================
``settings``  ``[tools.scheduler]``, validated
``timing``    cron expressions (cronsim, 5 or 6 fields) and ISO 8601 UTC times
``store``     the SQLite task store: one file per user (0600, WAL), claimed at most once
``tools``     ``schedule_periodic``, ``schedule_deferred``, ``cancel_task``, ``list_tasks``
``runner``    :class:`~tooldeck.plugins.scheduler.runner.TaskRunner`, firing due tasks
``cli``       ``tooldeck scheduler run|list``
============  ===============================================================================
"""

from __future__ import annotations

from collections.abc import Callable

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.plugins.scheduler.settings import SECTION, SchedulerSettings
from tooldeck.plugins.scheduler.store import TaskStore
from tooldeck.plugins.scheduler.tools import SCHEDULER_TOOLS, SchedulerExecutor
from tooldeck.runtime import Runtime
from tooldeck.storage_api import TaskBackend


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[tools.scheduler]``."""
    register(SECTION, SchedulerSettings)


@hookimpl
def tooldeck_register_tools(register: Callable[..., None], settings: Settings) -> None:
    """Register the four scheduler tools (declared only when disabled)."""
    available = settings.get(SchedulerSettings).enabled
    for tool in SCHEDULER_TOOLS:
        register(tool, available=available)


@hookimpl
def tooldeck_register_executors(register: Callable[..., None], settings: Settings) -> None:
    """Register the executor behind the scheduler tools."""
    scheduler = settings.get(SchedulerSettings)

    def store_for(runtime: Runtime) -> TaskBackend:
        path = scheduler.database(runtime.settings.document.directory)
        return runtime.storage.tasks(path, TaskStore)

    register(SchedulerExecutor(store_for, scheduler))
