"""The capability vocabulary: what a tool may do, in five words gates and tests agree on.

=============  ==========================================================================
capability     the tool may
=============  ==========================================================================
``read``       read files or other local data without changing them
``write``      create, change or delete files outside tooldeck's own state
``execute``    start processes (a shell command, a language server, a compiler)
``network``    open network connections
``state``      keep tooldeck-managed state across calls (memory, scheduled tasks)
=============  ==========================================================================

Older spellings are accepted and normalised: ``exec`` is ``execute`` and ``delete`` is
``write``. Other tags (``mcp``) may ride along as markers; they grant nothing and restrict
nothing. A tool that declares none of the five words is treated, fail-closed, as declaring
all of them (:func:`effective`): a rule denying ``write`` or ``network`` denies it, and it is
never read-only. The build warns about such a tool instead of refusing it, so a third-party
plugin written before the vocabulary existed still loads.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ALIASES", "CAPABILITIES", "effective", "normalise", "undeclared_warning", "unknown"]

CAPABILITIES = frozenset({"read", "write", "execute", "network", "state"})
"""The five capabilities tooldeck knows."""

ALIASES = {"exec": "execute", "delete": "write"}
"""Older spellings and what they mean now."""


def normalise(values: Iterable[str]) -> frozenset[str]:
    """Capability tags trimmed, lowercased, with :data:`ALIASES` replaced.

    :param values: tags as a tool or a rule wrote them.
    :returns: the normalised set.
    """
    out = set()
    for value in values:
        tag = value.strip().lower()
        out.add(ALIASES.get(tag, tag))
    return frozenset(out)


def unknown(values: Iterable[str]) -> frozenset[str]:
    """The tags of ``values`` (normalised) that are not among :data:`CAPABILITIES`.

    :param values: capability tags.
    :returns: the tags outside the vocabulary.
    """
    return normalise(values) - CAPABILITIES


def effective(values: Iterable[str]) -> frozenset[str]:
    """What gates assume a tool may do: its known capabilities, or all five when it names none.

    :param values: the tool's declared tags.
    :returns: a non-empty subset of :data:`CAPABILITIES`.
    """
    known = normalise(values) & CAPABILITIES
    return known or CAPABILITIES


def undeclared_warning(tool_id: str, values: Iterable[str], plugin: str) -> str | None:
    """The build warning for a tool that declares none of the five capabilities, else ``None``.

    :param tool_id: the tool's id.
    :param values: its declared tags.
    :param plugin: the plugin that registered it.
    :returns: the warning text, or ``None`` when the tool declares at least one capability.
    """
    if normalise(values) & CAPABILITIES:
        return None
    return (f"tool {tool_id!r} (plugin {plugin!r}) declares no capability "
            f"({', '.join(sorted(CAPABILITIES))}): gates treat it as declaring all of them")
