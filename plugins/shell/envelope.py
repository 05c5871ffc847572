"""From a finished command to what the model and programs get back.

==================  =====================================================================
piece               content
==================  =====================================================================
envelope            ``raw_response``: ``stdout``, ``stderr``, ``exit_code``, ``truncated``
                    (plus ``rollback`` and ``snapshot_warning`` when they happened)
summary             stdout and stderr interleaved by line, stderr lines prefixed
                    ``[stderr] ``; ``(no output)`` when both are empty; a last line says
                    when the output was cut at ``max_output_bytes``
error               exit 126/127 (the shell could not run the command): a classified
                    ``ToolError`` (see :func:`tooldeck.errors.classify_shell_exit`)
                    whose message is the first three output lines joined by ``; ``; any
                    other exit is an ordinary result carrying its output and exit code,
                    whatever the output says
timeout             ``ToolError(timeout, "command timed out after Ns")``
==================  =====================================================================
"""

from __future__ import annotations

from typing import Any

from tooldeck.errors import ErrorCategory, ToolError, classify_shell_exit
from tooldeck.plugins.shell.process import Completed

__all__ = ["NO_OUTPUT", "classify", "empty_envelope", "envelope", "summary", "timeout_error"]

NO_OUTPUT = "(no output)"
"""The summary of a command that printed nothing."""


def envelope(done: Completed) -> dict[str, Any]:
    """The structured result of a command.

    :param done: the finished command.
    :returns: ``{stdout, stderr, exit_code, truncated}``.
    """
    return {"stdout": done.stdout, "stderr": done.stderr, "exit_code": done.exit_code,
            "truncated": done.truncated}


def empty_envelope() -> dict[str, Any]:
    """The envelope of an empty command, which is not run.

    :returns: empty output, exit code 0.
    """
    return {"stdout": "", "stderr": "", "exit_code": 0, "truncated": False}


def summary(done: Completed, max_output_bytes: int) -> str:
    """The text given back to the model.

    :param done: the finished command.
    :param max_output_bytes: the cap, named when the output was cut.
    :returns: the interleaved output, or ``(no output)``.
    """
    text = done.combined or NO_OUTPUT
    if done.truncated:
        text += f"\n[truncated: output exceeded max_output_bytes={max_output_bytes}]"
    return text


def classify(done: Completed) -> ToolError | None:
    """The error a finished command amounts to, if any.

    :param done: the finished command.
    :returns: a ``ToolError`` for the classified exits, ``None`` for ordinary results.
    """
    category = classify_shell_exit(done.exit_code)
    if category is None:
        return None
    lines = [line for line in done.combined.splitlines() if line.strip()][:3]
    message = "; ".join(lines) or f"command exited with code {done.exit_code}"
    return ToolError(category, message, exit_code=done.exit_code)


def timeout_error(seconds: float) -> ToolError:
    """The error of a command killed at its timeout.

    :param seconds: the timeout.
    :returns: ``ToolError(timeout, "command timed out after Ns")``.
    """
    shown = f"{seconds:g}"
    return ToolError(ErrorCategory.TIMEOUT, f"command timed out after {shown}s")
