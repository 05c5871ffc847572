"""Built-in plugin ``diagnostics``: a compiler's or linter's findings as short lines.

``level`` picks the checker: ``check`` and ``clippy`` (cargo, as Zeph), ``ruff``, ``mypy``,
``pyright``, ``tsc``, ``eslint``. Each runs as a real subprocess with its machine-readable
output (:mod:`.checkers`), in its own process group, with the shell's scrubbed environment
and ``[tools.diagnostics] timeout``; :mod:`.parsers` turns the output into
``file:line:col: level: message`` lines (:mod:`.executor`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings

__all__ = ["tooldeck_register_executors", "tooldeck_register_settings",
           "tooldeck_register_tools"]


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.diagnostics]``."""
    from tooldeck.plugins.diagnostics.settings import SECTION, DiagnosticsSettings

    register(SECTION, DiagnosticsSettings)


@hookimpl
def tooldeck_register_tools(register: Any) -> None:
    """Register ``diagnostics``."""
    from tooldeck.plugins.diagnostics.tool import DIAGNOSTICS

    register(DIAGNOSTICS)


@hookimpl
def tooldeck_register_executors(register: Any, settings: Settings) -> None:
    """One executor per runtime."""
    from tooldeck.plugins.diagnostics.executor import DiagnosticsExecutor
    from tooldeck.plugins.diagnostics.settings import DiagnosticsSettings

    register(DiagnosticsExecutor(settings.get(DiagnosticsSettings)))
