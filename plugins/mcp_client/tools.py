"""Turn a server's ``tools/list`` into deck :class:`~tooldeck.models.ToolDef` objects.

=====================  ===================================================================
rule                   behaviour
=====================  ===================================================================
naming                 a server's tool ``t`` is ``mcp_<server>__<t>`` in the deck; a name
                       that cannot form a valid tool id (characters, 64 at most) is skipped
                       with a warning
allow / deny           a tool is offered when a glob of ``allow_tools`` matches its name and
                       none of ``deny_tools`` does (``fnmatch``, case-sensitive)
screening              a tool whose description or schema trips
                       :mod:`tooldeck.screening` is withheld unless ``allow_flagged_tools``
                       names it (fail closed)
source and trust       every tool carries ``source = "mcp:<server>"`` and the server's
                       ``trust``; its description starts with ``[MCP server '<server>']``
schema                 the server's input schema, unchanged; a schema that is not valid
                       JSON Schema withholds the tool
=====================  ===================================================================

Withheld tools are still *declared* (``register(tool, available=False)``), so that permission
rules naming them stay valid.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs
import pydantic

from tooldeck.audit import MCP_SOURCE
from tooldeck.models import ToolDef
from tooldeck.plugins.mcp_client.params import params_model
from tooldeck.plugins.mcp_client.settings import ServerConfig
from tooldeck.screening import screen_tool

__all__ = [
    "EXECUTOR",
    "Built",
    "Flagged",
    "build_tools",
    "declared_tool",
    "remote_name",
    "server_of",
    "tool_id",
]

EXECUTOR = "mcp_client"
"""The executor every MCP tool names."""

_MAX_DESCRIPTION = 4000
_VALID_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.:-]{0,63}$")


class _Placeholder(pydantic.BaseModel):
    """Parameters of a withheld tool (it never runs)."""


def declared_tool(tid: str, server: ServerConfig, why: str) -> ToolDef:
    """A tool declared but not offered (``register(tool, available=False)``); it never runs.

    :param tid: the deck's tool id.
    :param server: the tool's server.
    :param why: why it is not offered.
    """
    return ToolDef(id=tid, description=why, params=_Placeholder, executor=EXECUTOR,
                   source=f"{MCP_SOURCE}{server.name}", trust=server.trust)


def tool_id(server: str, tool: str) -> str:
    """The deck's id of ``tool`` of ``server``: ``mcp_<server>__<tool>``."""
    return f"mcp_{server}__{tool}"


@attrs.frozen
class Flagged:
    """A tool screening flagged.

    :param server: the server's name.
    :param tool: the tool's name on the server.
    :param rules: the screening rules it tripped.
    :param allowed: True when ``allow_flagged_tools`` names it (offered anyway).
    """

    server: str
    tool: str
    rules: tuple[str, ...]
    allowed: bool


@attrs.frozen
class Built:
    """What one server contributes to the runtime.

    :param offered: tools for the catalog.
    :param withheld: tools declared but not offered (denied by name, flagged, bad schema).
    :param flagged: every tool screening flagged.
    :param warnings: lines for the operator.
    """

    offered: tuple[ToolDef, ...] = ()
    withheld: tuple[ToolDef, ...] = ()
    flagged: tuple[Flagged, ...] = ()
    warnings: tuple[str, ...] = ()


def _matches(name: str, globs: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, glob) for glob in globs)


def _description(server: ServerConfig, text: str) -> str:
    text = " ".join(text.split()) or "(no description)"
    if len(text) > _MAX_DESCRIPTION:
        text = text[: _MAX_DESCRIPTION - 1] + "…"
    return f"[MCP server {server.name!r}] {text}"


def build_tools(server: ServerConfig, listed: Iterable[Any], network: bool) -> Built:
    """The deck tools of one server from its ``tools/list`` answer.

    :param server: the server's settings.
    :param listed: its ``mcp.types.Tool`` objects.
    :param network: True for a server reached over HTTP (adds the ``network`` capability).
    :returns: offered and withheld tools, flags and warnings.
    """
    offered: list[ToolDef] = []
    withheld: list[ToolDef] = []
    flagged: list[Flagged] = []
    warnings: list[str] = []
    capabilities = {"mcp", "network"} if network else {"mcp"}
    source = f"{MCP_SOURCE}{server.name}"
    for tool in listed:
        name = str(tool.name)
        tid = tool_id(server.name, name)
        if not _VALID_ID.match(tid):
            warnings.append(f"mcp server {server.name!r}: tool {name[:80]!r} skipped: "
                            f"{tid[:80]!r} is not a valid tool id (letters, digits, '_', '.', "
                            "':', '-'; 64 characters at most)")
            continue
        description = str(tool.description or "")
        schema: Mapping[str, Any] = tool.input_schema or {"type": "object"}

        def declare(why: str, tid: str = tid) -> None:
            withheld.append(declared_tool(tid, server, why))

        if not _matches(name, server.allow_tools) or _matches(name, server.deny_tools):
            declare("not offered: allow_tools/deny_tools")
            continue
        rules = tuple(screen_tool(description, schema))
        if rules:
            allowed = name in server.allow_flagged_tools
            flagged.append(Flagged(server.name, name, rules, allowed))
            if not allowed:
                declare("withheld: flagged by screening")
                continue
        try:
            params: type[pydantic.BaseModel] = params_model(tid, schema)
        except ValueError as exc:
            warnings.append(f"mcp server {server.name!r}: tool {name!r} withheld: {exc}")
            declare("withheld: invalid input schema")
            continue
        offered.append(ToolDef(id=tid, description=_description(server, description),
                               params=params, executor=EXECUTOR, capabilities=capabilities,
                               source=source, trust=server.trust))
    return Built(tuple(offered), tuple(withheld), tuple(flagged), tuple(warnings))


def server_of(tool: ToolDef) -> str | None:
    """The server name of an MCP tool, from its source; ``None`` for any other tool."""
    if tool.source is None or not tool.source.startswith(MCP_SOURCE):
        return None
    return tool.source[len(MCP_SOURCE):]


def remote_name(tool: ToolDef) -> str:
    """The tool's own name on its server."""
    server = server_of(tool)
    assert server is not None
    return tool.id[len(tool_id(server, "")):]

