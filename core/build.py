"""Build a :class:`~tooldeck.runtime.Runtime` from a configuration document, all or nothing.

Steps: pick and import plugins (:mod:`tooldeck.loader`); register them on a fresh plugin
manager beside the essential core plugin; collect settings models and validate every
section; collect executors, tools, filter strategies and gates (a name collision is an error
naming both plugins); check each tool's executor exists; run ``tooldeck_configure``. Any
failure raises :class:`~tooldeck.errors.ConfigError` and leaves nothing configured.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pluggy
from pydantic import BaseModel

from tooldeck import __version__, hookspecs
from tooldeck.capabilities import undeclared_warning
from tooldeck.config import CORE_SECTIONS, ConfigDocument, plugin_lists, validate_sections
from tooldeck.errors import ConfigError, PluginError
from tooldeck.generation import FileVersion, PolicyReads
from tooldeck.loader import LoadedPlugin, PluginSpec, discover, load_enabled
from tooldeck.models import ToolDef
from tooldeck.policy_examples import check_examples
from tooldeck.runtime import (
    CORE_PLUGIN,
    DefaultRouting,
    Executor,
    PluginInfo,
    Runtime,
    SessionState,
    impls,
)
from tooldeck.storage import discard_storage, has_storage, open_storage

__all__ = ["build_runtime"]

_GATE_HOOKS = frozenset({"tooldeck_check_call", "tooldeck_probe_call", "tooldeck_register_gates"})
"""Hooks whose implementer can stop calls: such a plugin is a gate and fails closed."""


class _Registry:
    """Named objects of one kind, remembering which plugin registered each."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.items: dict[str, Any] = {}
        self.owners: dict[str, str] = {}

    def add(self, name: str, obj: Any, plugin: str) -> None:
        if not isinstance(name, str) or not name:
            raise PluginError(plugin, f"registered a {self.kind} without a name: {obj!r}")
        if name in self.items:
            raise PluginError(
                plugin,
                f"{self.kind} {name!r} is already registered by plugin {self.owners[name]!r}",
            )
        self.items[name] = obj
        self.owners[name] = plugin

    def drop_plugin(self, plugin: str) -> None:
        for name in [n for n, owner in self.owners.items() if owner == plugin]:
            del self.items[name]
            del self.owners[name]


def _call_each(pm: pluggy.PluginManager, hook_name: str, make_register: Callable[[str], Any],
               extra: Mapping[str, Any]) -> dict[str, Exception]:
    """Call ``hook_name`` once per implementing plugin with its own ``register``."""
    failures: dict[str, Exception] = {}
    for impl in impls(getattr(pm.hook, hook_name)):
        args = {"register": make_register(impl.plugin), **extra}
        try:
            impl.function(*[args[a] for a in impl.argnames])
        except Exception as exc:
            failures[impl.plugin] = exc
    return failures


def _hook_names(pm: pluggy.PluginManager, plugin: object) -> tuple[str, ...]:
    return tuple(sorted(hc.name for hc in pm.get_hookcallers(plugin) or ()))


def build_runtime(
    doc: ConfigDocument,
    *,
    installed: Mapping[str, PluginSpec] | None = None,
    extra_plugins: Mapping[str, object] | None = None,
    environ: Mapping[str, str] | None = None,
    session: SessionState | None = None,
    reads: PolicyReads | None = None,
) -> Runtime:
    """Build a complete runtime from a configuration document.

    Steps: pick and import plugins; register them on a fresh plugin manager beside the
    essential core plugin; collect settings models and validate every section; collect
    executors, tools, filter strategies and gates (name collisions are errors naming both
    plugins); check each tool's executor exists; run ``tooldeck_configure``; judge the
    ``[[examples.calls]]`` (:mod:`tooldeck.policy_examples`).

    :param doc: the configuration.
    :param installed: installed plugins (default: :func:`tooldeck.loader.discover`).
    :param extra_plugins: plugin objects passed in by code (tests, embedding), by name; they
        are enabled unless ``[plugins] disable`` names them.
    :param environ: environment for ``TOOLDECK_*`` overrides (default ``os.environ``).
    :param session: the deck's state that outlives runtimes (a new one when ``None``).
    :param reads: the policy files already read for this build (a reload reads the
        configuration file through it); the plugins' reads are added to it, and it is frozen
        once the runtime is configured: it is the runtime's generation.
    :raises ConfigError: the configuration cannot be used; nothing was configured.
    """
    reads = PolicyReads() if reads is None else reads
    if doc.path is not None and doc.path not in reads.versions:
        reads.add(config_version(doc))
    installed = discover() if installed is None else installed
    extra = dict(extra_plugins or {})
    enable, disable = plugin_lists(doc, environ)
    clash = sorted(set(extra) & set(installed))
    if clash:
        raise ConfigError(f"embedded plugin names clash with installed plugins: {clash}")
    if CORE_PLUGIN in disable:
        raise ConfigError(
            f"{doc.label}: plugins.disable: {CORE_PLUGIN!r} is essential and cannot be disabled",
            path=doc.label, key="plugins.disable",
        )
    loaded = load_enabled(
        installed, enable, [d for d in disable if d not in extra], config_label=doc.label
    )
    for name, obj in extra.items():
        spec = PluginSpec(name, "<object>", "<embedded>", "")
        state = "disabled" if name in disable else "enabled"
        loaded.append(LoadedPlugin(spec, state, "disabled by [plugins] disable"
                                   if state == "disabled" else "", obj if state == "enabled"
                                   else None))

    pm = pluggy.PluginManager("tooldeck")
    pm.add_hookspecs(hookspecs)
    pm.register(DefaultRouting(), name=CORE_PLUGIN)
    broken: dict[str, str] = {}
    gate_plugins: set[str] = set()
    for plugin in loaded:
        if plugin.state != "enabled":
            continue
        name = plugin.spec.name
        # Judged by attribute names, before pluggy validates anything: a gate whose hooks
        # pluggy rejects must still count as a gate, so that it fails closed.
        if _declares_gate_hooks(plugin.obj):
            gate_plugins.add(name)
            if plugin.spec.dist != "<embedded>" and not plugin.spec.gate:
                raise ConfigError(
                    f"plugin {name!r} ({plugin.spec.dist}) implements policy gates but is not "
                    f"listed in entry-point group 'tooldeck.gates'; refusing to load it "
                    f"(rule: gates fail closed)"
                )
        try:
            pm.register(plugin.obj, name=name)
        except Exception as exc:
            if name in gate_plugins:
                raise ConfigError(
                    f"gate plugin {name!r} cannot be registered (rule: gates fail closed): {exc}"
                ) from exc
            _fail_plugin(plugin.spec, exc, broken)
            continue
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise ConfigError(f"plugin {exc.plugin!r}: {exc}") from None

    sections: dict[str, type[BaseModel]] = {}
    section_owner: dict[str, str] = {}
    third_party = {p.spec.name for p in loaded if p.spec.dist not in ("tooldeck", "<embedded>")}

    def settings_register(plugin: str) -> Callable[..., None]:
        def register(section: str, model: type[BaseModel]) -> None:
            own = f"plugins.{plugin}"
            if plugin in third_party and section != own and not section.startswith(own + "."):
                raise PluginError(
                    plugin, f"section [{section}] is outside its namespace: a third-party "
                    f"plugin owns [{own}] and the sections below it",
                )
            if section in section_owner:
                raise PluginError(
                    plugin,
                    f"section [{section}] is already registered by plugin "
                    f"{section_owner[section]!r}",
                )
            parent = section.rsplit(".", 1)[0]
            top_level = section in _TOP_LEVEL_SECTIONS and plugin not in third_party
            if not top_level and ("." not in section
                                  or not (parent in sections or parent in _SECTION_PARENTS)):
                raise PluginError(
                    plugin, f"section [{section}] must sit under [tools], [plugins] or a "
                    "section already registered",
                )
            sections[section] = model
            section_owner[section] = plugin
        return register

    failures = _call_each(pm, "tooldeck_register_settings", settings_register, {})
    for failed in failures:  # a broken plugin's sections are not validated
        for section in [s for s, owner in section_owner.items() if owner == failed]:
            del sections[section], section_owner[section]
    _handle_failures(pm, failures, broken, gate_plugins)

    settings = validate_sections(
        doc, sections, installed_plugins=[*installed, *extra], environ=environ, files=reads
    )

    registries = {
        "tooldeck_register_executors": _Registry("executor"),
        "tooldeck_register_tools": _Registry("tool"),
        "tooldeck_register_filters": _Registry("filter strategy"),
        "tooldeck_register_gates": _Registry("gate"),
    }
    unoffered: set[str] = set()  # tools declared with available=False
    for hook_name, registry in registries.items():
        def make(plugin: str, registry: _Registry = registry) -> Callable[..., None]:
            def register(obj: Any, *, available: bool = True) -> None:
                name = obj.id if isinstance(obj, ToolDef) else getattr(obj, "name", None)
                if registry.kind == "tool" and not isinstance(obj, ToolDef):
                    raise PluginError(plugin, f"register() takes a ToolDef, got {obj!r}")
                if registry.kind == "executor" and not isinstance(obj, Executor):
                    raise PluginError(plugin, f"executor {name!r} has no async execute()")
                if not available and registry.kind != "tool":
                    raise PluginError(plugin, f"available=False is for tools, not {registry.kind}s")
                registry.add(str(name) if name else "", obj, plugin)
                if not available:
                    unoffered.add(obj.id)
            return register
        failures = _call_each(pm, hook_name, make, {"settings": settings})
        for failed in failures:
            for reg in registries.values():
                reg.drop_plugin(failed)
        _handle_failures(pm, failures, broken, gate_plugins)

    gates = registries["tooldeck_register_gates"]
    for gate_name, gate in gates.items.items():
        owner = gates.owners[gate_name]
        try:
            pm.register(gate, name=f"{owner}.{gate_name}")
        except Exception as exc:
            raise ConfigError(f"plugin {owner!r}: gate {gate_name!r} is invalid: {exc}") from None
        if not pm.get_hookcallers(gate):
            raise ConfigError(
                f"plugin {owner!r}: gate {gate_name!r} implements no hook "
                "(decorate its tooldeck_check_call with @hookimpl)"
            )

    warnings: list[str] = []
    executors = registries["tooldeck_register_executors"].items
    tools: dict[str, ToolDef] = {}
    for tool_id, tool in registries["tooldeck_register_tools"].items.items():
        if tool_id in unoffered:
            continue
        if tool.executor not in executors:
            owner = registries["tooldeck_register_tools"].owners[tool_id]
            warnings.append(
                f"tool {tool_id!r} (plugin {owner!r}) is unavailable: no executor "
                f"{tool.executor!r} is registered"
            )
            continue
        tools[tool_id] = tool
        owner = registries["tooldeck_register_tools"].owners[tool_id]
        undeclared = undeclared_warning(tool_id, tool.capabilities, owner)
        if undeclared is not None:
            warnings.append(undeclared)

    infos = [PluginInfo(CORE_PLUGIN, "tooldeck", __version__, "enabled", "essential",
                        _hook_names(pm, pm.get_plugin(CORE_PLUGIN)), essential=True)]
    for plugin in sorted(loaded, key=lambda p: p.spec.name):
        name = plugin.spec.name
        hooks: tuple[str, ...] = ()
        if name in broken:
            state, why = "broken", broken[name]
        else:
            obj = pm.get_plugin(name)
            state, why = plugin.state, plugin.why
            hooks = _hook_names(pm, obj) if obj is not None else ()
        infos.append(PluginInfo(name, plugin.spec.dist, plugin.spec.version, state, why, hooks))
        if state == "broken":
            warnings.append(f"plugin {name!r} is broken: {why}")

    runtime = Runtime(
        settings=settings,
        pm=pm,
        tools=tools,
        executors=executors,
        strategies=registries["tooldeck_register_filters"].items,
        strategy_owners=registries["tooldeck_register_filters"].owners,
        tool_owners=registries["tooldeck_register_tools"].owners,
        plugins=infos,
        warnings=warnings,
        session=session,
        declared_tools=registries["tooldeck_register_tools"].items,
        section_owners={**dict.fromkeys(CORE_SECTIONS, CORE_PLUGIN), **section_owner},
    )
    runtime.services  # noqa: B018 - built now: a sandbox key that does not validate is refused
    first = not has_storage(runtime.session)
    open_storage(settings, runtime.hooks.open_storage, runtime.session, environ)
    try:
        runtime.hooks.configure(runtime)
        check_examples(runtime)
    except Exception as exc:
        runtime.hooks.unconfigure(runtime)
        if first:  # no deck will ever close it
            discard_storage(runtime.session)
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(f"a plugin failed to configure: {type(exc).__name__}: {exc}") from exc
    reads.freeze(also=runtime.policy_files)
    return runtime


def config_version(doc: ConfigDocument) -> FileVersion:
    """The configuration file as a generation member: the parsed text and the file's identity.

    Used when the document was read before any build (at start-up); a reload reads the file
    and its identity together instead.
    """
    assert doc.path is not None
    try:
        st = doc.path.stat()
    except OSError:
        return FileVersion(doc.path, doc.text.encode(), "config")
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    return FileVersion(doc.path, doc.text.encode(), "config", identity)


_SECTION_PARENTS = frozenset({"tools", "plugins", "agent"})
_TOP_LEVEL_SECTIONS = frozenset({"mcp"})
"""Top-level tables a built-in plugin may own, as Zeph names them (``[[mcp.servers]]``)."""


def _declares_gate_hooks(obj: object) -> bool:
    return any(callable(getattr(obj, hook, None)) for hook in _GATE_HOOKS)


def _fail_plugin(spec: PluginSpec, exc: Exception, broken: dict[str, str]) -> None:
    if spec.gate:
        raise ConfigError(f"gate plugin {spec.name!r} is broken (rule: gates fail closed): {exc}")
    broken[spec.name] = f"{type(exc).__name__}: {exc}"


def _handle_failures(pm: pluggy.PluginManager, failures: Mapping[str, Exception],
                     broken: dict[str, str], gate_plugins: set[str]) -> None:
    for plugin, exc in failures.items():
        if isinstance(exc, ConfigError):
            raise exc
        if plugin in gate_plugins or plugin == CORE_PLUGIN:
            raise ConfigError(
                f"plugin {plugin!r} failed while registering (rule: gates fail closed): "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        message = str(exc) if isinstance(exc, PluginError) else f"{type(exc).__name__}: {exc}"
        broken[plugin] = f"registration failed: {message}"
        obj = pm.get_plugin(plugin)
        if obj is not None:
            pm.unregister(obj, name=plugin)
