"""The file tools as the model sees them: parameter models and definitions."""

from __future__ import annotations

import pydantic
from pydantic import Field

from tooldeck.models import ToolDef
from tooldeck.plugins.files.search import DEFAULT_FIND_RESULTS

__all__ = ["EXECUTOR", "FILE_TOOLS", "MAX_LINES", "MAX_RESULTS", "tool_defs"]

EXECUTOR = "files"

MAX_LINES = 1_000_000_000
"""The largest ``offset`` and ``limit`` of ``read``: far beyond any file it may load."""

MAX_RESULTS = 10_000
"""The largest ``max_results`` of ``grep`` and ``find_path``."""


_INCLUDE_IGNORED = (
    "Also show what .gitignore/.ignore exclude and tool directories such as .venv, "
    "node_modules, __pycache__, target."
)


class _Params(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)


class ReadParams(_Params):
    """Parameters of ``read``."""

    path: str = Field(description="File to read.")
    offset: int | None = Field(None, ge=0, le=MAX_LINES, description="Lines to skip first.")
    limit: int | None = Field(None, ge=1, le=MAX_LINES, description="Most lines to return.")


class WriteParams(_Params):
    """Parameters of ``write``."""

    path: str = Field(description="File to write; parent directories are created.")
    content: str = Field(description="The whole new content.")


class EditParams(_Params):
    """Parameters of ``edit``."""

    path: str = Field(description="File to edit.")
    old_string: str = Field(min_length=1, description="Exact text to replace.")
    new_string: str = Field(description="Replacement text.")
    replace_all: bool = Field(False, description="Replace every occurrence, not just one.")


class FindPathParams(_Params):
    """Parameters of ``find_path``."""

    pattern: str = Field(description="Glob such as **/*.py (** crosses directories).")
    path: str = Field(".", description="Directory to search from.")
    max_results: int = Field(DEFAULT_FIND_RESULTS, ge=1, le=MAX_RESULTS,
                             description="Most paths to return.")
    include_ignored: bool = Field(False, description=_INCLUDE_IGNORED)


class GrepParams(_Params):
    """Parameters of ``grep``."""

    pattern: str = Field(description="Regular expression (RE2 syntax).")
    path: str = Field(".", description="File or directory to search.")
    case_sensitive: bool = Field(True, description="Match case exactly.")
    max_results: int | None = Field(None, ge=1, le=MAX_RESULTS,
                                    description="Most matching lines to return.")
    include_ignored: bool = Field(False, description=_INCLUDE_IGNORED)


class PathParams(_Params):
    """Parameters of tools that take one path."""

    path: str = Field(description="The path.")


class ListParams(_Params):
    """Parameters of ``list_directory``."""

    path: str = Field(".", description="Directory to list.")
    include_ignored: bool = Field(False, description=_INCLUDE_IGNORED)


class WorkingDirectoryParams(_Params):
    """Parameters of ``set_working_directory``."""

    path: str = Field(description="The new working directory (relative: to the current one).")


class DeleteParams(_Params):
    """Parameters of ``delete_path``."""

    path: str = Field(description="File or directory to delete.")
    recursive: bool = Field(False, description="Delete a non-empty directory and its content.")


class TransferParams(_Params):
    """Parameters of ``move_path`` and ``copy_path``."""

    source: str = Field(description="What to move or copy.")
    destination: str = Field(description="Where it goes.")


# id, description, params, capabilities, permission input
FILE_TOOLS: tuple[tuple[str, str, type[pydantic.BaseModel], frozenset[str], str], ...] = (
    ("read", "Read a text file; lines come back numbered.", ReadParams,
     frozenset({"read"}), "path"),
    ("write", "Create or overwrite a file with the given content.", WriteParams,
     frozenset({"write"}), "path"),
    ("edit", "Replace exact text in a file (old_string must occur once unless replace_all).",
     EditParams, frozenset({"write"}), "path"),
    ("find_path", "Find files whose path matches a glob.", FindPathParams,
     frozenset({"read"}), "path"),
    ("grep", "Search file contents with a regular expression; hits as path:line: text.",
     GrepParams, frozenset({"read"}), "path"),
    ("list_directory", "List a directory: [dir], [file] and [symlink] entries.", ListParams,
     frozenset({"read"}), "path"),
    ("create_directory", "Create a directory and any missing parents.", PathParams,
     frozenset({"write"}), "path"),
    ("delete_path", "Delete a file or directory (recursive for non-empty directories).",
     DeleteParams, frozenset({"write"}), "path"),
    ("move_path", "Move or rename a file or directory.", TransferParams,
     frozenset({"write"}), "destination"),
    ("copy_path", "Copy a file or directory (symbolic links inside are skipped).",
     TransferParams, frozenset({"write"}), "destination"),
    ("set_working_directory",
     "Change the working directory of your later calls (relative paths of the file tools, "
     "where bash commands run). Use this: `cd` inside a bash command does not persist.",
     WorkingDirectoryParams, frozenset({"read"}), "path"),
)
"""Each tool: id, description, params model, capabilities, the parameter permission rules see.

``move_path`` and ``copy_path`` are judged by their destination: where something is written is
what a rule guards; reading the source is the sandbox's business.
"""


def tool_defs() -> list[ToolDef]:
    """The file tool definitions, routed to the ``files`` executor."""
    return [
        ToolDef(id=tool_id, description=description, params=params, executor=EXECUTOR,
                capabilities=caps, input_param=input_param)
        for tool_id, description, params, caps, input_param in FILE_TOOLS
    ]
