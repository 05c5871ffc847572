"""The ``files`` executor: runs a file tool against this runtime's sandbox.

Operations that touch one file run inline (they are short, and a thread hop would cost more
than the work); walks over trees (``grep``, ``find_path``, ``copy_path``, a recursive
``delete_path``) run in a worker thread so a large tree never stalls the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tooldeck.models import ToolCall, ToolOutput
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files import copy_ops, edit, read_write, search, tree_ops
from tooldeck.plugins.files.results import FileOpResult
from tooldeck.plugins.files.settings import FileSettings
from tooldeck.plugins.files.tools import EXECUTOR
from tooldeck.plugins.files.workdir import set_working_directory
from tooldeck.runtime import CallContext, Runtime
from tooldeck.services import PathService
from tooldeck.workdir import WORKING_DIRECTORIES, WorkingDirectories, working_directory

__all__ = ["FileExecutor"]

Operation = Callable[..., FileOpResult]


class FileExecutor:
    """Runs the file tools inside the sandbox of the core's path service.

    Relative paths start at the caller's working directory when it set one with
    ``set_working_directory`` (kept per deck and caller), else where the path service's
    rule puts them.

    :param settings: the validated ``[tools.file]``.
    :param paths: the path service (``PathService.from_settings``), as plugins get it.
    """

    name = EXECUTOR

    def __init__(self, settings: FileSettings, paths: PathService) -> None:
        self.settings = settings
        self.sandbox: PathSandbox = paths.sandbox
        limits = {"max_read_bytes": settings.max_read_bytes}
        self._operations: dict[str, tuple[Operation, dict[str, Any]]] = {
            "read": (read_write.read_file, limits),
            "write": (read_write.write_file, {}),
            "edit": (edit.edit_file, limits),
            "find_path": (search.find_path, {}),
            "grep": (search.grep, {"max_file_bytes": settings.max_read_bytes}),
            "list_directory": (tree_ops.list_directory, {}),
            "create_directory": (tree_ops.create_directory, {}),
            "delete_path": (tree_ops.delete_path, {}),
            "move_path": (tree_ops.move_path, {}),
            "copy_path": (copy_ops.copy_path, {}),
        }

    @staticmethod
    def _walks(tool_id: str, params: dict[str, Any]) -> bool:
        return tool_id in ("grep", "find_path", "copy_path") or (
            tool_id == "delete_path" and bool(params.get("recursive"))
        )

    def _sandbox_for(self, runtime: Runtime, caller_id: str | None) -> PathSandbox:
        """The sandbox at the caller's working directory (see :mod:`tooldeck.workdir`)."""
        cwd = working_directory(runtime, caller_id)
        return self.sandbox if cwd is None else self.sandbox.with_cwd(cwd)

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Run ``call`` with its validated parameters; errors are raised as ToolError."""
        sandbox = self._sandbox_for(ctx.runtime, call.caller_id)
        params = ctx.params.model_dump()
        if call.tool_id == "set_working_directory":
            directories = ctx.runtime.session.setdefault(WORKING_DIRECTORIES,
                                                         WorkingDirectories)
            result = set_working_directory(sandbox, directories, call.caller_id, **params)
            return ToolOutput(tool_name=call.tool_id, summary=result.summary,
                              locations=result.locations)
        operation, extra = self._operations[call.tool_id]
        if call.tool_id == "grep" and params.get("max_results") is None:
            params["max_results"] = self.settings.grep_max_results
        if self._walks(call.tool_id, params):
            result = await asyncio.to_thread(operation, sandbox, **params, **extra)
        else:
            result = operation(sandbox, **params, **extra)
        return ToolOutput(tool_name=call.tool_id, summary=result.summary, diff=result.diff,
                          locations=result.locations, read_paths=result.read_paths)
