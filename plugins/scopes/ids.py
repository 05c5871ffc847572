"""Namespaced tool ids: how a scope names a tool, whatever plugin provides it.

=====================  ====================================================================
tool id                namespaced id
=====================  ====================================================================
``mcp_<server>__<t>``  ``mcp:<server>/<t>`` (MCP tools, as the MCP client names them)
anything else          ``builtin:<id>``
=====================  ====================================================================

Scope patterns must carry a namespace: ``builtin:``, ``skill:<name>/``, ``mcp:<server>/``,
``acp:<peer>/`` or ``a2a:<peer>/``.
"""

from __future__ import annotations

__all__ = ["NAMESPACES", "STRICT_NAMESPACES", "namespace_of", "namespaced_id"]

NAMESPACES = ("builtin", "skill", "mcp", "acp", "a2a")
"""Namespaces a pattern may use."""

STRICT_NAMESPACES = ("builtin", "skill")
"""Namespaces whose dead patterns are errors in the default (provisional) mode."""


def namespaced_id(tool_id: str) -> str:
    """The namespaced id of a registered tool (see the table above).

    :param tool_id: the tool's id in the catalog.
    :returns: ``mcp:<server>/<tool>`` or ``builtin:<id>``.
    """
    if tool_id.startswith("mcp_") and "__" in tool_id[4:]:
        server, _, tool = tool_id[4:].partition("__")
        if server and tool:
            return f"mcp:{server}/{tool}"
    return f"builtin:{tool_id}"


def namespace_of(pattern: str) -> str:
    """The namespace of a scope pattern.

    :raises ValueError: it has no known namespace prefix (Zeph's message).
    """
    namespace, colon, _ = pattern.partition(":")
    if not colon:
        raise ValueError(f"tool id '{pattern}' has no namespace prefix (expected "
                         "'<namespace>:<id>')")
    if namespace not in NAMESPACES:
        raise ValueError(f"tool id '{pattern}' has an unknown namespace {namespace!r} "
                         f"(expected one of {', '.join(NAMESPACES)})")
    return namespace
