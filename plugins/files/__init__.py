"""Built-in plugin ``files``: eleven file tools in a symlink-safe sandbox.

``read``, ``write``, ``edit``, ``find_path``, ``grep``, ``list_directory``,
``create_directory``, ``delete_path``, ``move_path``, ``copy_path`` and
``set_working_directory``. Each operation takes a
:class:`tooldeck.paths.PathSandbox` and typed parameters and returns a
:class:`~tooldeck.plugins.files.results.FileOpResult` or raises
:class:`~tooldeck.errors.ToolError`; :mod:`.plugin` exposes them as tools.

:mod:`.code_search` is the separate ``search_code`` plugin (entry point
``tooldeck.plugins.files:code_search``), kept here for the file tools' walk and reads.
"""

from tooldeck.plugins.files import code_search
from tooldeck.plugins.files.plugin import (
    tooldeck_configure,
    tooldeck_register_executors,
    tooldeck_register_settings,
    tooldeck_register_tools,
)

__all__ = [
    "code_search",
    "tooldeck_configure",
    "tooldeck_register_executors",
    "tooldeck_register_settings",
    "tooldeck_register_tools",
]
