"""List every installed plugin with its state, even when the configuration cannot run.

Building a runtime refuses a broken gate plugin (gates fail closed), which is right for
running calls and wrong for finding out what is broken: ``tooldeck plugins`` and ``tooldeck
config check`` use this listing when the build fails. Each enabled plugin is imported and
registered alone, against the hook specifications, so one broken plugin does not hide the
others; nothing is configured and nothing runs.
"""

from __future__ import annotations

from collections.abc import Mapping

import pluggy

from tooldeck import __version__, hookspecs
from tooldeck.config import ConfigDocument, parse_document, plugin_lists
from tooldeck.errors import ConfigError
from tooldeck.loader import discover, load_enabled
from tooldeck.lookup import load_document
from tooldeck.runtime import CORE_PLUGIN, PluginInfo

__all__ = ["broken_lines", "diagnose_config", "diagnose_plugins"]


def _hooks(obj: object) -> tuple[str, ...]:
    return tuple(sorted(name for name in dir(obj)
                        if name.startswith("tooldeck_") and callable(getattr(obj, name))))


def _registration_error(name: str, obj: object) -> str | None:
    pm = pluggy.PluginManager("tooldeck")
    pm.add_hookspecs(hookspecs)
    try:
        pm.register(obj, name=name)
        pm.check_pending()
    except Exception as exc:
        return f"registration failed: {type(exc).__name__}: {exc}"
    return None


def diagnose_plugins(doc: ConfigDocument,
                     environ: Mapping[str, str] | None = None) -> list[PluginInfo]:
    """Every installed plugin with its state and, for broken ones, why.

    Names in ``[plugins] enable``/``disable`` that no installed plugin has are ignored here
    (the build reports them).

    :param doc: the configuration (only ``[plugins]`` is read).
    :param environ: environment for ``TOOLDECK_PLUGINS_*`` overrides.
    :returns: the core, then the installed plugins by name.
    """
    installed = discover()
    try:
        enable, disable = plugin_lists(doc, environ)
    except ConfigError:
        enable, disable = [], []
    known = set(installed)
    loaded = load_enabled(installed, [n for n in enable if n in known],
                          [n for n in disable if n in known], config_label=doc.label,
                          fail_closed=False)
    infos = [PluginInfo(CORE_PLUGIN, "tooldeck", __version__, "enabled", "essential",
                        ("tooldeck_select_executor",), essential=True)]
    for plugin in loaded:
        spec, state, why = plugin.spec, plugin.state, plugin.why
        hooks: tuple[str, ...] = ()
        if state == "enabled":
            hooks = _hooks(plugin.obj)
            problem = _registration_error(spec.name, plugin.obj)
            if problem is not None:
                state, why = "broken", problem
        if state == "broken" and spec.gate:
            why += " (a gate plugin: every call is refused until it is fixed or disabled)"
        infos.append(PluginInfo(spec.name, spec.dist, spec.version, state, why, hooks))
    return infos


def diagnose_config(config: str | None) -> list[PluginInfo]:
    """:func:`diagnose_plugins` for ``--config`` or the lookup order.

    An unreadable configuration is listed as if it had no ``[plugins]`` table.
    """
    try:
        doc = load_document(config)
    except ConfigError:
        doc = parse_document("", None, "<unreadable configuration>")
    return diagnose_plugins(doc)


def broken_lines(infos: list[PluginInfo]) -> list[str]:
    """One line per broken plugin: its name and why."""
    return [f"plugin {p.name!r} ({p.dist}) is broken: {p.why}" for p in infos
            if p.state == "broken"]
