"""Which tools the result cache may serve, decided before a call runs.

A tool is cacheable only when it says it changes nothing: its capabilities are ``read`` (a
local read, such as ``read`` or ``grep``) or ``read`` + ``network`` (``fetch``), with none
of ``write``, ``execute`` or ``state`` — and it is not in Zeph's never-cached set, extended
to the tools whose answer changes without any file changing (``bash_status``, the overflow
store, checkpoints) and to every MCP tool (its server's state is not ours to watch).
"""

from __future__ import annotations

from tooldeck.models import ToolDef

__all__ = ["NEVER_CACHED", "cacheable", "local_read"]

NEVER_CACHED = frozenset({
    # Zeph's set
    "bash", "memory_save", "memory_search", "scheduler", "write", "compress_context",
    # the other tools that change files
    "edit", "delete_path", "move_path", "copy_path", "create_directory",
    "shell_undo", "shell_redo",
    # answers that change with no file changing: job status, checkpoints, stored outputs
    # (read_overflow must stop answering once retention deleted the entry)
    "bash_status", "shell_checkpoints", "read_overflow",
})
"""Tool ids never cached, whatever their capabilities say."""

_MCP_PREFIXES = ("mcp_", "mcp:")


def cacheable(tool: ToolDef) -> bool:
    """Whether results of ``tool`` may be cached at all.

    :param tool: the tool's definition.
    :returns: ``True`` for a read-only tool (local or network) outside :data:`NEVER_CACHED`
        whose id is not an MCP tool's.
    """
    if tool.id in NEVER_CACHED or tool.id.startswith(_MCP_PREFIXES):
        return False
    return tool.read_only or tool.network_read


def local_read(tool: ToolDef) -> bool:
    """Whether ``tool`` reads local state: its outputs are cached only with ``read_paths``.

    :param tool: a cacheable tool's definition.
    :returns: ``True`` unless the tool reads from the network.
    """
    return not tool.network_read
