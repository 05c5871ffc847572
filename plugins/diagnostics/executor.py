"""The ``diagnostics`` executor: resolve the path, find the checker, run it, render findings."""

from __future__ import annotations

import os
from collections.abc import Mapping

from tooldeck.child_env import child_environment
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolOutput
from tooldeck.paths import PathSandbox, is_within
from tooldeck.plugins.diagnostics.checkers import CHECKERS, MYPY_TEXT, Checker, locate
from tooldeck.plugins.diagnostics.parsers import PARSERS, Diagnostic, parse_mypy_text
from tooldeck.plugins.diagnostics.runner import Finished, run_checker
from tooldeck.plugins.diagnostics.settings import DiagnosticsSettings
from tooldeck.plugins.diagnostics.tool import EXECUTOR, MAX_DIAGNOSTICS, DiagnosticsParams
from tooldeck.runtime import CallContext
from tooldeck.workdir import working_directory

__all__ = ["DiagnosticsExecutor", "render"]

def _shown_path(file: str, base: str) -> str:
    """A checker's file name, relative to the checked directory when it lies inside it."""
    if os.path.isabs(file) and is_within(file, base):
        return os.path.relpath(file, base)
    return file


def render(found: list[Diagnostic], base: str) -> str:
    """``file:line:col: level: message`` lines (``level: message`` without a file).

    :param found: the findings, in the checker's order.
    :param base: the directory the checker ran in (absolute file names below it are shown
        relative to it).
    :returns: at most :data:`MAX_DIAGNOSTICS` lines and, when there were more, a last line
        ``50 of N diagnostics; narrow the path``; ``No diagnostics`` when there were none.
    """
    if not found:
        return "No diagnostics"
    lines = [
        f"{_shown_path(d.file, base)}:{d.line}:{d.column}: {d.level}: {d.message}"
        if d.file is not None else f"{d.level}: {d.message}"
        for d in found[:MAX_DIAGNOSTICS]
    ]
    if len(found) > MAX_DIAGNOSTICS:
        lines.append(f"{MAX_DIAGNOSTICS} of {len(found):,} diagnostics; narrow the path")
    return "\n".join(lines)


def _tail(text: str, limit: int = 2000) -> str:
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]


class DiagnosticsExecutor:
    """Runs the ``diagnostics`` tool inside ``[tools.diagnostics]``'s sandbox.

    :param settings: the section.
    """

    name = EXECUTOR

    def __init__(self, settings: DiagnosticsSettings) -> None:
        self.settings = settings
        self.sandbox: PathSandbox = settings.sandbox()

    def _target(self, sandbox: PathSandbox, path: str) -> tuple[str, bool]:
        """The canonical target and whether it is a directory."""
        target = sandbox.resolve_str(path, op="read")
        if not os.path.exists(target):
            raise ToolError(ErrorCategory.PERMANENT_FAILURE, f"path not found: {path}")
        return target, os.path.isdir(target)

    async def _run(self, checker: Checker, program: str, target: str, is_dir: bool,
                   run_dir: str, env: Mapping[str, str]) -> Finished:
        return await run_checker([program, *checker.arguments(target, is_dir)], cwd=run_dir,
                                 env=env, timeout=self.settings.timeout)

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Run the checker ``level`` names on ``path``; errors are raised as ToolError."""
        params = ctx.params
        assert isinstance(params, DiagnosticsParams)
        cwd = working_directory(ctx.runtime, call.caller_id)
        sandbox = self.sandbox.with_cwd(cwd) if cwd is not None else self.sandbox
        target, is_dir = self._target(sandbox, params.path)
        run_dir = target if is_dir else os.path.dirname(target)
        if params.level == "tsc" and is_dir and not os.path.isfile(
                os.path.join(target, "tsconfig.json")):
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            f"tsc needs a tsconfig.json in {target}, or a file to check")
        checker = CHECKERS[params.level]
        env = child_environment(ctx.runtime)
        program = locate(sandbox, run_dir, checker, env.get("PATH"))
        if program is None:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"{checker.program} not found in PATH"
                            + (f" nor in the project's {' or '.join(checker.local_bins)}"
                               if checker.local_bins else ""))
        parse = PARSERS[params.level]
        finished = await self._run(checker, program, target, is_dir, run_dir, env)
        if (params.level == "mypy" and finished.exit_code == 2
                and "-O" in finished.stderr and "unrecognized" in finished.stderr):
            checker, parse = MYPY_TEXT, parse_mypy_text
            finished = await self._run(checker, program, target, is_dir, run_dir, env)
        found = parse(finished.stdout)
        if finished.exit_code not in checker.ok_exits and not found:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"{checker.program} failed (exit {finished.exit_code}): "
                            f"{_tail(finished.stderr or finished.stdout)}")
        return ToolOutput(tool_name=call.tool_id, summary=render(found, run_dir),
                          locations=(target,))
