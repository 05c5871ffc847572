"""Built-in plugin ``search_code``: find code by symbol with tree-sitter, or by text.

Its own plugin (disable it alone with ``disable = ["search_code"]``) living beside the file
tools because it searches their sandbox with their walk and their race-safe reads; without
the ``files`` plugin there is no sandbox, and the tool is declared unavailable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings

__all__ = ["tooldeck_register_executors", "tooldeck_register_tools"]

_FILES_SECTION = "tools.file"


@hookimpl
def tooldeck_register_tools(register: Any, settings: Settings) -> None:
    """Register ``search_code``; unavailable without the ``files`` plugin's sandbox."""
    from tooldeck.plugins.files.code_search.tool import SEARCH_CODE

    register(SEARCH_CODE, available=_FILES_SECTION in settings.sections)


@hookimpl
def tooldeck_register_executors(register: Any, settings: Settings) -> None:
    """One executor per runtime, on the core path service's sandbox (``[tools.file]``)."""
    from tooldeck.plugins.files.code_search.tool import SearchCodeExecutor
    from tooldeck.plugins.files.settings import FileSettings

    files = settings.sections.get(_FILES_SECTION)
    if isinstance(files, FileSettings):
        from tooldeck.services import PathService

        register(SearchCodeExecutor(PathService.from_settings(settings).sandbox,
                                    files.max_read_bytes))
