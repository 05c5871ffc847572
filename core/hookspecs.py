"""Hook specifications: the whole contract between the tooldeck core and its plugins.

Every hook is named ``tooldeck_<what>``. Registration hooks receive a ``register`` callback
(so the host can grow keyword arguments without changing the spec) and the validated
``settings``; they run once per runtime, i.e. at start-up and again on every reload.
``tooldeck_select_executor``, ``tooldeck_wrap_executor`` and ``tooldeck_check_call`` run on
every call; keep them cheap.

A plugin implements any subset, with any subset of the arguments::

    from tooldeck import hookimpl

    @hookimpl
    def tooldeck_register_tools(register):
        register(ToolDef(id="hello", description="Say hello", params=HelloParams,
                         executor="hello"))

docs/hooks.md describes each hook with examples; a test keeps it in step with this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookspec

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from tooldeck.config import Settings, StorageConfig
    from tooldeck.context_compression import Summarize
    from tooldeck.events import CallEvent
    from tooldeck.models import AuditEvent, Decision, ToolCall, ToolDef, ToolOutput
    from tooldeck.runtime import Executor, Runtime
    from tooldeck.schema_filter import Embed
    from tooldeck.storage_api import Storage
    from tooldeck.trust_levels import TrustLevel


@hookspec
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Declare the configuration sections this plugin owns.

    Call ``register(section, model)`` once per section: ``section`` is the dotted TOML table
    name (``"tools.shell"``; third-party plugins use ``"plugins.<name>"``) and ``model`` a
    pydantic model class that validates it (use ``extra="forbid"`` so typos are rejected).
    Two plugins registering the same section is an error naming both. Runs before every other
    registration hook; the validated instances reach them through ``settings``.

    :param register: ``register(section: str, model: type[pydantic.BaseModel]) -> None``.
    """


@hookspec
def tooldeck_register_tools(register: Callable[..., None], settings: Settings) -> None:
    """Add tool definitions to the catalog.

    Call ``register(tool)`` with a :class:`~tooldeck.models.ToolDef` for each tool. A tool id
    registered twice is an error naming both plugins. The tool's ``executor`` must name an
    executor registered by some enabled plugin. ``register(tool, available=False)`` declares a
    tool the current settings do not offer: it stays out of the catalog, but configuration may
    name it (``[tools.permissions.<id>]``).

    :param register: ``register(tool: ToolDef, *, available: bool = True) -> None``.
    :param settings: validated configuration; ``settings.get(Model)`` returns a section.
    """


@hookspec
def tooldeck_register_executors(register: Callable[..., None], settings: Settings) -> None:
    """Add executors: the objects that actually run tools.

    Call ``register(executor)`` with an object that has a ``name`` attribute and an
    ``async execute(call, ctx) -> ToolOutput`` method (see :class:`tooldeck.runtime.Executor`);
    it raises :class:`~tooldeck.errors.ToolError` to fail. Build it from ``settings``: a
    reload builds a new one. An executor may also define ``async aclose()``, awaited when its
    runtime is retired.

    :param register: ``register(executor: Executor) -> None``.
    :param settings: validated configuration.
    """


@hookspec
def tooldeck_register_filters(register: Callable[..., None], settings: Settings) -> None:
    """Add output-filter strategy types (``strip_noise``, ``truncate``, … or your own).

    Call ``register(strategy)`` with an object that has a ``name`` attribute; filter rules in
    TOML refer to it by that name in ``strategy.type``. A name registered twice is an error
    naming both plugins.

    :param register: ``register(strategy) -> None``.
    :param settings: validated configuration.
    """


@hookspec
def tooldeck_register_gates(register: Callable[..., None], settings: Settings) -> None:
    """Add policy gates built from configuration.

    Call ``register(gate)`` with an object that has a ``name`` attribute and implements
    :func:`tooldeck_check_call` (decorated with ``@hookimpl``); it joins the runtime's plugin
    manager as ``"<plugin>.<gate.name>"`` and votes on every call. Raise
    :class:`~tooldeck.errors.ConfigError` for a policy that does not validate (including
    inline rule examples that fail): the runtime is then rejected and, on reload, the last
    good one stays. A plugin that registers gates must also list itself in the entry-point
    group ``tooldeck.gates`` so that an import failure can fail closed.

    :param register: ``register(gate) -> None``.
    :param settings: validated configuration.
    """


@hookspec(firstresult=True)
def tooldeck_select_executor(call: ToolCall, tool: ToolDef, runtime: Runtime) -> Executor | None:
    """Choose the executor for a call; stops at the first non-``None`` result.

    The core's default implementation runs ``trylast`` and returns the executor named by
    ``tool.executor``. Implement this (synchronously: a coroutine is never ``None`` and would
    always win) to route calls elsewhere, e.g. to a remote sandbox.

    :param call: the call, with TAFC fields already stripped.
    :param tool: the definition of the called tool.
    :param runtime: the runtime the call runs on.
    :returns: an executor, or ``None`` to let the next implementation decide.
    """


@hookspec
def tooldeck_wrap_executor(
    executor: Executor, call: ToolCall, tool: ToolDef, runtime: Runtime
) -> Executor | None:
    """Wrap the executor chosen for a call (a result cache, a tracer); each in turn.

    Runs after the gates let the call through and :func:`tooldeck_select_executor` chose
    ``executor``, so a wrapper never sees a call the policy refused. Implementations run one
    after another, each receiving what the previous one returned. A wrapper should keep the
    wrapped executor's ``name`` and ``retryable``. An implementation that raises fails the
    call (``permanent_failure``): a wrapper may be what keeps it safe. Keep it cheap and
    synchronous: it runs on every call.

    :param executor: the executor chosen so far.
    :param call: the call, parameters validated, TAFC fields stripped.
    :param tool: the definition of the called tool.
    :param runtime: the runtime the call runs on.
    :returns: a replacement executor, or ``None`` to keep ``executor``.
    """


@hookspec
def tooldeck_check_call(call: ToolCall, tool: ToolDef, runtime: Runtime) -> Decision | None:
    """Vote on a call before it runs; every implementation is asked.

    Votes combine as deny > ask > allow; when nobody votes, the call is asked about (fail
    closed). A gate that raises counts as a deny naming the gate. Confirmation by the user
    turns an ``ask`` into a run; it never overrides a ``deny``.

    A gate that needs the user turn around the call (the user's message, the token budget,
    the calls made so far) reads it with :func:`tooldeck.turns.turn_of`: ``None`` when the
    call was made outside a turn (:meth:`tooldeck.deck.Deck.turn`).

    :param call: the call with validated parameters (``call.params``), TAFC fields stripped.
    :param tool: the definition of the called tool.
    :param runtime: the runtime the call runs on.
    :returns: a :class:`~tooldeck.models.Decision`, or ``None`` to abstain.
    """


@hookspec
def tooldeck_probe_call(call: ToolCall, turn: int | None, risk: str, tool: ToolDef,
                        runtime: Runtime) -> Decision | None:
    """Look at a call one last time, just before its executor runs, and allow, skip or deny.

    Runs after the gates voted and any ``ask`` was confirmed, so a probe sees only calls that
    are about to run (a shadow run in a sandbox, a dry-run comparison, a last check that
    needs what the gates decided). Every implementation is asked, in turn; the first deny
    stops the call: it ends as a ``policy_blocked`` tool error with the decision's reason
    (or as the decision's ``category``: a probe that skips a call rather than forbidding it
    says ``cancelled``; its ``suggestion`` tells the model what to do instead), and the
    executor never starts (nor does the call count against the quota). An
    implementation that raises, returns an ``ask`` (nobody is left to ask) or anything but a
    :class:`~tooldeck.models.Decision` denies, naming itself (fail closed). A plugin that
    implements this hook can stop calls, so it is a gate: list it in the entry-point group
    ``tooldeck.gates``, so that it failing to load refuses the configuration. The user turn
    around the call, when the host handed one over, is :func:`tooldeck.turns.turn_of`.

    :param call: the call, parameters validated.
    :param turn: the agent turn of the call (``call.turn``), ``None`` when unknown.
    :param risk: ``"low"`` when the gates allowed the call outright, ``"elevated"`` when it
        runs because someone confirmed an ``ask``.
    :param tool: the called tool's definition.
    :param runtime: the runtime the call runs on.
    :returns: ``Decision(Verdict.DENY, reason)`` to stop the call; an ``allow`` decision or
        ``None`` (skip) to let it run.
    """


@hookspec
def tooldeck_trust_level(call: ToolCall, tool: ToolDef, runtime: Runtime) -> TrustLevel | None:
    """Say how far a call is trusted, from its tool's source or its caller.

    Every implementation is asked; the answers combine to the most severe
    (:func:`tooldeck.trust_levels.most_severe`), and a call nobody answers for is ``trusted``.
    Gates read the combined level through :meth:`tooldeck.runtime.Runtime.trust_level`
    rather than calling this hook themselves. An implementation that raises makes the call
    ``blocked`` (fail closed). Runs on every call that a gate asks about: keep it cheap.

    :param call: the call (its ``caller_id`` names the caller).
    :param tool: the called tool's definition.
    :param runtime: the runtime the call runs on.
    :returns: a :class:`~tooldeck.trust_levels.TrustLevel`, or ``None`` to abstain.
    """


@hookspec
def tooldeck_transform_output(
    call: ToolCall, tool: ToolDef, output: ToolOutput, runtime: Runtime
) -> ToolOutput | None:
    """Rewrite a successful tool output before the model sees it (filtering, redaction…).

    Implementations run one after another, each receiving the output the previous one
    returned, so transformations compose. Keep the raw text retrievable (e.g. in
    ``raw_response``). Skipped entirely when ``[tools] summarize_output = false``. An
    implementation that raises is reported on stderr and skipped: the output is passed on
    rather than lost, with its secrets redacted by the core (the failing implementation may
    have been the one meant to redact them).

    :param call: the call that produced the output.
    :param tool: the tool's definition.
    :param output: the output so far.
    :param runtime: the runtime the call runs on.
    :returns: a replacement :class:`~tooldeck.models.ToolOutput`, or ``None`` to keep it.
    """


@hookspec
def tooldeck_tool_hidden(tool: ToolDef, runtime: Runtime) -> bool | None:
    """Say whether a tool should be left out of the catalog the model sees.

    A gate whose rules deny every use of a tool returns ``True`` so the model is not offered
    a tool it can never call. Hiding is cosmetic: calls to a hidden tool still go through
    every gate.

    :param tool: a registered tool.
    :param runtime: the current runtime.
    :returns: ``True`` to hide the tool; ``False`` or ``None`` to leave the decision to others.
    """


@hookspec
def tooldeck_audit(event: AuditEvent, runtime: Runtime) -> None:
    """Record an audit event; called for every finished call and every runtime event.

    Called before the call's result is returned. Each sink is isolated: one that raises is
    reported on stderr and never fails the call or the other sinks.

    :param event: the event; its ``fields`` are already redacted.
    :param runtime: the runtime that emits it (per-runtime sink state lives in its stash).
    """


@hookspec
def tooldeck_call_event(event: CallEvent, runtime: Runtime) -> None:
    """Follow calls as they happen: ``in_progress``, then ``completed`` or ``failed``.

    Every call produces an ``in_progress`` event when the deck receives it (before any
    gate) and a terminal one after its audit record is written, with the same
    ``event.call_id``; a tool that streams (``bash``) adds ``in_progress`` events between
    them whose ``output`` holds the lines produced since the previous one. Titles, contents
    and outputs are redacted display texts (see :mod:`tooldeck.events`). Called on the
    event loop of the call: keep it quick and do not block. Each implementation is
    isolated: one that raises is reported on stderr and never fails the call or the others.

    :param event: the :class:`~tooldeck.events.CallEvent`.
    :param runtime: the runtime the call runs on.
    """


@hookspec(firstresult=True)
def tooldeck_embedder(runtime: Runtime) -> Embed | None:
    """Supply the embedder the schema filter ranks tools with, and ``memory_search`` notes.

    The first implementation that returns one wins; with none, the built-in lexical index
    is used. An embedder is ``async embed(texts) -> vectors`` (one list of floats per text).
    Called before each filtered request: return the same object for a runtime (keep it in
    the stash) so the tools' vectors are computed once. An implementation that raises, or
    returns something that is not callable, is reported on stderr and skipped.

    :param runtime: the current runtime.
    :returns: an embedder, or ``None`` to let the next implementation decide.
    """


@hookspec(firstresult=True)
def tooldeck_summarizer(runtime: Runtime) -> Summarize | None:
    """Supply the summariser ``compress_context`` writes its summaries with.

    The first implementation that returns one wins; with none, ``compress_context`` is
    hidden from the model. A summariser is ``async summarize(text, instructions) -> str``;
    it raises to fail (the history then stays whole). It is given no tools, so a summary can
    never call ``compress_context``. Return the same object for a runtime (keep it in the
    stash). An implementation that raises, or returns something that is not callable, is
    reported on stderr and skipped.

    :param runtime: the current runtime.
    :returns: a summariser, or ``None`` to let the next implementation decide.
    """


@hookspec(firstresult=True)
def tooldeck_open_storage(config: StorageConfig, environ: Mapping[str, str]) -> Storage | None:
    """Open the storage backend ``[storage] url`` names, for a deck that starts.

    Asked once per deck, only when ``[storage] url`` is set; stops at the first non-``None``
    result. Return ``None`` for a URL scheme the plugin does not serve. Nobody answering is
    a configuration error (never a silent fallback to the embedded backend), and so is an
    implementation that raises :class:`~tooldeck.storage_api.StorageError` or ``OSError``
    (an unreachable server, a failed migration): connect and check before returning. The
    backend is closed with the deck (``Storage.close``).

    :param config: the validated ``[storage]`` table.
    :param environ: the environment (read the password from ``config.password_env`` here).
    :returns: a :class:`~tooldeck.storage_api.Storage`, or ``None`` to let the next decide.
    """


@hookspec
def tooldeck_configure(runtime: Runtime) -> None:
    """Open resources for a new runtime, after all registration hooks ran.

    Raising rejects the runtime: at start-up the configuration is refused, on reload the last
    good runtime stays in place.

    :param runtime: the runtime being built.
    """


@hookspec
def tooldeck_unconfigure(runtime: Runtime) -> None:
    """Close what :func:`tooldeck_configure` opened, once the runtime's in-flight calls ended.

    :param runtime: the runtime being retired.
    """


def hook_names() -> list[str]:
    """Names of every hook specification in this module, in definition order."""
    return [name for name in globals() if name.startswith("tooldeck_")]


def hook_signature(name: str) -> list[str]:
    """The argument names of hook ``name``, in order."""
    func: Any = globals()[name]
    code = func.__code__
    return list(code.co_varnames[: code.co_argcount])
