"""``[tools.file]``: the file tools' sandbox and limits."""

from __future__ import annotations

from pydantic import Field

from tooldeck.plugins.files.limits import DEFAULT_MAX_READ_BYTES
from tooldeck.plugins.files.path_examples import PathExample
from tooldeck.plugins.files.search import DEFAULT_GREP_RESULTS
from tooldeck.sandbox import SandboxSettings

__all__ = ["FileSettings"]


class FileSettings(SandboxSettings):
    """``[tools.file]``: where the file tools may reach and how much they may load.

    The sandbox keys (``allowed_paths``, ``deny_read``, ``allow_read``) are the core's
    (:class:`tooldeck.sandbox.SandboxSettings`): the executor gets its sandbox from the core's
    path service, like any plugin.
    """

    max_read_bytes: int = Field(
        DEFAULT_MAX_READ_BYTES, ge=1, description="Largest file read, edited or grepped."
    )
    grep_max_results: int = Field(
        DEFAULT_GREP_RESULTS, ge=1, description="Default cap on grep hits per call."
    )
    examples: tuple[PathExample, ...] = Field(
        (), description="Paths the deny_read/allow_read globs must allow or deny; checked on "
        "every load and reload ([[tools.file.examples]]).")
