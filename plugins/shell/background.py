"""Background runs: ``bash`` with ``background = true`` returns a run id at once.

=====================  ==================================================================
rule                   behaviour
=====================  ==================================================================
admission              the same gate votes as a foreground call; then at most
                       ``max_background_runs`` unfinished runs (else ``policy_blocked``,
                       ``background run cap reached (max_background_runs=N)``)
run id                 32 lowercase hex digits; the short id is the first 8
timeout                ``background_timeout_secs``; the tree is killed as in the foreground
status                 tool ``bash_status``: ``running`` with the elapsed time, or
                       ``finished`` with the exit code and the output (head and tail kept,
                       at most :data:`MAX_STATUS_CHARS` characters)
lifetime               runs belong to the deck (its session state): they outlive a reload,
                       whose new policy applies to runs started after it; closing the deck
                       kills every unfinished run, reported ``terminated``
retention              the :data:`KEEP_FINISHED` most recent finished runs stay readable
=====================  ==================================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import attrs

from tooldeck.plugins.shell.process import Completed, RunningCommand

__all__ = ["KEEP_FINISHED", "MAX_STATUS_CHARS", "BackgroundRun", "BackgroundRuns", "head_tail",
           "started_message"]

MAX_STATUS_CHARS = 4096
"""A finished run's output is cut (head and tail) to this many characters."""

KEEP_FINISHED = 64
"""Finished runs kept for ``bash_status``; older ones are forgotten."""


def head_tail(text: str, limit: int = MAX_STATUS_CHARS) -> str:
    """Cut ``text`` to ``limit`` characters, keeping its beginning and its end.

    :param text: the output.
    :param limit: the longest result.
    :returns: ``text`` itself, or head + an omission marker + tail.
    """
    if len(text) <= limit:
        return text
    marker = f"\n[… {len(text) - limit} characters omitted …]\n"
    keep = max(limit - len(marker), 0)
    head = keep // 2
    return text[:head] + marker + text[len(text) - (keep - head):]


def started_message(run_id: str, command: str) -> str:
    """The summary returned when a background run starts.

    :param run_id: the run id.
    :param command: the command.
    :returns: two lines naming the run and how to read its result.
    """
    return (
        f"[background] started run_id={run_id} — command: {command}\n"
        f"The command is running in the background. Call bash_status with "
        f"run_id={run_id} to read its status and output (run_id_short={run_id[:8]})."
    )


@attrs.define
class BackgroundRun:
    """One background run.

    :param run_id: its id.
    :param command: the command text.
    :param started: ``time.monotonic()`` at start.
    :param task: the task waiting for it.
    :param terminated: true when it was killed because the deck was closed.
    """

    run_id: str
    command: str
    started: float
    task: asyncio.Task[Completed]
    terminated: bool = False

    @property
    def finished(self) -> bool:
        """Whether the run has ended (normally, by timeout, or terminated)."""
        return self.task.done()


class BackgroundRuns:
    """The background runs of one deck; the limits come from the settings of each start."""

    def __init__(self) -> None:
        self._runs: dict[str, BackgroundRun] = {}
        self._commands: dict[str, RunningCommand] = {}

    @property
    def active(self) -> int:
        """How many runs have not finished."""
        return sum(not run.finished for run in self._runs.values())

    def has_room(self, limit: int) -> bool:
        """Whether another run may start now.

        :param limit: ``max_background_runs``.
        """
        return self.active < limit

    def start(
        self, run_id: str, command: str, running: RunningCommand, timeout: float
    ) -> BackgroundRun:
        """Track a started command until it finishes or times out.

        :param run_id: the id to report.
        :param command: the command text.
        :param running: the started process.
        :param timeout: ``background_timeout_secs``.
        :returns: the run.
        """
        task = asyncio.get_running_loop().create_task(running.finish(timeout))
        run = BackgroundRun(run_id, command, time.monotonic(), task)
        self._runs[run_id] = run
        self._commands[run_id] = running
        task.add_done_callback(lambda _: self._forget_old())
        return run

    def get(self, run_id: str) -> BackgroundRun | None:
        """The run with this id, or ``None`` when unknown (or forgotten)."""
        return self._runs.get(run_id)

    def _forget_old(self) -> None:
        finished = [rid for rid, run in self._runs.items() if run.finished]
        for rid in finished[: max(len(finished) - KEEP_FINISHED, 0)]:
            del self._runs[rid]
        for rid in finished:
            self._commands.pop(rid, None)

    async def aclose(self) -> None:
        """Kill every unfinished run's tree and mark it terminated."""
        for run_id, running in list(self._commands.items()):
            run = self._runs[run_id]
            if run.finished:
                continue
            run.terminated = True
            run.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await run.task
            await running.kill()
        self._commands.clear()
