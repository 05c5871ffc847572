"""Run a checker as a real subprocess: its own session, a scrubbed environment, a time limit."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Mapping

import attrs

from tooldeck.errors import ErrorCategory, ToolError

__all__ = ["Finished", "run_checker"]


@attrs.frozen
class Finished:
    """A checker run that ended by itself.

    :param exit_code: its exit status.
    :param stdout: what it printed (decoded as UTF-8, bad bytes replaced).
    :param stderr: its error output, likewise.
    """

    exit_code: int
    stdout: str
    stderr: str


async def run_checker(argv: list[str], *, cwd: str, env: Mapping[str, str],
                      timeout: float) -> Finished:
    """Run ``argv`` in ``cwd`` with ``env``; kill its whole process group after ``timeout``.

    :param argv: the program and its arguments (no shell).
    :param cwd: the working directory.
    :param env: the environment (already scrubbed).
    :param timeout: seconds before the group is killed.
    :returns: exit code and output.
    :raises ToolError: ``timeout`` when it ran too long; ``permanent_failure`` when it could not
        start.
    """
    try:
        process = await asyncio.create_subprocess_exec(
            *argv, cwd=cwd, env=dict(env), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                        f"cannot start {argv[0]}: {exc.strerror or exc}") from exc
    try:
        stdout, stderr = await asyncio.wait_for(process.communicate(), timeout)
    except (asyncio.TimeoutError, asyncio.CancelledError) as exc:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        if isinstance(exc, asyncio.CancelledError):
            raise
        raise ToolError(ErrorCategory.TIMEOUT, f"{os.path.basename(argv[0])} did not finish "
                        f"within {timeout:g} s and was stopped") from None
    code = process.returncode if process.returncode is not None else -1
    return Finished(code, stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace"))
