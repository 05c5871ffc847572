"""The ``set_working_directory`` tool: where a caller's later relative paths and commands start."""

from __future__ import annotations

import os

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.results import FileOpResult
from tooldeck.workdir import WorkingDirectories

__all__ = ["set_working_directory"]


def set_working_directory(sandbox: PathSandbox, directories: WorkingDirectories,
                          caller_id: str | None, path: str) -> FileOpResult:
    """Make ``path`` the caller's working directory for its later calls on this deck.

    ``~`` is expanded and a relative path is joined to the caller's current working directory
    (the sandbox's). The directory must exist and lie inside the sandbox; otherwise nothing
    changes.

    :param sandbox: the path sandbox, at the caller's current working directory.
    :param directories: the deck's working directories.
    :param caller_id: whose working directory changes.
    :param path: the new directory.
    :returns: ``Working directory: {canonical path}``.
    :raises ToolError: ``policy_blocked`` outside the sandbox; ``permanent_failure`` when the
        path is not an existing directory.
    """
    canonical = sandbox.resolve_str(path, op="read")
    if not os.path.isdir(canonical):
        what = "does not exist" if not os.path.lexists(canonical) else "is not a directory"
        raise ToolError(ErrorCategory.PERMANENT_FAILURE, f"{path} {what}; the working "
                        f"directory stays {sandbox.cwd}")
    directories.set(caller_id, canonical)
    return FileOpResult(summary=f"Working directory: {canonical}", locations=(canonical,))
