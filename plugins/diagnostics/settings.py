"""``[tools.diagnostics]``: where the checkers may run and for how long."""

from __future__ import annotations

from pydantic import Field

from tooldeck.config import PathSetting, StrictModel
from tooldeck.paths import PathSandbox

__all__ = ["SECTION", "DiagnosticsSettings"]

SECTION = "tools.diagnostics"


class DiagnosticsSettings(StrictModel):
    """``[tools.diagnostics]``: the checkers' sandbox and time limit."""

    allowed_paths: tuple[PathSetting, ...] = Field(
        (), description="Directories a checker may be pointed at; empty means the current "
        "directory; ~ is expanded."
    )
    timeout: float = Field(
        120, gt=0, description="Seconds before a checker's process group is killed."
    )

    def sandbox(self) -> PathSandbox:
        """The path sandbox of ``allowed_paths``.

        Relative paths join the working directory, or the first root when it is outside them.
        """
        sandbox = PathSandbox(self.allowed_paths)
        if sandbox.contains(sandbox.cwd) or not self.allowed_paths:
            return sandbox
        return PathSandbox(self.allowed_paths, cwd=self.allowed_paths[0])
