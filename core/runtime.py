"""A runtime: one immutable snapshot of configuration, plugins, tools, executors and gates.

A :class:`Runtime` is built from a configuration document in full before anything uses it
(:func:`build_runtime`); a hot reload builds a new one aside and swaps it in. Each call
captures one runtime for its whole life, and a retired runtime is unconfigured only once its
in-flight calls have ended.
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import attrs
import pluggy
from pydantic import BaseModel

from tooldeck import __version__, hookimpl, hookspecs
from tooldeck.config import ConfigDocument, Settings, plugin_lists, validate_sections
from tooldeck.errors import ConfigError, PluginError
from tooldeck.loader import LoadedPlugin, PluginSpec, discover, load_enabled
from tooldeck.models import AuditEvent, Decision, ToolCall, ToolDef, ToolOutput, Verdict

__all__ = [
    "CallContext",
    "Executor",
    "Hooks",
    "PluginInfo",
    "Runtime",
    "StashKey",
    "build_runtime",
]

T = TypeVar("T")

CORE_PLUGIN = "core"
_GATE_HOOKS = frozenset({"tooldeck_check_call", "tooldeck_register_gates"})


@runtime_checkable
class Executor(Protocol):
    """Runs tools. Registered through ``tooldeck_register_executors``.

    ``execute`` returns a :class:`~tooldeck.models.ToolOutput` or raises
    :class:`~tooldeck.errors.ToolError`; any other exception is reported as a
    ``permanent_failure`` naming the executor.
    """

    name: str

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Run ``call``; ``ctx.params`` holds the validated parameters model."""
        ...


@attrs.frozen
class CallContext:
    """What an executor gets besides the call itself.

    :param tool: the called tool's definition.
    :param params: the validated parameters (an instance of ``tool.params``).
    :param runtime: the runtime the call runs on (settings, stash, other tools).
    :param decision: the combined gate decision that let the call through.
    :param approved_by: who confirmed an ``ask`` decision, or ``None`` when none was needed.
    """

    tool: ToolDef
    params: BaseModel
    runtime: Runtime
    decision: Decision
    approved_by: str | None = None


@attrs.frozen
class StashKey(Generic[T]):
    """A typed key for per-runtime plugin state: ``KEY = StashKey[Client]("web.client")``."""

    name: str


@attrs.frozen
class PluginInfo:
    """One installed (or embedded) plugin as ``tooldeck plugins`` lists it.

    :param name: the plugin name.
    :param dist: its distribution (``<embedded>`` for plugins passed in by code).
    :param version: the distribution version.
    :param state: ``enabled``, ``disabled`` or ``broken``.
    :param why: for disabled and broken plugins, the reason.
    :param hooks: the hooks it implements.
    :param essential: True for the core's own pieces, which cannot be disabled.
    """

    name: str
    dist: str
    version: str
    state: str
    why: str = ""
    hooks: tuple[str, ...] = ()
    essential: bool = False


class _DefaultRouting:
    """Essential core plugin: route a call to the executor its tool names."""

    @hookimpl(trylast=True)
    def tooldeck_select_executor(self, tool: ToolDef, runtime: Runtime) -> Executor | None:
        return runtime.executors.get(tool.executor)


@attrs.frozen
class _Impl:
    plugin: str
    function: Callable[..., Any]
    argnames: tuple[str, ...]


def _impls(hook: Any) -> tuple[_Impl, ...]:
    # pluggy calls the last registered first; keep that order.
    return tuple(
        _Impl(impl.plugin_name, impl.function, tuple(impl.argnames))
        for impl in reversed(hook.get_hookimpls())
    )


class Hooks:
    """The typed facade business code uses instead of ``pm.hook``.

    ``check_call`` and ``audit`` call each implementation on its own so that one failing
    gate or sink cannot hide the others.
    """

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self._pm = pm
        self._check = _impls(pm.hook.tooldeck_check_call)
        self._audit = _impls(pm.hook.tooldeck_audit)
        self._transform = _impls(pm.hook.tooldeck_transform_output)

    @property
    def gate_names(self) -> tuple[str, ...]:
        """Names of the plugins and gates that vote, in the order they are asked."""
        return tuple(impl.plugin for impl in self._check)

    def check_call(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> list[Decision]:
        """Ask every gate; a gate that raises votes deny, naming itself and the exception."""
        args = {"call": call, "tool": tool, "runtime": runtime}
        votes: list[Decision] = []
        for impl in self._check:
            try:
                vote = impl.function(*[args[a] for a in impl.argnames])
                if vote is None:
                    continue
                if not isinstance(vote, Decision):
                    raise TypeError(f"returned {type(vote).__name__}, not a Decision or None")
                if not vote.gate:
                    vote = attrs.evolve(vote, gate=impl.plugin)
            except Exception as exc:
                vote = Decision(
                    verdict=Verdict.DENY,
                    reason=f"gate {impl.plugin!r} failed: {type(exc).__name__}: {exc}",
                    gate=impl.plugin,
                )
            votes.append(vote)
        return votes

    def select_executor(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> Executor | None:
        """The first non-``None`` executor chosen by ``tooldeck_select_executor``."""
        result: Executor | None = self._pm.hook.tooldeck_select_executor(
            call=call, tool=tool, runtime=runtime
        )
        return result

    def transform_output(
        self, call: ToolCall, tool: ToolDef, output: ToolOutput, runtime: Runtime
    ) -> ToolOutput:
        """Pass ``output`` through every ``tooldeck_transform_output`` in turn."""
        for impl in self._transform:
            args = {"call": call, "tool": tool, "output": output, "runtime": runtime}
            try:
                replaced = impl.function(*[args[a] for a in impl.argnames])
                if replaced is not None and not isinstance(replaced, ToolOutput):
                    raise TypeError(f"returned {type(replaced).__name__}, not a ToolOutput")
            except Exception as exc:
                print(
                    f"tooldeck: output transform {impl.plugin!r} failed, output kept: "
                    f"{type(exc).__name__}: {exc}",
                    file=sys.stderr,
                )
                continue
            if replaced is not None:
                output = replaced
        return output

    def hidden_tools(self, runtime: Runtime) -> set[str]:
        """Ids of the tools some plugin hides from the catalog.

        Each implementation is asked on its own; one that raises is reported on stderr and
        hides nothing (hiding is cosmetic: the gates still judge every call).
        """
        hidden = set()
        impls = _impls(self._pm.hook.tooldeck_tool_hidden)
        for tool_id, tool in runtime.tools.items():
            args = {"tool": tool, "runtime": runtime}
            for impl in impls:
                try:
                    answer = impl.function(*[args[a] for a in impl.argnames])
                except Exception as exc:
                    print(f"tooldeck: plugin {impl.plugin!r} failed to say whether to hide "
                          f"{tool_id!r}: {type(exc).__name__}: {exc}", file=sys.stderr)
                    continue
                if answer is True:
                    hidden.add(tool_id)
                    break
        return hidden

    def audit(self, event: AuditEvent, runtime: Runtime) -> None:
        """Hand ``event`` to every sink; a failing sink is reported on stderr and skipped."""
        args = {"event": event, "runtime": runtime}
        for impl in self._audit:
            try:
                impl.function(*[args[a] for a in impl.argnames])
            except Exception as exc:
                print(
                    f"tooldeck: audit sink {impl.plugin!r} failed: {type(exc).__name__}: {exc}",
                    file=sys.stderr,
                )

    def configure(self, runtime: Runtime) -> None:
        """Run every ``tooldeck_configure``; the first exception propagates."""
        self._pm.hook.tooldeck_configure(runtime=runtime)

    def unconfigure(self, runtime: Runtime) -> None:
        """Run every ``tooldeck_unconfigure``, reporting (not raising) failures."""
        for impl in _impls(self._pm.hook.tooldeck_unconfigure):
            try:
                impl.function(*[{"runtime": runtime}[a] for a in impl.argnames])
            except Exception as exc:
                print(
                    f"tooldeck: plugin {impl.plugin!r} failed to unconfigure: {exc}",
                    file=sys.stderr,
                )


class Runtime:
    """A fully built, immutable set of plugins, tools, executors and gates for one config.

    Plugins reach it as ``runtime`` in hooks and ``ctx.runtime`` in executors.
    """

    def __init__(
        self,
        *,
        settings: Settings,
        pm: pluggy.PluginManager,
        tools: Mapping[str, ToolDef],
        executors: Mapping[str, Executor],
        strategies: Mapping[str, Any],
        plugins: Iterable[PluginInfo],
        warnings: Iterable[str],
    ) -> None:
        self.settings = settings
        self.pm = pm
        self.hooks = Hooks(pm)
        self.tools: Mapping[str, ToolDef] = dict(tools)
        self.executors: Mapping[str, Executor] = dict(executors)
        self.strategies: Mapping[str, Any] = dict(strategies)
        self.plugins: tuple[PluginInfo, ...] = tuple(plugins)
        self.warnings: tuple[str, ...] = (*settings.warnings, *warnings)
        self.watch_paths: set[Path] = set()
        self.policy_files: set[Path] = set()
        self._stash: dict[StashKey[Any], Any] = {}
        self._inflight = 0
        self._idle: asyncio.Event | None = None
        self._closed = False
        self.calls_started = 0

    # -- per-runtime plugin state -------------------------------------------------------

    def stash_set(self, key: StashKey[T], value: T) -> None:
        """Store per-runtime state for a plugin under a typed key."""
        self._stash[key] = value

    def stash_get(self, key: StashKey[T]) -> T:
        """Read state stored with :meth:`stash_set`.

        :raises KeyError: nothing stored under ``key``.
        """
        value: T = self._stash[key]
        return value

    # -- files that feed the policy -------------------------------------------------------

    def add_watch_path(self, path: Path) -> None:
        """Ask the hot-reload watcher to also watch directory ``path`` (e.g. a policy_dir)."""
        self.watch_paths.add(Path(path))

    def add_policy_file(self, path: Path) -> None:
        """Record that ``path`` fed this runtime's policy.

        If it is gone at the next reload, the reload is refused: deleting a policy file must
        never loosen the policy. Restart the deck to drop one deliberately.
        """
        self.policy_files.add(Path(path))

    def digest(self) -> str:
        """sha256 (16 hex digits) of the config text and every recorded policy file."""
        h = hashlib.sha256(self.settings.document.text.encode())
        for path in sorted(self.policy_files):
            h.update(str(path).encode())
            try:
                h.update(path.read_bytes())
            except OSError:
                h.update(b"<missing>")
        return h.hexdigest()[:16]

    # -- in-flight calls -------------------------------------------------------------------

    def enter(self) -> None:
        """Count a call as in flight on this runtime."""
        self._inflight += 1
        self.calls_started += 1

    def leave(self) -> None:
        """Count a call as finished; wakes :meth:`drained` when the last one ends."""
        self._inflight -= 1
        if self._inflight == 0 and self._idle is not None:
            self._idle.set()

    @property
    def inflight(self) -> int:
        """How many calls are running on this runtime now."""
        return self._inflight

    async def drained(self) -> None:
        """Wait until no call is in flight on this runtime."""
        if self._inflight == 0:
            return
        self._idle = asyncio.Event()
        await self._idle.wait()

    async def aclose(self) -> None:
        """Unconfigure plugins and close executors once the runtime is drained; idempotent."""
        if self._closed:
            return
        self._closed = True
        self.hooks.unconfigure(self)
        for executor in self.executors.values():
            closer = getattr(executor, "aclose", None)
            if closer is not None:
                try:
                    await closer()
                except Exception as exc:
                    print(f"tooldeck: executor {executor.name!r} failed to close: {exc}",
                          file=sys.stderr)


# ------------------------------------------------------------------------------ building


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
    for impl in _impls(getattr(pm.hook, hook_name)):
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
) -> Runtime:
    """Build a complete runtime from a configuration document.

    Steps: pick and import plugins; register them on a fresh plugin manager beside the
    essential core plugin; collect settings models and validate every section; collect
    executors, tools, filter strategies and gates (name collisions are errors naming both
    plugins); check each tool's executor exists; run ``tooldeck_configure``.

    :param doc: the configuration.
    :param installed: installed plugins (default: :func:`tooldeck.loader.discover`).
    :param extra_plugins: plugin objects passed in by code (tests, embedding), by name; they
        are enabled unless ``[plugins] disable`` names them.
    :param environ: environment for ``TOOLDECK_*`` overrides (default ``os.environ``).
    :raises ConfigError: the configuration cannot be used; nothing was configured.
    """
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
    pm.register(_DefaultRouting(), name=CORE_PLUGIN)
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
            if "." not in section or not (parent in sections or parent in _SECTION_PARENTS):
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
        doc, sections, installed_plugins=[*installed, *extra], environ=environ
    )

    registries = {
        "tooldeck_register_executors": _Registry("executor"),
        "tooldeck_register_tools": _Registry("tool"),
        "tooldeck_register_filters": _Registry("filter strategy"),
        "tooldeck_register_gates": _Registry("gate"),
    }
    for hook_name, registry in registries.items():
        def make(plugin: str, registry: _Registry = registry) -> Callable[[Any], None]:
            def register(obj: Any) -> None:
                name = obj.id if isinstance(obj, ToolDef) else getattr(obj, "name", None)
                if registry.kind == "tool" and not isinstance(obj, ToolDef):
                    raise PluginError(plugin, f"register() takes a ToolDef, got {obj!r}")
                if registry.kind == "executor" and not isinstance(obj, Executor):
                    raise PluginError(plugin, f"executor {name!r} has no async execute()")
                registry.add(str(name) if name else "", obj, plugin)
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
        if tool.executor not in executors:
            owner = registries["tooldeck_register_tools"].owners[tool_id]
            warnings.append(
                f"tool {tool_id!r} (plugin {owner!r}) is unavailable: no executor "
                f"{tool.executor!r} is registered"
            )
            continue
        tools[tool_id] = tool

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
        plugins=infos,
        warnings=warnings,
    )
    try:
        runtime.hooks.configure(runtime)
    except Exception as exc:
        runtime.hooks.unconfigure(runtime)
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(f"a plugin failed to configure: {type(exc).__name__}: {exc}") from exc
    return runtime


_SECTION_PARENTS = frozenset({"tools", "plugins", "agent"})


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
