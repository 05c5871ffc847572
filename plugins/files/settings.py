"""``[tools.file]``: the file tools' sandbox and limits."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from tooldeck.config import PathSetting, StrictModel
from tooldeck.errors import ToolError
from tooldeck.paths import PathSandbox, compile_glob
from tooldeck.plugins.files.limits import DEFAULT_MAX_READ_BYTES
from tooldeck.plugins.files.search import DEFAULT_GREP_RESULTS

__all__ = ["FileSettings"]


def _usable_glob(pattern: str) -> str:
    try:
        compile_glob(pattern)
    except (ValueError, ToolError) as exc:
        raise ValueError(f"cannot use this glob: {exc}") from None
    return pattern


_Glob = Annotated[str, AfterValidator(_usable_glob)]


class FileSettings(StrictModel):
    """``[tools.file]``: where the file tools may reach and how much they may load."""

    allowed_paths: tuple[PathSetting, ...] = Field(
        (), description="Sandbox roots; empty means the current directory; ~ is expanded."
    )
    deny_read: tuple[_Glob, ...] = Field(
        (), description="Globs of canonical paths that may not be read (** crosses /)."
    )
    allow_read: tuple[_Glob, ...] = Field(
        (), description="Globs re-allowing paths matched by deny_read (alone: no effect)."
    )
    max_read_bytes: int = Field(
        DEFAULT_MAX_READ_BYTES, ge=1, description="Largest file read, edited or grepped."
    )
    grep_max_results: int = Field(
        DEFAULT_GREP_RESULTS, ge=1, description="Default cap on grep hits per call."
    )

    def sandbox(self) -> PathSandbox:
        """The path sandbox these settings describe.

        Relative paths are joined to the working directory when it lies inside the sandbox,
        and to the first allowed root otherwise (a relative path joined to a directory
        outside every root could never be used).

        :raises tooldeck.errors.ConfigError: an invalid read-sandbox glob.
        """
        sandbox = PathSandbox(self.allowed_paths, deny_read=self.deny_read,
                              allow_read=self.allow_read)
        if sandbox.contains(sandbox.cwd):
            return sandbox
        first = self.allowed_paths[0]
        return PathSandbox(self.allowed_paths, deny_read=self.deny_read,
                           allow_read=self.allow_read, cwd=first)
