"""Hooks of the built-in ``files`` plugin: settings, the eleven tools, their executor."""

from __future__ import annotations

from typing import Any

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.plugins.files.executor import FileExecutor
from tooldeck.plugins.files.path_examples import check_path_examples
from tooldeck.plugins.files.settings import FileSettings
from tooldeck.plugins.files.tools import tool_defs
from tooldeck.runtime import Runtime
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


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Check the ``[[tools.file.examples]]`` against the read globs (refuse on a failure)."""
    examples = runtime.settings.get(FileSettings).examples
    runtime.count_examples("file path examples", check_path_examples(runtime, examples))
