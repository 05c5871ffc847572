"""A runtime: one immutable snapshot of configuration, plugins, tools, executors and gates.

A :class:`Runtime` is built from a configuration document in full before anything uses it
(:func:`tooldeck.build.build_runtime`); a hot reload builds a new one aside and swaps it in.
Each call captures one runtime for its whole life, and a retired runtime is unconfigured only
once its in-flight calls have ended.
"""

from __future__ import annotations

import asyncio
import operator
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, runtime_checkable

import attrs
import pluggy
from pydantic import BaseModel

from tooldeck import hookimpl
from tooldeck.config import Settings, StorageConfig
from tooldeck.loader import BUILTIN_DIST
from tooldeck.models import AuditEvent, Decision, ToolCall, ToolDef, ToolOutput, Verdict
from tooldeck.secrets import redact
from tooldeck.state import SessionState, StashKey
from tooldeck.trust_levels import TrustLevel, most_severe

if TYPE_CHECKING:
    from tooldeck.context_compression import Summarize
    from tooldeck.events import CallEvent
    from tooldeck.schema_filter import Embed

if TYPE_CHECKING:
    from tooldeck.services import Services
    from tooldeck.storage_api import Storage

__all__ = [
    "CORE_PLUGIN",
    "CallContext",
    "DefaultRouting",
    "Executor",
    "Hooks",
    "PluginInfo",
    "Runtime",
    "SessionState",
    "StashKey",
    "impls",
]

T = TypeVar("T")

CORE_PLUGIN = "core"
"""The essential core plugin's name; it cannot be disabled."""


@runtime_checkable
class Executor(Protocol):
    """Runs tools. Registered through ``tooldeck_register_executors``.

    ``execute`` returns a :class:`~tooldeck.models.ToolOutput` or raises
    :class:`~tooldeck.errors.ToolError`; any other exception is reported as a
    ``permanent_failure`` naming the executor. An executor whose calls may simply be run
    again sets ``retryable = True``: the pipeline then retries its transient failures
    (``[tools.retry]``, :mod:`tooldeck.retry`).
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
    :param progress: ``progress(text)`` publishes output the call produced so far as an
        ``in_progress`` event (redacted there); ``None`` when nobody follows the deck's events,
        so a tool can skip the work of reporting.
    """

    tool: ToolDef
    params: BaseModel
    runtime: Runtime
    decision: Decision
    approved_by: str | None = None
    progress: Callable[[str], None] | None = None


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


class DefaultRouting:
    """Essential core plugin: route a call to the executor its tool names."""

    @hookimpl(trylast=True)
    def tooldeck_select_executor(self, tool: ToolDef, runtime: Runtime) -> Executor | None:
        """The executor ``tool.executor`` names, if it is registered."""
        return runtime.executors.get(tool.executor)


@attrs.frozen
class _Impl:
    plugin: str
    function: Callable[..., Any]
    argnames: tuple[str, ...]
    pick: Callable[[Mapping[str, Any]], tuple[Any, ...]]
    """The implementation's arguments, in its order, out of the hook's arguments by name."""


def _picker(names: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    if len(names) >= 2:  # one C-level lookup of them all: hooks run several times per call
        pick: Callable[[Mapping[str, Any]], tuple[Any, ...]] = operator.itemgetter(*names)
        return pick
    return lambda args: tuple(args[name] for name in names)


def _is_executor(obj: object) -> bool:
    """``isinstance(obj, Executor)``, answered without the protocol machinery when it can be.

    A runtime-checkable protocol's check looks up its members on every call (tens of
    microseconds); an object with a ``name`` and an ``execute`` that is not ``None`` is what
    that check accepts, so only other objects take the slow way.
    """
    if hasattr(obj, "name") and getattr(obj, "execute", None) is not None:
        return True
    return isinstance(obj, Executor)


def impls(hook: Any) -> tuple[_Impl, ...]:
    """The implementations of ``hook`` in the order pluggy calls them, ready to call one by one."""
    # pluggy calls the last registered first; keep that order.
    return tuple(
        _Impl(impl.plugin_name, impl.function, tuple(impl.argnames), _picker(tuple(impl.argnames)))
        for impl in reversed(hook.get_hookimpls())
    )


class Hooks:
    """The typed facade business code uses instead of ``pm.hook``.

    ``check_call``, ``audit`` and ``call_event`` call each implementation on its own so that
    one failing gate or sink cannot hide the others.
    """

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self._pm = pm
        self._check = impls(pm.hook.tooldeck_check_call)
        self._audit = impls(pm.hook.tooldeck_audit)
        self._call_event = impls(pm.hook.tooldeck_call_event)
        self._embedder = impls(pm.hook.tooldeck_embedder)
        self._summarizer = impls(pm.hook.tooldeck_summarizer)
        self._transform = impls(pm.hook.tooldeck_transform_output)
        self._route = impls(pm.hook.tooldeck_select_executor)
        self._trust = impls(pm.hook.tooldeck_trust_level)
        self._wrap = impls(pm.hook.tooldeck_wrap_executor)
        self._probe = impls(pm.hook.tooldeck_probe_call)

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
                vote = impl.function(*impl.pick(args))
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

    @property
    def probes_calls(self) -> bool:
        """Whether any plugin implements ``tooldeck_probe_call``."""
        return bool(self._probe)

    def probe_call(self, call: ToolCall, tool: ToolDef, runtime: Runtime,
                   risk: str) -> Decision | None:
        """The first deny of ``tooldeck_probe_call``, or ``None`` when the call may run.

        An implementation that raises, answers ``ask`` or answers something other than a
        :class:`~tooldeck.models.Decision` or ``None`` denies, naming itself.
        """
        args = {"call": call, "turn": call.turn, "risk": risk, "tool": tool, "runtime": runtime}
        for impl in self._probe:
            try:
                answer = impl.function(*impl.pick(args))
                if answer is None:
                    continue
                if not isinstance(answer, Decision):
                    raise TypeError(f"returned {type(answer).__name__}, not a Decision or None")
                if answer.verdict is Verdict.ASK:
                    raise TypeError("answered ask, but nobody is left to ask")
            except Exception as exc:
                return Decision(Verdict.DENY, f"probe {impl.plugin!r} failed: "
                                f"{type(exc).__name__}: {exc}", gate=impl.plugin)
            if answer.verdict is Verdict.DENY:
                return answer if answer.gate else attrs.evolve(answer, gate=impl.plugin)
        return None

    def trust_level(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> TrustLevel:
        """The most severe answer of ``tooldeck_trust_level``; ``trusted`` when none answers.

        An implementation that raises, or answers something other than a
        :class:`~tooldeck.trust_levels.TrustLevel`, makes the call ``blocked``.
        """
        args = {"call": call, "tool": tool, "runtime": runtime}
        answers: list[TrustLevel] = []
        for impl in self._trust:
            try:
                level = impl.function(*impl.pick(args))
            except Exception:
                return TrustLevel.BLOCKED
            if level is None:
                continue
            if not isinstance(level, TrustLevel):
                return TrustLevel.BLOCKED
            answers.append(level)
        return most_severe(answers)

    def select_executor(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> Executor | None:
        """The first non-``None`` executor chosen by ``tooldeck_select_executor``.

        The routers are called one by one in pluggy's order (firstresult semantics) rather
        than through pluggy's generic loop: this runs on every call.
        """
        args = {"call": call, "tool": tool, "runtime": runtime}
        for impl in self._route:
            chosen: Executor | None = impl.function(*impl.pick(args))
            if chosen is not None:
                return chosen
        return None

    def wrap_executor(
        self, executor: Executor, call: ToolCall, tool: ToolDef, runtime: Runtime
    ) -> Executor:
        """Pass the chosen executor through every ``tooldeck_wrap_executor`` in turn.

        An implementation that raises propagates: the pipeline fails the call.
        """
        for impl in self._wrap:
            args = {"executor": executor, "call": call, "tool": tool, "runtime": runtime}
            wrapped = impl.function(*impl.pick(args))
            if wrapped is None:
                continue
            if not _is_executor(wrapped):
                raise TypeError(f"plugin {impl.plugin!r} wrapped the executor in "
                                f"{type(wrapped).__name__}, which has no async execute()")
            executor = wrapped
        return executor

    def transform_output(
        self, call: ToolCall, tool: ToolDef, output: ToolOutput, runtime: Runtime
    ) -> ToolOutput:
        """Pass ``output`` through every ``tooldeck_transform_output`` in turn.

        A transformer that fails is skipped and the output kept, with its secrets redacted by
        the core: the failing transformer may have been the one meant to redact them.
        """
        for impl in self._transform:
            args = {"call": call, "tool": tool, "output": output, "runtime": runtime}
            try:
                replaced = impl.function(*impl.pick(args))
                if replaced is not None and not isinstance(replaced, ToolOutput):
                    raise TypeError(f"returned {type(replaced).__name__}, not a ToolOutput")
            except Exception as exc:
                print(
                    f"tooldeck: output transform {impl.plugin!r} failed, output kept with "
                    f"secrets redacted: {type(exc).__name__}: {exc}",
                    file=sys.stderr,
                )
                output = attrs.evolve(output, summary=redact(output.summary))
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
        deciders = impls(self._pm.hook.tooldeck_tool_hidden)
        for tool_id, tool in runtime.tools.items():
            args = {"tool": tool, "runtime": runtime}
            for impl in deciders:
                try:
                    answer = impl.function(*impl.pick(args))
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
                impl.function(*impl.pick(args))
            except Exception as exc:
                print(
                    f"tooldeck: audit sink {impl.plugin!r} failed: {type(exc).__name__}: {exc}",
                    file=sys.stderr,
                )

    @property
    def follows_calls(self) -> bool:
        """Whether any plugin implements ``tooldeck_call_event``."""
        return bool(self._call_event)

    def call_event(self, event: CallEvent, runtime: Runtime) -> None:
        """Hand ``event`` to every implementation; a failing one is reported and skipped."""
        args = {"event": event, "runtime": runtime}
        for impl in self._call_event:
            try:
                impl.function(*impl.pick(args))
            except Exception as exc:
                print(f"tooldeck: call event hook {impl.plugin!r} failed: "
                      f"{type(exc).__name__}: {exc}", file=sys.stderr)

    def embedder(self, runtime: Runtime) -> Embed | None:
        """The first embedder a ``tooldeck_embedder`` supplies; failing ones are skipped."""
        for impl in self._embedder:
            try:
                embed = impl.function(*[{"runtime": runtime}[a] for a in impl.argnames])
                if embed is not None and not callable(embed):
                    raise TypeError(f"returned {type(embed).__name__}, not a callable")
            except Exception as exc:
                print(f"tooldeck: embedder hook {impl.plugin!r} failed: "
                      f"{type(exc).__name__}: {exc}", file=sys.stderr)
                continue
            if embed is not None:
                return cast("Embed", embed)
        return None

    def summarizer(self, runtime: Runtime) -> Summarize | None:
        """The first summariser a ``tooldeck_summarizer`` supplies; failing ones are skipped."""
        for impl in self._summarizer:
            try:
                summarize = impl.function(*[{"runtime": runtime}[a] for a in impl.argnames])
                if summarize is not None and not callable(summarize):
                    raise TypeError(f"returned {type(summarize).__name__}, not a callable")
            except Exception as exc:
                print(f"tooldeck: summarizer hook {impl.plugin!r} failed: "
                      f"{type(exc).__name__}: {exc}", file=sys.stderr)
                continue
            if summarize is not None:
                return cast("Summarize", summarize)
        return None

    def open_storage(self, config: StorageConfig, environ: Mapping[str, str]) -> Storage | None:
        """The first backend a ``tooldeck_open_storage`` opens; exceptions propagate."""
        for impl in impls(self._pm.hook.tooldeck_open_storage):
            args = {"config": config, "environ": environ}
            storage: Storage | None = impl.function(*[args[a] for a in impl.argnames])
            if storage is not None:
                return storage
        return None

    def configure(self, runtime: Runtime) -> None:
        """Run every ``tooldeck_configure``; the first exception propagates."""
        self._pm.hook.tooldeck_configure(runtime=runtime)

    def unconfigure(self, runtime: Runtime) -> None:
        """Run every ``tooldeck_unconfigure``, reporting (not raising) failures."""
        for impl in impls(self._pm.hook.tooldeck_unconfigure):
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
        session: SessionState | None = None,
        declared_tools: Iterable[str] = (),
        section_owners: Mapping[str, str] | None = None,
        strategy_owners: Mapping[str, str] | None = None,
        tool_owners: Mapping[str, str] | None = None,
    ) -> None:
        self.settings = settings
        self.section_owners: Mapping[str, str] = dict(section_owners or {})
        """The plugin that registered each validated section (``core`` for the core's)."""
        self.pm = pm
        self.hooks = Hooks(pm)
        self.tools: Mapping[str, ToolDef] = dict(tools)
        self.declared_tools: frozenset[str] = frozenset(declared_tools) | frozenset(self.tools)
        """Every tool id a running plugin defines: the catalog's, plus tools registered with
        ``available=False`` or left without an executor (configuration may name them)."""
        self.executors: Mapping[str, Executor] = dict(executors)
        self.strategies: Mapping[str, Any] = dict(strategies)
        self.strategy_owners: Mapping[str, str] = dict(strategy_owners or {})
        """The plugin that registered each of :attr:`strategies`, by name."""
        self.tool_owners: Mapping[str, str] = dict(tool_owners or {})
        """The plugin that registered each tool (offered or declared), by tool id."""
        self._own_plugins: frozenset[str] | None = None
        self.plugins: tuple[PluginInfo, ...] = tuple(plugins)
        self.warnings: tuple[str, ...] = (*settings.warnings, *warnings)
        self.examples_passed: dict[str, int] = {}
        """Inline examples plugins checked while configuring, by kind (``filter rule tests``)."""
        self.watch_paths: set[Path] = set()
        self.watch_any_file: set[Path] = set()
        """Watched directories where a change to any file counts, not only to ``.toml``."""
        self.policy_files: set[Path] = set()
        self._stash: dict[StashKey[Any], Any] = {}
        self.session = session if session is not None else SessionState()
        """State shared with the runtimes built before and after this one by the same deck."""
        self._inflight = 0
        self._idle: asyncio.Event | None = None
        self._closed = False
        self.calls_started = 0
        self._services: Services | None = None
        self._storage: Storage | None = None

    @property
    def services(self) -> Services:
        """The core services plugins use: the path sandbox, redaction, egress, overflow.

        Built from this runtime's settings on first use (:mod:`tooldeck.services`), whether
        or not the built-in plugins that use them are enabled.

        :raises tooldeck.errors.ConfigError: a key a service reads does not validate (the
            build asks for the services first, so a runtime that exists has them).
        """
        if self._services is None:
            from tooldeck.services import Services

            self._services = Services.from_settings(self.settings, self.session)
        return self._services

    @property
    def storage(self) -> Storage:
        """Where the deck's state lives (``[storage]``): see :mod:`tooldeck.storage_api`.

        The deck's one backend, opened by its first runtime and shared by every runtime it
        builds; embedded (files and SQLite) unless ``[storage] url`` names a shared one. The
        session never replaces its backend, so the runtime keeps it once asked (plugins ask
        on every call).
        """
        storage = self._storage
        if storage is None:
            from tooldeck.storage import session_storage

            storage = self._storage = session_storage(self.session)
        return storage

    def trust_level(self, call: ToolCall, tool: ToolDef) -> TrustLevel:
        """How far ``call`` is trusted: see :mod:`tooldeck.trust_levels`."""
        return self.hooks.trust_level(call, tool, self)

    def is_own_tool(self, tool: ToolDef) -> bool:
        """Whether tooldeck itself defines ``tool``.

        True when a plugin of tooldeck's own distribution registered it and it comes from no
        outside source (an MCP server's and a skill's tools do not count). Gates that judge
        tooldeck's own tools with dedicated logic (the shell gate, the path sandbox, the SSRF
        guard) let generic checks skip these.
        """
        if tool.source is not None:
            return False
        if self._own_plugins is None:  # asked on every call by the verifiers: computed once
            self._own_plugins = frozenset(
                info.name for info in self.plugins if info.dist == BUILTIN_DIST)
        return self.tool_owners.get(tool.id) in self._own_plugins

    def count_examples(self, kind: str, count: int) -> None:
        """Record that ``count`` inline examples of ``kind`` passed (``tooldeck policy test``).

        A plugin that checks inline examples of its own rules while configuring (and raises
        :class:`~tooldeck.errors.ConfigError` on the first failing one) reports how many.

        :param kind: what was checked, in words (``filter rule tests``).
        :param count: how many passed.
        """
        self.examples_passed[kind] = self.examples_passed.get(kind, 0) + count

    def warn(self, message: str) -> None:
        """Add a warning for the operator (``tooldeck config check`` prints them)."""
        self.warnings = (*self.warnings, message)

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

    def add_watch_path(self, path: Path, *, any_file: bool = False) -> None:
        """Ask the hot-reload watcher to also watch directory ``path`` (e.g. a policy_dir).

        :param path: the directory (not recursive: its files, and entries made in it).
        :param any_file: a change to any file in it triggers a reload, not only to a
            ``.toml`` file (skills folders hold ``SKILL.md`` files).

        .. versionadded:: 0.1 ``any_file``
        """
        self.watch_paths.add(Path(path))
        if any_file:
            self.watch_any_file.add(Path(path))

    def add_policy_file(self, path: Path) -> None:
        """Record that ``path`` fed this runtime's policy.

        If it is gone at the next reload, the reload is refused: deleting a policy file must
        never loosen the policy. Restart the deck to drop one deliberately.
        """
        self.policy_files.add(Path(path))

    def digest(self) -> str:
        """sha256 (16 hex digits) of the generation this runtime was built from.

        It covers the configuration text and every policy file the build read (plus any file
        recorded with :meth:`add_policy_file`), as they were read, never as they are now.
        """
        return self.settings.files.digest(self.settings.document.text)

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
