"""Where a call's trust level comes from: its tool's source and its caller.

===================  ===========================================================================
step                 rule
===================  ===========================================================================
tool source          the tool's own ``source`` attribute when it names one (``builtin``,
                     ``mcp:<server>``, ``skill:<name>``); else ``mcp:<server>`` for a tool id
                     ``mcp_<server>__<tool>``; else ``builtin``. A ``source`` that names none
                     of these, and an ``mcp_`` id without a server, are an unnamed external
                     source
source level         a run-time row (``tooldeck trust set --source``) first; then
                     ``[tools.trust] sources``; then ``trusted`` for ``builtin``; then the
                     tool's own ``trust`` attribute (set where its MCP server or skill is
                     configured); then ``[tools.trust] default`` (quarantined)
caller level         a run-time row (``tooldeck trust set``, or a block by the anomaly
                     detector) first; then ``[tools.trust] callers``; else ``trusted`` (the
                     caller adds no restriction). Calls without a caller id are the caller
                     ``''``
odd callers          a caller id that is not a string, or is longer than 4096 characters, is
                     ``blocked``: no row could ever be kept for it
odd declarations     a tool ``trust`` attribute that is not a level is ``blocked``
the call             the more severe of the two
===================  ===========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from tooldeck.models import ToolDef
from tooldeck.plugins.trust_gate.settings import TrustSettings
from tooldeck.trust_levels import TrustLevel, parse_trust_level
from tooldeck.trust_state import MAX_NAME_CHARS, SOURCE_NAME, Override, Subject

__all__ = ["TrustView", "call_view", "caller_view", "is_mcp_tool", "source_of", "source_view"]

_MCP_PREFIX = "mcp_"


@attrs.frozen
class TrustView:
    """A level and where it came from.

    The explanation is formatted only when asked for: most calls never need it.

    :param level: the level.
    :param template: its origin, a :meth:`str.format` template.
    :param args: the template's arguments.
    """

    level: TrustLevel
    template: str
    args: tuple[object, ...] = ()

    @property
    def why(self) -> str:
        """Where the level came from, for the operator (audit records)."""
        return self.template.format(*self.args)


def source_of(tool: ToolDef) -> str | None:
    """The tool's source name, or ``None`` for an external source that cannot be named.

    :param tool: the tool (its optional ``source`` attribute is read, if it has one).
    """
    declared = getattr(tool, "source", None)
    if declared is not None:
        return declared if isinstance(declared, str) and SOURCE_NAME.match(declared) else None
    if tool.id.startswith(_MCP_PREFIX):
        server, sep, _ = tool.id[len(_MCP_PREFIX):].partition("__")
        name = f"mcp:{server}"
        return name if sep and SOURCE_NAME.match(name) else None
    return "builtin"


def is_mcp_tool(tool: ToolDef) -> bool:
    """True for a tool an MCP server provides: an ``mcp_`` id or an ``mcp:`` source."""
    declared = getattr(tool, "source", None)
    return tool.id.startswith(_MCP_PREFIX) or (
        isinstance(declared, str) and declared.startswith("mcp:"))


def _declared_level(tool: ToolDef) -> TrustView | None:
    declared = getattr(tool, "trust", None)
    if declared is None:
        return None
    if isinstance(declared, TrustLevel):
        return TrustView(declared, "tool {!r} declares trust {}", (tool.id, declared))
    if isinstance(declared, str):
        try:
            level = parse_trust_level(declared)
        except ValueError:
            pass
        else:
            return TrustView(level, "tool {!r} declares trust {}", (tool.id, level))
    return TrustView(TrustLevel.BLOCKED, "tool {!r} declares an unknown trust level", (tool.id,))


def _row_view(row: Override) -> TrustView:
    return TrustView(row.level, "{} set to {} by {}{}",
                     (row.subject, row.level, row.by, f": {row.reason}" if row.reason else ""))


def source_view(settings: TrustSettings, rows: Mapping[Subject, Override],
                tool: ToolDef) -> TrustView:
    """The level of ``tool``'s source.

    :param settings: ``[tools.trust]``.
    :param rows: the run-time rows (:meth:`tooldeck.trust_state.TrustState.overrides`).
    :param tool: the tool.
    """
    source = source_of(tool)
    if source is None:
        declared = _declared_level(tool)
        return declared or TrustView(settings.default, "tool {!r} comes from an unnamed "
                                     "external source: [tools.trust] default", (tool.id,))
    row = rows.get(Subject("source", source))
    if row is not None:
        return _row_view(row)
    if source in settings.sources:
        level = settings.sources[source]
        return TrustView(level, "source {!r} is {} in [tools.trust] sources", (source, level))
    if source == "builtin":
        return TrustView(TrustLevel.TRUSTED, "source 'builtin' is trusted by default")
    declared = _declared_level(tool)
    return declared or TrustView(settings.default, "source {!r} is {} by [tools.trust] default",
                                 (source, settings.default))


def caller_view(settings: TrustSettings, rows: Mapping[Subject, Override],
                caller_id: object) -> TrustView:
    """The level of a caller.

    :param settings: ``[tools.trust]``.
    :param rows: the run-time rows.
    :param caller_id: the call's ``caller_id`` (anything a host passed).
    """
    if caller_id is not None and not isinstance(caller_id, str):
        return TrustView(TrustLevel.BLOCKED, "the caller id is not a string")
    name = caller_id or ""
    if len(name) > MAX_NAME_CHARS:
        return TrustView(TrustLevel.BLOCKED, "the caller id is longer than {} characters",
                         (MAX_NAME_CHARS,))
    row = rows.get(Subject.caller(name))
    if row is not None:
        return _row_view(row)
    if name in settings.callers:
        level = settings.callers[name]
        return TrustView(level, "caller {!r} is {} in [tools.trust] callers", (name, level))
    return TrustView(TrustLevel.TRUSTED, "the caller adds no restriction")


def call_view(source: TrustView, caller: TrustView) -> TrustView:
    """The call's level: the more severe of its source's and its caller's (source's on a tie).

    :param source: :func:`source_view` of the call's tool.
    :param caller: :func:`caller_view` of the call's caller id.
    """
    return caller if caller.level > source.level else source
