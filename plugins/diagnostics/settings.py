"""``[tools.diagnostics]``: where the checkers may run and for how long."""

from __future__ import annotations

from pydantic import Field

from tooldeck.config import PathSetting, StrictModel
from tooldeck.paths import PathSandbox
from tooldeck.sandbox import SandboxSettings, sandbox_for

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
        """The path sandbox of ``allowed_paths``, by the core's one relative-path rule.

        Relative paths join the working directory, or the first root when it is outside them
        (:func:`tooldeck.sandbox.sandbox_for`, as the file tools and ``check path`` do).
        """
        return sandbox_for(SandboxSettings(allowed_paths=self.allowed_paths, deny_read=(),
                                           allow_read=()))
