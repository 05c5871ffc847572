"""The four scheduler tools and the executor behind them.

``schedule_periodic``, ``schedule_deferred``, ``cancel_task`` and ``list_tasks``.

Scheduling checks what it can at once — the tool exists, its parameters validate, the time
or cron expression is good — and leaves the policy to the moment the task fires: every firing
is an ordinary call through the gates, so a policy tightened meanwhile still applies. A task
cannot schedule tasks.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pydantic
from pydantic import Field

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.plugins.scheduler.timing import (
    BadSchedule,
    check_interval,
    next_fire,
    parse_utc_time,
)
from tooldeck.storage_api import Task, TaskBackend

if TYPE_CHECKING:
    from tooldeck.plugins.scheduler.settings import SchedulerSettings
    from tooldeck.runtime import CallContext, Runtime

__all__ = [
    "CANCEL_TASK",
    "EXECUTOR",
    "LIST_TASKS",
    "SCHEDULER_TOOLS",
    "SCHEDULE_DEFERRED",
    "SCHEDULE_PERIODIC",
    "SchedulerExecutor",
    "scope_of",
]

EXECUTOR = "scheduler"
_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
_NAME_HELP = "a short name for the task (letters, digits, _ . -), unique among your tasks"

StoreFor = Callable[["Runtime"], TaskBackend]
"""Finds the store a runtime's calls use."""


class _Target(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")

    name: str = Field(pattern=_NAME, description=_NAME_HELP)
    tool: str = Field(min_length=1, max_length=128, description="The tool to call.")
    params: dict[str, Any] = Field(default_factory=dict,
                                   description="The tool's parameters, as for a direct call.")


class SchedulePeriodicParams(_Target):
    """Parameters of ``schedule_periodic``."""

    cron: str = Field(max_length=200, description="A cron expression in UTC: 5 fields "
                      "(minute hour day month weekday) or 6 with seconds first.")


class ScheduleDeferredParams(_Target):
    """Parameters of ``schedule_deferred``."""

    at: str = Field(max_length=64, description="When, in ISO 8601 UTC: 2026-11-25T18:00:00Z.")


class CancelTaskParams(pydantic.BaseModel):
    """Parameters of ``cancel_task``."""

    model_config = pydantic.ConfigDict(extra="forbid")

    name: str = Field(pattern=_NAME, description="The task's name.")


class ListTasksParams(pydantic.BaseModel):
    """``list_tasks`` takes no parameters."""

    model_config = pydantic.ConfigDict(extra="forbid")


SCHEDULE_PERIODIC = ToolDef(
    id="schedule_periodic",
    description="Call a tool again and again on a cron schedule (UTC), e.g. a nightly test run.",
    params=SchedulePeriodicParams, executor=EXECUTOR, capabilities={"state"}, input_param="tool",
)
SCHEDULE_DEFERRED = ToolDef(
    id="schedule_deferred",
    description="Call a tool once, later, at an ISO 8601 UTC time.",
    params=ScheduleDeferredParams, executor=EXECUTOR, capabilities={"state"}, input_param="tool",
)
CANCEL_TASK = ToolDef(
    id="cancel_task", description="Cancel a scheduled task by its name.",
    params=CancelTaskParams, executor=EXECUTOR, capabilities={"state"}, input_param="name",
)
LIST_TASKS = ToolDef(
    id="list_tasks", description="List your scheduled tasks, soonest first.",
    params=ListTasksParams, executor=EXECUTOR, capabilities={"read"},
)
SCHEDULER_TOOLS = (SCHEDULE_PERIODIC, SCHEDULE_DEFERRED, CANCEL_TASK, LIST_TASKS)
_OWN_IDS = frozenset(tool.id for tool in SCHEDULER_TOOLS)


def scope_of(caller_id: str | None) -> str:
    """The scope of a caller's tasks: its own, or the user's ``default`` one."""
    return f"caller:{caller_id}" if caller_id else "default"


def _when(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).isoformat(
        timespec="seconds").replace("+00:00", "Z")


def _invalid(message: str) -> ToolError:
    return ToolError(ErrorCategory.INVALID_PARAMETERS, message)


class SchedulerExecutor:
    """Add, cancel and list the caller's tasks.

    :param store_for: finds the store for a runtime.
    :param settings: the ``[tools.scheduler]`` limits.
    :param clock: the current Unix time (tests pass a fake one).
    """

    name = EXECUTOR

    def __init__(self, store_for: StoreFor, settings: SchedulerSettings,
                 clock: Callable[[], float] = time.time) -> None:
        self._store_for = store_for
        self._settings = settings
        self._clock = clock

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Run one of the four scheduler tools.

        :raises ToolError: ``invalid_parameters`` for an unknown or scheduler tool, parameters
            the tool rejects, a bad cron expression or time, a taken name, a full scope or an
            unknown task to cancel.
        """
        store = self._store_for(ctx.runtime)
        scope = scope_of(call.caller_id)
        params = ctx.params
        if isinstance(params, CancelTaskParams):
            if not store.cancel(scope, params.name):
                raise _invalid(f"no task named {params.name!r}")
            return ToolOutput(call.tool_id, f"cancelled task {params.name!r}")
        if isinstance(params, ListTasksParams):
            return self._listing(call, store.tasks(scope))
        assert isinstance(params, (SchedulePeriodicParams, ScheduleDeferredParams))
        task = self._task(call, ctx.runtime, scope, params)
        refused = store.add(task, limit=self._settings.max_tasks)
        if refused is not None:
            raise _invalid(refused)
        every = f" on {task.cron!r}" if task.cron else ""
        return ToolOutput(call.tool_id, f"scheduled task {task.name!r}{every}: {task.tool}, "
                          f"first at {_when(task.next_run)}",
                          {"name": task.name, "next_run": _when(task.next_run)})

    def _task(self, call: ToolCall, runtime: Runtime, scope: str,
              params: SchedulePeriodicParams | ScheduleDeferredParams) -> Task:
        now = self._clock()
        if params.tool in _OWN_IDS:
            raise _invalid("a scheduled task cannot schedule or cancel tasks")
        tool = runtime.tools.get(params.tool)
        if tool is None:
            raise _invalid(f"no tool named {params.tool!r} to schedule")
        try:
            tool.params.model_validate(params.params)
        except pydantic.ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "params"
            raise _invalid(f"parameters for {tool.id}: {where}: {first['msg']}") from None
        try:
            if isinstance(params, SchedulePeriodicParams):
                cron: str | None = " ".join(params.cron.split())
                assert cron is not None
                check_interval(cron, now, self._settings.min_interval_secs)
                first_run = next_fire(cron, now)
            else:
                cron, first_run = None, parse_utc_time(params.at, now)
        except BadSchedule as exc:
            raise _invalid(str(exc)) from None
        return Task(scope, params.name, call.caller_id, cron, first_run, tool.id, params.params)

    @staticmethod
    def _listing(call: ToolCall, tasks: list[Task]) -> ToolOutput:
        if not tasks:
            return ToolOutput(call.tool_id, "no tasks scheduled", {"tasks": []})
        lines = [f"{t.name}: {t.tool} "
                 f"{'every ' + repr(t.cron) if t.cron else 'once'}, next at {_when(t.next_run)}"
                 f", fired {t.runs} time{'' if t.runs == 1 else 's'}" for t in tasks]
        raw = {"tasks": [{"name": t.name, "tool": t.tool, "cron": t.cron,
                          "next_run": _when(t.next_run), "runs": t.runs} for t in tasks]}
        return ToolOutput(call.tool_id, "\n".join(lines), raw)


