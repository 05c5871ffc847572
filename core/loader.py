"""Find installed plugins through entry points and import the enabled ones.

Rules (each refusal says which rule fired):

==========================  ===============================================================
rule                        behaviour
==========================  ===============================================================
one group                   plugins are entry points in group ``tooldeck``; the entry name is
                            the plugin's name everywhere (TOML, audit, errors, listings)
built-ins on                a plugin shipped by the ``tooldeck`` distribution runs unless
                            ``[plugins] disable`` names it
third parties opt in        any other plugin runs only when ``[plugins] enable`` names it:
                            installed is not enabled
names are unique            two distributions offering one name is an error naming both
unknown names               ``enable``/``disable`` naming no installed plugin is an error
isolated imports            an enabled plugin that fails to import is marked broken, the
                            rest load
gates fail closed           a broken plugin listed in group ``tooldeck.gates`` (it provides
                            policy gates) rejects the whole configuration
==========================  ===============================================================
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable, Mapping
from importlib import metadata
from typing import Any

import attrs

from tooldeck.errors import ConfigError

__all__ = ["GATES_GROUP", "GROUP", "LoadedPlugin", "PluginSpec", "discover", "load_enabled"]

GROUP = "tooldeck"
GATES_GROUP = "tooldeck.gates"
BUILTIN_DIST = "tooldeck"


@attrs.frozen
class PluginSpec:
    """An installed plugin, known from its entry point without importing it.

    :param name: the entry-point name.
    :param value: the import target (``module`` or ``module:attr``).
    :param dist: the distribution that ships it.
    :param version: that distribution's version.
    :param gate: True when the distribution lists the plugin in group ``tooldeck.gates``.
    """

    name: str
    value: str
    dist: str
    version: str
    gate: bool = False

    @property
    def builtin(self) -> bool:
        """True for plugins shipped by tooldeck itself."""
        return self.dist == BUILTIN_DIST


@attrs.frozen
class LoadedPlugin:
    """A plugin after the enable/disable decision and, if enabled, the import.

    :param spec: what the entry point says.
    :param state: ``enabled``, ``disabled`` or ``broken``.
    :param why: for disabled and broken plugins, the reason.
    :param obj: the imported plugin object (module or instance) when enabled.
    """

    spec: PluginSpec
    state: str
    why: str = ""
    obj: Any = None


def _dist_name(ep: metadata.EntryPoint) -> tuple[str, str]:
    dist = ep.dist
    if dist is None:  # pragma: no cover - entry points always come from a distribution here
        return ("<unknown>", "")
    return (dist.metadata["Name"] or "<unknown>", dist.version)


def discover() -> dict[str, PluginSpec]:
    """All installed plugins by name, without importing any of them.

    :raises ConfigError: two distributions offer the same plugin name (rule "names are
        unique").
    """
    gate_names = {(ep.name, _dist_name(ep)[0]) for ep in metadata.entry_points(group=GATES_GROUP)}
    found: dict[str, PluginSpec] = {}
    for ep in metadata.entry_points(group=GROUP):
        dist, version = _dist_name(ep)
        spec = PluginSpec(ep.name, ep.value, dist, version, gate=(ep.name, dist) in gate_names)
        other = found.get(ep.name)
        if other is not None and other.dist != dist:
            raise ConfigError(
                f"plugin name {ep.name!r} is offered by two distributions, {other.dist!r} and "
                f"{dist!r} (rule: names are unique); uninstall one of them"
            )
        found[ep.name] = spec
    return found


def _import(spec: PluginSpec) -> Any:
    return metadata.EntryPoint(name=spec.name, value=spec.value, group=GROUP).load()


def load_enabled(
    installed: Mapping[str, PluginSpec],
    enable: Iterable[str],
    disable: Iterable[str],
    *,
    config_label: str = "<config>",
    fail_closed: bool = True,
) -> list[LoadedPlugin]:
    """Decide which plugins run and import those, isolating import failures.

    :param installed: the result of :func:`discover`.
    :param enable: ``[plugins] enable``.
    :param disable: ``[plugins] disable``.
    :param config_label: the config file, for error messages.
    :param fail_closed: raise for a broken gate plugin (building a runtime); ``False`` lists
        it as broken instead (diagnosis: ``tooldeck plugins``).
    :returns: every installed plugin, sorted by name, with its state.
    :raises ConfigError: an unknown name in enable/disable, or a broken gate plugin.
    """
    enable_set, disable_set = set(enable), set(disable)
    for key, names in (("plugins.enable", enable_set), ("plugins.disable", disable_set)):
        unknown = sorted(names - set(installed))
        if unknown:
            raise ConfigError(
                f"{config_label}: {key}: no installed plugin named {', '.join(map(repr, unknown))}"
                f" (installed: {', '.join(sorted(installed)) or 'none'})",
                path=config_label,
                key=key,
            )
    result: list[LoadedPlugin] = []
    for name in sorted(installed):
        spec = installed[name]
        if name in disable_set:
            result.append(LoadedPlugin(spec, "disabled", "disabled by [plugins] disable"))
            continue
        if not spec.builtin and name not in enable_set:
            result.append(
                LoadedPlugin(spec, "disabled", "third-party: not named in [plugins] enable")
            )
            continue
        try:
            obj = _import(spec)
        except Exception as exc:
            why = f"import failed: {type(exc).__name__}: {exc}"
            if spec.gate and fail_closed:
                raise ConfigError(
                    f"gate plugin {name!r} ({spec.dist}) is broken, refusing to run without it "
                    f"(rule: gates fail closed): {why}\n{traceback.format_exc(limit=3)}"
                ) from exc
            result.append(LoadedPlugin(spec, "broken", why))
            continue
        result.append(LoadedPlugin(spec, "enabled", obj=obj))
    return result
