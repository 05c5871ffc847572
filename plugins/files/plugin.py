"""Hooks of the built-in ``files`` plugin: settings, the eleven tools, their executor."""

from __future__ import annotations

from typing import Any

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.plugins.files.executor import FileExecutor
from tooldeck.plugins.files.settings import FileSettings
from tooldeck.plugins.files.tools import tool_defs
from tooldeck.services import PathService

SECTION = "tools.file"


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.file]``."""
    register(SECTION, FileSettings)


@hookimpl
def tooldeck_register_executors(register: Any, settings: Settings) -> None:
    """One executor per runtime, holding the core's path service for ``[tools.file]``."""
    register(FileExecutor(settings.get(FileSettings), PathService.from_settings(settings)))


@hookimpl
def tooldeck_register_tools(register: Any) -> None:
    """The eleven file tools."""
    for tool in tool_defs():
        register(tool)
