"""The shell executor: ``bash``, ``bash_status`` and the checkpoint tools.

A foreground call: optional snapshot (``transactional`` or ``checkpoints_enabled``) → spawn
in the sandbox working directory with the scrubbed environment → wait (timeout kills the
tree) → optional rollback → classify the exit → envelope; with ``checkpoints_enabled``, a
snapshot not rolled back becomes a checkpoint that ``shell_undo``, ``shell_redo`` and
``shell_checkpoints`` work on. A background call starts the process and returns a run id.
The executor belongs to one runtime and takes the policy that runtime was built with; the
background runs and the checkpoints belong to the deck (the runtime's ``session``), so a
reload neither kills a run nor forgets what can be undone.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from typing import Any

import attrs

from tooldeck.call_memo import shell_analysis
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import Rollback as UndoneChanges
from tooldeck.models import ToolCall, ToolOutput, new_call_id
from tooldeck.plugins.shell.background import BackgroundRuns, head_tail, started_message
from tooldeck.plugins.shell.checkpoints import Checkpoints, RedoError, UndoError
from tooldeck.plugins.shell.env import EnvironmentScrubber
from tooldeck.plugins.shell.envelope import (
    NO_OUTPUT,
    classify,
    empty_envelope,
    envelope,
    summary,
    timeout_error,
)
from tooldeck.plugins.shell.policy import ShellPolicy
from tooldeck.plugins.shell.process import RunningCommand
from tooldeck.plugins.shell.rollback_coverage import uncovered_writes
from tooldeck.plugins.shell.settings import ShellSettings
from tooldeck.plugins.shell.tool import EXECUTOR, BashParams, BashStatusParams, UndoParams
from tooldeck.plugins.shell.transaction import Rollback, Snapshot, SnapshotError, take_snapshot
from tooldeck.runtime import CallContext, StashKey
from tooldeck.workdir import working_directory

__all__ = ["BACKGROUND", "CHECKPOINTS", "POLICY", "ShellExecutor", "rollback_note"]

POLICY = StashKey[ShellPolicy]("shell.policy")
"""Where each runtime keeps its effective shell policy (set in ``tooldeck_configure``)."""

BACKGROUND = StashKey[BackgroundRuns]("shell.background")
"""Where the deck keeps its background runs (session state: they outlive a reload)."""

CHECKPOINTS = StashKey[Checkpoints]("shell.checkpoints")
"""Where the deck keeps its undo and redo stacks (session state: they outlive a reload)."""


def rollback_note(exit_code: int, rollback: Rollback) -> str:
    """The line the model reads about a rollback: what was and what was not put back.

    :param exit_code: the command's exit code that triggered the rollback.
    :param rollback: what the rollback did.
    :returns: ``[rollback] exit code N: restored r, deleted d``, or, when something could not
        be undone, ``[rollback incomplete] …; NOT restored k: path: reason; …``.
    """
    counts = f"exit code {exit_code}: restored {rollback.restored}, deleted {rollback.deleted}"
    if rollback.complete:
        return f"[rollback] {counts}"
    missing = "; ".join(rollback.unrestored)
    return f"[rollback incomplete] {counts}; NOT restored {len(rollback.unrestored)}: {missing}"


def _find_bash(env: dict[str, str]) -> str | None:
    """The ``bash`` the command's ``PATH`` finds (as ``subprocess`` would), or ``None``.

    Looked up once per scrubbed environment, not on every spawn: ``subprocess`` would
    otherwise join and encode every ``PATH`` entry and try ``execve`` on each in turn. With
    ``None`` the spawn searches ``PATH`` itself: so it does when an entry is relative, since
    the child resolves it from the command's working directory, not from ours.
    """
    path = env.get("PATH", os.defpath)
    if not all(os.path.isabs(entry) for entry in path.split(os.pathsep)):
        return None
    return shutil.which("bash", path=path)


class ShellExecutor:
    """Runs ``bash`` and ``bash_status`` for one runtime.

    :param settings: the runtime's ``[tools.shell]`` settings.
    """

    name = EXECUTOR

    def __init__(self, settings: ShellSettings) -> None:
        self.settings = settings
        self._scrub = EnvironmentScrubber(prefixes=settings.env_blocklist,
                                          markers=settings.env_secret_markers,
                                          allow=settings.env_allowlist)
        self._env_seen: dict[Any, Any] | None = None
        self._env: dict[str, str] = {}
        self._bash: str | None = None

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Run one call; see the module docstring."""
        policy = ctx.runtime.stash_get(POLICY).at(working_directory(ctx.runtime, call.caller_id))
        session = ctx.runtime.session
        params = ctx.params
        if isinstance(params, BashStatusParams):
            return self._status(session.setdefault(BACKGROUND, BackgroundRuns), params.run_id)
        checkpoints = session.setdefault(CHECKPOINTS, Checkpoints)
        if call.tool_id != "bash":
            return self._checkpoint_call(checkpoints, call.tool_id, params)
        assert isinstance(params, BashParams)
        if not params.command.strip():
            return ToolOutput("bash", NO_OUTPUT, empty_envelope(), exit_code=0)
        if "\x00" in params.command:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS, "the command contains a NUL byte")
        if policy.cwd is None:
            raise ToolError(ErrorCategory.POLICY_BLOCKED, "no sandbox directory to run in")
        timeout = self._timeout(params.timeout, background=params.background)
        if params.background:
            runs = session.setdefault(BACKGROUND, BackgroundRuns)
            return await self._start_background(runs, params.command, policy, timeout)
        return await self._run(params.command, policy, checkpoints, timeout, ctx.progress)

    def _environment(self) -> dict[str, str]:
        """The scrubbed environment, rebuilt only when ``os.environ`` changed.

        Reading ``os.environ`` decodes every name and value; on CPython the bytes behind it
        (``os.environ._data``) compare with a snapshot in one C-level step, so an unchanged
        environment costs no decoding and no scrubbing. The snapshot is taken before scrubbing:
        a change made meanwhile makes the next call scrub again. The returned dictionary is
        shared: nothing may change it. The ``bash`` its ``PATH`` finds is looked up again
        with it (:attr:`_bash`).
        """
        data = getattr(os.environ, "_data", None)
        if data is not None and data == self._env_seen:
            return self._env
        seen = dict(data) if isinstance(data, dict) else None
        env = self._scrub(os.environ)
        self._env_seen, self._env = seen, env
        self._bash = _find_bash(env)
        return env

    async def _spawn(self, command: str, policy: ShellPolicy,
                     on_output: Callable[[str], None] | None = None) -> RunningCommand:
        assert policy.cwd is not None
        env = self._environment()
        try:
            try:
                return await RunningCommand.start(
                    command, cwd=policy.cwd, env=env, executable=self._bash,
                    max_output_bytes=self.settings.max_output_bytes, on_output=on_output,
                )
            except FileNotFoundError:
                if self._bash is None:
                    raise
                # the bash found earlier is gone: the PATH search again, as on the first call
                self._bash = _find_bash(env)
                return await RunningCommand.start(
                    command, cwd=policy.cwd, env=env, executable=self._bash,
                    max_output_bytes=self.settings.max_output_bytes, on_output=on_output,
                )
        except OSError as exc:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"cannot start bash: {exc.strerror or exc}") from exc

    def _snapshot(self, command: str, policy: ShellPolicy) -> tuple[Snapshot | None, str | None]:
        """Take the snapshot of a transactional write command; ``(snapshot, warning)``.

        A transactional command with writes no snapshot can cover (the gate asked about them)
        gets a snapshot even without static targets, so its rollback reports them.
        """
        shell = self.settings
        if not (shell.transactional or shell.checkpoints_enabled):
            return None, None
        analysis = shell_analysis(command, extra_wrappers=shell.extra_wrappers)
        rolls_back = shell.transactional and shell.auto_rollback
        uncovered = uncovered_writes(analysis) if rolls_back else ()
        if not (analysis.writes or uncovered):
            return None, None
        targets = []
        for raw in analysis.write_targets:
            # the entry itself, then what a write through it reaches (a symlink's target)
            for op in ("delete", "write"):
                try:
                    targets.append(policy.sandbox.resolve_str(raw, op=op))
                except ToolError:
                    continue
        try:
            snapshot = take_snapshot(targets, roots=policy.sandbox.roots,
                                     scope=policy.transaction_scope,
                                     max_bytes=shell.max_snapshot_bytes, uncovered=uncovered)
            return snapshot, None
        except SnapshotError as exc:
            if shell.snapshot_required:
                raise ToolError(ErrorCategory.PERMANENT_FAILURE, f"snapshot failed: {exc}",
                                retryable=False) from exc
            return None, f"[warn] snapshot failed: {exc}; rollback unavailable"

    def _should_roll_back(self, exit_code: int) -> bool:
        shell = self.settings
        if not shell.auto_rollback:
            return False
        codes = shell.auto_rollback_exit_codes
        return exit_code in codes if codes else exit_code >= 2

    def _timeout(self, asked: float | None, *, background: bool) -> float:
        """The call's timeout: the configured one, or the one it asks for up to the maximum.

        :param asked: the call's ``timeout`` parameter, if given.
        :param background: a background run (its default and maximum are
            ``background_timeout_secs``).
        :returns: seconds.
        :raises ToolError: ``invalid_parameters`` when the call asks for more than the maximum.
        """
        settings = self.settings
        if background:
            default, most, key = (settings.background_timeout_secs,
                                  settings.background_timeout_secs, "background_timeout_secs")
        else:
            default, most, key = settings.timeout, settings.max_timeout, "max_timeout"
        if asked is None:
            return default
        if asked > most:
            hint = "" if background else "; run it with background=true"
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            f"timeout {asked:g}s is longer than [tools.shell] {key} "
                            f"({most:g}s){hint}")
        return asked

    async def _run(
        self, command: str, policy: ShellPolicy, checkpoints: Checkpoints, timeout: float,
        progress: Callable[[str], None] | None = None,
    ) -> ToolOutput:
        snapshot, warning = self._snapshot(command, policy)
        rollback: Rollback | None = None
        try:
            running = await self._spawn(command, policy, progress)
            done = await running.finish(timeout)
            if snapshot is not None and self._should_roll_back(done.exit_code):
                rollback = snapshot.rollback()
        except BaseException:
            if snapshot is not None:
                snapshot.discard()
            raise
        if snapshot is not None:
            if rollback is None and snapshot.entries and self.settings.checkpoints_enabled:
                checkpoints.record(command, snapshot, self.settings.max_checkpoints)
            else:
                snapshot.discard()
        note = None if rollback is None else rollback_note(done.exit_code, rollback)
        error = timeout_error(timeout) if done.timed_out else classify(done)
        if error is not None:
            if note is not None:
                error = ToolError(error.category, f"{error.message} ({note})",
                                  exit_code=error.exit_code)
            raise error
        raw: dict[str, Any] = envelope(done)
        text = summary(done, self.settings.max_output_bytes)
        if warning is not None:
            raw["snapshot_warning"] = warning
            text = f"{warning}\n{text}"
        undone: UndoneChanges | None = None
        if rollback is not None:
            raw["rollback"] = {"restored": rollback.restored, "deleted": rollback.deleted,
                               "unrestored": list(rollback.unrestored)}
            undone = UndoneChanges(rollback.restored, rollback.deleted, rollback.unrestored)
            text = f"{text}\n{note}"
        return ToolOutput("bash", text, raw, truncated=done.truncated, exit_code=done.exit_code,
                          rollback=undone)

    async def _start_background(
        self, runs: BackgroundRuns, command: str, policy: ShellPolicy, timeout: float
    ) -> ToolOutput:
        limit = self.settings.max_background_runs
        if not runs.has_room(limit):
            raise ToolError(ErrorCategory.POLICY_BLOCKED,
                            f"background run cap reached (max_background_runs={limit})")
        run_id = new_call_id()
        runs.start(run_id, command, await self._spawn(command, policy), timeout)
        return ToolOutput("bash", started_message(run_id, command),
                          {"run_id": run_id, "status": "running"})

    def _status(self, runs: BackgroundRuns, run_id: str) -> ToolOutput:
        run = runs.get(run_id)
        if run is None:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS, f"unknown run_id {run_id!r}")
        if not run.finished:
            return ToolOutput("bash_status", f"run {run_id} is running: {run.command}",
                              {"run_id": run_id, "status": "running"})
        if run.terminated or run.task.cancelled():
            return ToolOutput("bash_status", f"run {run_id} was terminated: the deck was "
                              "closed", {"run_id": run_id, "status": "terminated"})
        done = run.task.result()
        status = "timeout" if done.timed_out else "finished"
        output = head_tail(done.combined or NO_OUTPUT)
        text = f"run {run_id} {status} with exit code {done.exit_code}\n{output}"
        raw = {"run_id": run_id, "status": status, **attrs.asdict(done)}
        return ToolOutput("bash_status", text, raw, truncated=done.truncated,
                          exit_code=done.exit_code)

    def _checkpoint_call(self, checkpoints: Checkpoints, tool: str, params: Any) -> ToolOutput:
        """Answer ``shell_undo``, ``shell_redo`` or ``shell_checkpoints``."""
        try:
            if isinstance(params, UndoParams):
                text = checkpoints.undo(params.count)
            elif tool == "shell_redo":
                text = checkpoints.redo()
            else:
                commands = checkpoints.listing()
                text = "\n".join(f"{i}. {c}" for i, c in enumerate(commands, 1))
                return ToolOutput(tool, text or "No checkpoints.", {"checkpoints": commands})
        except (UndoError, RedoError) as exc:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE, str(exc), retryable=False) from exc
        return ToolOutput(tool, text, {"checkpoints": checkpoints.listing()})
