"""The deck: the object an agent holds. It runs calls through the pipeline and hot-reloads.

One call, end to end (each step's failure is a classified :class:`~tooldeck.errors.ToolError`)::

    ToolCall ─► a turn a gate ended? (cancelled: see tooldeck.turns)
             ─► shape (tool_not_found / invalid_parameters: see tooldeck.call_shape)
             ─► strip _tafc_think* fields ─► tool lookup (tool_not_found)
             ─► validate params (invalid_parameters / type_mismatch)
             ─► gates: deny > ask > allow, nobody voting = ask (policy_blocked)
             ─► ask? a grant, else the confirmation (confirmation_required / cancelled;
                 with confirm=DEFER a pending approval, see tooldeck.approvals)
             ─► route (tooldeck_select_executor) ─► wrap (tooldeck_wrap_executor)
             ─► probe (tooldeck_probe_call; a deny is policy_blocked, or the category it
                 names) ─► executor ─► ToolOutput
             ─► tooldeck_transform_output, each in turn (filters, redaction)
             ─► audit (written before the result returns) ─► ToolResult

Lifecycle events (:mod:`tooldeck.events`) frame each call: ``in_progress`` as it arrives,
``completed`` or ``failed`` once it is audited.

The runtime is captured once at the start of a call, so a reload in the middle of a call
never mixes two policies. Whatever the model sends, :meth:`Deck.call` returns a result and
writes exactly one audit record: a step that fails unexpectedly ends the call as
``permanent_failure``, and the record is built from a JSON-safe copy of the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import enum
import inspect
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeAlias

import attrs
import pydantic

from tooldeck.approvals import ApprovalError, ApprovalRecord, ApprovalStore, exact_params
from tooldeck.audit import runtime_event, safe_call_event
from tooldeck.build import build_runtime
from tooldeck.call_memo import call_memo
from tooldeck.call_shape import shape_error
from tooldeck.config import ConfigDocument, parse_document
from tooldeck.errors import ConfigError, ErrorCategory, ToolError
from tooldeck.events import (
    CallEvent,
    EventBus,
    EventStream,
    finished_event,
    progress_event,
    started_event,
)
from tooldeck.generation import FileVersion, PolicyReads, read_version
from tooldeck.hot_evolve import evolve
from tooldeck.judge import combine_decisions, tools_disabled
from tooldeck.loader import PluginSpec, discover
from tooldeck.lookup import load_document
from tooldeck.models import Decision, ToolCall, ToolDef, ToolOutput, Verdict
from tooldeck.params_dump import dump_params
from tooldeck.policy_change import PolicyChange, classify
from tooldeck.results import ToolResult
from tooldeck.retry import run_with_retries
from tooldeck.runtime import CallContext, Runtime
from tooldeck.safe_json import safe_repr
from tooldeck.storage_api import StorageError
from tooldeck.trust import PROJECT_ORIGIN, project_document
from tooldeck.turns import TurnContext, in_turn, turn_of
from tooldeck.user_input import USER_URLS, UserUrls, extract_urls

__all__ = ["DEFER", "SETTLE_S", "Approval", "Confirm", "Deck", "Defer", "ToolResult",
           "combine_decisions"]

@attrs.frozen
class Approval:
    """A confirmation that names who approved: ``return Approval(by="alice")``.

    :param by: recorded as ``approved_by`` in the result and the audit record.
    """

    by: str


Confirm = Callable[[ToolCall, Decision], "bool | Approval | Awaitable[bool | Approval]"]
"""A confirmation callback: ``True`` or an :class:`Approval` runs the call, anything else
refuses it (a string such as the user's typed "no" is a refusal, never an approval)."""

class Defer(enum.Enum):
    """The type of :data:`DEFER`."""

    DEFER = "defer"


DEFER = Defer.DEFER
"""``deck.call(call, confirm=DEFER)``: an ``ask`` becomes a pending approval (its id is the
result's ``approval_id``) to approve or deny later, from any process, then
:meth:`Deck.resume`."""


@attrs.frozen
class _Resumed:
    """The confirmation of a resumed approval: it approves that exact call only."""

    record: ApprovalRecord


_Settle: TypeAlias = "Confirm | bool | Defer | _Resumed | ToolError | None"

SETTLE_S = 0.4
"""Default settle interval of the hot-reload rule, in seconds (well above the pauses of
editors and tools that save in place, which are tens of milliseconds)."""

_TAFC_PREFIX = "_tafc_think"
_TYPE_ERRORS = ("_type", "_parsing")
_MAX_PROBLEMS = 10
_MAX_LOC_CHARS = 64


def strip_tafc(params: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """Remove ``_tafc_think*`` keys (any case); say whether the call carried only those."""
    kept = {k: v for k, v in params.items() if not k.lower().startswith(_TAFC_PREFIX)}
    return kept, bool(params) and not kept


def validation_error(tool: ToolDef, exc: pydantic.ValidationError) -> ToolError:
    """Turn a parameter validation failure into ``type_mismatch`` or ``invalid_parameters``.

    It is ``type_mismatch`` when every problem is a value of the wrong type, and
    ``invalid_parameters`` otherwise (missing, unknown or out-of-range parameters).
    """
    problems = exc.errors(include_url=False, include_input=False)
    parts = []
    for err in problems[:_MAX_PROBLEMS]:
        where = ".".join(str(p)[:_MAX_LOC_CHARS] for p in err["loc"]) or "(parameters)"
        parts.append(f"{where}: {err['msg']}")
    if len(problems) > _MAX_PROBLEMS:
        parts.append(f"and {len(problems) - _MAX_PROBLEMS} more problems")
    only_types = all(err["type"].endswith(_TYPE_ERRORS) for err in problems)
    category = ErrorCategory.TYPE_MISMATCH if only_types else ErrorCategory.INVALID_PARAMETERS
    return ToolError(category, f"invalid parameters for {tool.id}: " + "; ".join(parts))


class Deck:
    """The tool layer an agent talks to: a catalog, a call pipeline and a hot-reload loop.

    Build one with :meth:`from_config`; use ``await deck.call(...)`` (or :meth:`call_sync`);
    call :meth:`aclose` when done. A deck is bound to one event loop at a time.
    """

    def __init__(
        self,
        runtime: Runtime,
        *,
        extra_plugins: Mapping[str, object] | None = None,
        environ: Mapping[str, str] | None = None,
        settle_s: float = SETTLE_S,
        settle_wait: Callable[[], Awaitable[None]] | None = None,
        installed: Mapping[str, PluginSpec] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._runtime = runtime
        self._installed = installed
        self._extra = dict(extra_plugins or {})
        self._environ = environ
        self._settle_s = settle_s
        self._settle_wait = settle_wait
        self._reload_lock: asyncio.Lock | None = None
        self._sync_loop: asyncio.AbstractEventLoop | None = None
        self._events = EventBus()
        self._clock = clock
        self._approvals: ApprovalStore | None = None
        self.last_reload_error: str | None = None
        """Why the most recent reload was refused (``None`` after a successful one)."""

    @classmethod
    def from_config(
        cls,
        config: str | Path | ConfigDocument | None = None,
        *,
        extra_plugins: Mapping[str, object] | None = None,
        environ: Mapping[str, str] | None = None,
        settle_s: float = SETTLE_S,
        settle_wait: Callable[[], Awaitable[None]] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> Deck:
        """Build a deck from a config file (or the lookup order, or the embedded default).

        :param config: a path, an already parsed document, or ``None`` for the lookup order.
        :param extra_plugins: plugin objects passed in by code, by name (tests, embedding).
        :param environ: environment for ``TOOLDECK_*`` overrides (default ``os.environ``).
        :param settle_s: how long every file of a reload candidate must stay unchanged before
            a change that is not an atomic tightening is acted on; it must exceed the longest
            pause of any writer that saves in place.
        :param settle_wait: awaited instead of sleeping ``settle_s`` (for tests and embedders
            that drive time themselves).
        :param clock: the time source of approvals and grants (epoch seconds; tests).
        :raises ConfigError: the configuration cannot be used.
        """
        doc = config if isinstance(config, ConfigDocument) else load_document(config)
        installed = discover()  # plugin code is not hot-reloaded: looked up once per deck
        runtime = build_runtime(doc, installed=installed, extra_plugins=extra_plugins,
                                environ=environ)
        return cls(runtime, extra_plugins=extra_plugins, environ=environ, settle_s=settle_s,
                   settle_wait=settle_wait, installed=installed, clock=clock)

    @property
    def runtime(self) -> Runtime:
        """The current runtime (it changes on reload; capture it once per unit of work)."""
        return self._runtime

    @property
    def approvals(self) -> ApprovalStore:
        """The approval store of the current policy (``[tools.approvals]``).

        ``pending()``, ``approve(id, by=..., scope=...)``, ``deny(id, by=...)``; see
        :mod:`tooldeck.approvals`. It is opened anew when a reload changes its settings.
        """
        settings = self._runtime.settings
        config = settings.core.approvals
        path = config.resolved_path(settings.document.directory)
        store = self._approvals
        if (store is None or store.path != path or store.expiry_secs != config.expiry_secs
                or store.grant_ttl_secs != config.grant_ttl_secs):
            if store is not None:
                store.close()
            store = self._approvals = ApprovalStore(
                path, expiry_secs=config.expiry_secs, grant_ttl_secs=config.grant_ttl_secs,
                clock=self._clock)
        return store

    async def resume(self, approval_id: str) -> ToolResult:
        """Run a deferred call once its approval is resolved: at most once, from any process.

        The approval is claimed first (one transaction: a second resume, here or in another
        process, raises). An approved call then goes through the whole pipeline again: a
        policy that now denies it wins; one that still asks is answered by this approval,
        for these exact parameters only. A denied approval ends as ``cancelled``. Either way
        the result carries ``approval_id`` and is audited.

        :raises ApprovalError: malformed or unknown id, still pending, expired, or resumed
            already.
        """
        record = self.approvals.claim(approval_id)
        if record.status == "denied":
            why = f": {record.reason}" if record.reason else ""
            refusal = ToolError(ErrorCategory.CANCELLED,
                                f"{record.tool} was denied by {record.resolved_by}{why}")
            return await self._call(record.call(), refusal, record.id)
        return await self._call(record.call(), _Resumed(record), record.id)

    def tools(self) -> list[ToolDef]:
        """The tools the model may see, in id order, without the ones a gate hides."""
        runtime = self._runtime
        hidden = runtime.hooks.hidden_tools(runtime)
        return [runtime.tools[t] for t in sorted(runtime.tools) if t not in hidden]

    def note_user_message(self, text: str, caller_id: str | None = None) -> None:
        """Hand over a message the user wrote, so gates know what the user asked for.

        The URLs in it are remembered for ``caller_id`` for the life of the deck; URL
        grounding (``[tools.verifiers.url_grounding]``) lets ``fetch`` reach only those. Pass
        the user's own words only, never tool output or model text: that is the point.

        :param text: the user's message.
        :param caller_id: the caller whose calls it grounds (the ``caller_id`` of the calls).
        """
        self._runtime.session.setdefault(USER_URLS, UserUrls).add(extract_urls(text), caller_id)

    @contextlib.contextmanager
    def turn(self, context: TurnContext) -> Iterator[TurnContext]:
        """Run the calls made inside the ``with`` block as part of the user turn ``context``.

        Gates that need the turn (the user's message, the token budget, the calls made so
        far: the ``utility`` gate) read it with :func:`tooldeck.turns.turn_of`. The deck
        counts each call of ``context.caller_id`` made in the block in
        ``context.calls_made``, and refuses them (``cancelled``) once a gate ended the turn.
        :class:`tooldeck.loop.ToolLoop` wraps each run in one. See :mod:`tooldeck.turns`.

        :param context: the turn; keep it for the turn's life and update its
            ``tokens_consumed`` as the conversation grows.
        :returns: ``context``.
        """
        with in_turn(context):
            yield context

    # ------------------------------------------------------------------------ calling

    async def call(self, call: ToolCall, *,
                   confirm: Confirm | bool | Defer | None = None) -> ToolResult:
        """Run one call through the whole pipeline; never raises for bad input or a tool failure.

        Any tool id and any parameters end in a result, and the call is audited exactly once.

        :param call: the call.
        :param confirm: how to settle an ``ask``: a callback (it approves only with ``True``
            or an :class:`Approval`), ``True`` to pre-approve (e.g. ``--yes``), ``None`` to
            fail with ``confirmation_required``, or :data:`DEFER` to fail with
            ``confirmation_required`` and keep a pending approval (``approval_id``). A
            grant (:mod:`tooldeck.approvals`) is consulted first. A ``deny`` is never
            confirmable.
        :returns: the result, already audited.
        """
        return await self._call(call, confirm)

    async def _call(self, call: ToolCall, confirm: _Settle,
                    approval_id: str | None = None) -> ToolResult:
        runtime = self._runtime
        runtime.enter()
        started = time.perf_counter()
        self._emit(runtime, lambda: started_event(call, _tool_of(runtime, call)))
        turn = turn_of(call)
        try:
            if isinstance(confirm, ToolError):  # a denied approval, resumed: nothing runs
                result = ToolResult(call, error=confirm)
            elif turn is not None and turn.ended is not None:
                ended = turn.ended
                result = _fail(call, ErrorCategory.CANCELLED, f"not run: {ended.detail}",
                               Decision(Verdict.DENY, ended.detail, gate=ended.gate,
                                        rule=ended.rule))
            else:
                with call_memo():  # what the call's gates and executor share: see call_memo
                    result = await self._run(runtime, call, confirm)
        except asyncio.CancelledError:
            # the action may have started: it is audited even though no result returns
            cancelled = ToolError(ErrorCategory.CANCELLED, "the call was cancelled")
            self._audit(runtime, ToolResult(call, error=cancelled), started)
            raise
        except Exception as exc:  # a defect somewhere in the pipeline: still one result
            print(f"tooldeck: the pipeline failed on a call to {safe_repr(call.tool_id)}: "
                  f"{type(exc).__name__}: {safe_repr(str(exc), 300)}", file=sys.stderr)
            result = _fail(call, ErrorCategory.PERMANENT_FAILURE,
                           f"tooldeck failed while handling the call ({type(exc).__name__})")
        finally:
            runtime.leave()
            if turn is not None:
                turn.calls_made += 1
        if approval_id is not None:  # a resumed approval: its result names it
            result = attrs.evolve(result, approval_id=approval_id)
        return self._audit(runtime, result, started)

    def _listened(self, runtime: Runtime) -> bool:
        """Whether a stream or a ``tooldeck_call_event`` implementation receives events."""
        return self._events.streaming or runtime.hooks.follows_calls

    def _emit(self, runtime: Runtime, build: Callable[[], CallEvent]) -> None:
        """Publish a lifecycle event; it is not even built when nobody listens."""
        if self._listened(runtime):
            self._events.emit(build, lambda event: runtime.hooks.call_event(event, runtime))

    def _progress(self, runtime: Runtime, call: ToolCall,
                  tool: ToolDef) -> Callable[[str], None] | None:
        """The ``progress`` of a call's context: ``None`` when no hook or stream listens."""
        if not self._listened(runtime):
            return None

        def report(output: str) -> None:
            self._emit(runtime, lambda: progress_event(call, tool, output))

        return report

    def _audit(self, runtime: Runtime, result: ToolResult, started: float) -> ToolResult:
        result = evolve(result, duration_ms=(time.perf_counter() - started) * 1000)
        tool = _tool_of(runtime, result.call)
        event = safe_call_event(result, tool, runtime.settings.core.audit.max_value_chars,
                                policy=runtime.digest())
        runtime.hooks.audit(event, runtime)
        self._emit(runtime, lambda: finished_event(result, tool))
        return result

    def events(self) -> EventStream:
        """The lifecycle events of this deck's calls from now on (see :mod:`tooldeck.events`).

        ``async for event in deck.events(): ...`` — each call yields ``in_progress`` then
        ``completed`` or ``failed``, with one ``call_id``. The stream ends when the deck
        closes or when it is closed (``await stream.aclose()``, or ``async with``).
        """
        return self._events.subscribe()

    def call_sync(self, call: ToolCall, *,
                  confirm: Confirm | bool | Defer | None = None) -> ToolResult:
        """Synchronous :meth:`call` for callers without an event loop.

        All synchronous calls of a deck run on one private event loop, so executors that keep
        loop-bound clients (HTTP connection pools) work across calls. Close it with
        :meth:`close`.

        :raises RuntimeError: called from inside a running event loop (use ``await call``).
        """
        if self._sync_loop is None:
            self._sync_loop = asyncio.new_event_loop()
        return self._sync_loop.run_until_complete(self.call(call, confirm=confirm))

    def close(self) -> None:
        """Synchronous :meth:`aclose`, for decks used through :meth:`call_sync`."""
        loop = self._sync_loop or asyncio.new_event_loop()
        try:
            loop.run_until_complete(self.aclose())
        finally:
            loop.close()
            self._sync_loop = None

    async def _run(
        self, runtime: Runtime, call: ToolCall, confirm: _Settle
    ) -> ToolResult:
        tools_config = runtime.settings.core.tools
        malformed = shape_error(call)
        if malformed is not None:
            return ToolResult(call, error=malformed)
        params, only_think = strip_tafc(call.params)
        if len(params) != len(call.params):
            call = attrs.evolve(call, params=params)
        tool = runtime.tools.get(call.tool_id)
        if tool is None:
            return _fail(call, ErrorCategory.TOOL_NOT_FOUND,
                         f"unknown tool: {safe_repr(call.tool_id)}"
                         f"{_closest_names(call.tool_id, [t.id for t in self.tools()])}")
        if only_think:
            return _fail(
                call, ErrorCategory.INVALID_PARAMETERS,
                "the call carried only _tafc_think reasoning fields; nothing to run",
            )
        try:
            model = tool.params.model_validate(params)
        except pydantic.ValidationError as exc:
            return ToolResult(call, error=validation_error(tool, exc))
        call = evolve(call, params=dump_params(model))

        limit = tools_config.max_tool_calls_per_session
        quota = None if limit is None else runtime.storage.quota()
        votes: list[Decision] = []
        if not tools_config.enabled:
            decision = tools_disabled(runtime)
        elif limit is not None and quota is not None and quota.used(call.caller_id) >= limit:
            decision = _quota_exhausted(limit, call.caller_id,
                                        runtime.settings.origin(_QUOTA_RULE))
        else:
            votes = runtime.hooks.check_call(call, tool, runtime)
            decision = combine_decisions(votes)
        if decision.verdict is Verdict.DENY:
            category = (ErrorCategory.QUOTA_BLOCKED if decision.rule == _QUOTA_RULE
                        else ErrorCategory.POLICY_BLOCKED)
            return _fail(call, category, decision.reason, decision,
                         suggestion=decision.suggestion)

        approved_by: str | None = None
        if decision.verdict is Verdict.ASK:
            asks = [v for v in votes if v.verdict is Verdict.ASK] or [decision]
            approved_by = self._granted(call, asks)
            if approved_by is None and confirm is DEFER:
                return self._defer(call, tool, decision)
            if approved_by is None:
                approved_by, refusal = await _confirm(call, decision, confirm)
                if refusal is not None:
                    return ToolResult(call, error=refusal, decision=decision)

        try:
            executor = runtime.hooks.select_executor(call, tool, runtime)
        except Exception as exc:
            return _fail(call, ErrorCategory.PERMANENT_FAILURE,
                         f"routing {tool.id!r} failed: {type(exc).__name__}: {exc}", decision)
        if executor is None:
            return _fail(call, ErrorCategory.PERMANENT_FAILURE,
                         f"no executor available for tool {tool.id!r}", decision)
        try:
            executor = runtime.hooks.wrap_executor(executor, call, tool, runtime)
        except Exception as exc:
            return _fail(call, ErrorCategory.PERMANENT_FAILURE,
                         f"wrapping the executor of {tool.id!r} failed: "
                         f"{type(exc).__name__}: {exc}", decision)
        if (limit is not None and quota is not None and runtime.hooks.probes_calls
                and quota.used(call.caller_id) >= limit):
            # a probe must not see a call the quota stops (``take`` below checks it anyway:
            # a confirmation may have waited while other calls used up the quota)
            return self._quota_blocked(runtime, call, limit)
        risk = "elevated" if decision.verdict is Verdict.ASK else "low"
        probed = runtime.hooks.probe_call(call, tool, runtime, risk)
        if probed is not None:
            error = ToolError(probed.category or ErrorCategory.POLICY_BLOCKED, probed.reason,
                              suggestion=probed.suggestion)
            return ToolResult(call, error=error, decision=probed, approved_by=approved_by)
        if limit is not None and quota is not None and not quota.take(call.caller_id, limit):
            # counted atomically, for every worker of a shared backend: another worker may
            # have taken the last call since the check above
            return self._quota_blocked(runtime, call, limit)
        ctx = CallContext(tool=tool, params=model, runtime=runtime, decision=decision,
                          approved_by=approved_by, progress=self._progress(runtime, call, tool))

        async def once() -> ToolOutput:
            return await executor.execute(call, ctx)

        try:
            output = await run_with_retries(
                once, runtime.settings.core.retry,
                retryable=getattr(executor, "retryable", False) is True)
        except ToolError as exc:
            return ToolResult(call, error=exc, decision=decision, approved_by=approved_by)
        except Exception as exc:
            print(f"tooldeck: executor {executor.name!r} crashed on {tool.id}: {exc!r}",
                  file=sys.stderr)
            error = ToolError(ErrorCategory.PERMANENT_FAILURE,
                              f"executor {executor.name!r} failed: {type(exc).__name__}: {exc}")
            return ToolResult(call, error=error, decision=decision, approved_by=approved_by)
        if not isinstance(output, ToolOutput):
            error = ToolError(ErrorCategory.PERMANENT_FAILURE,
                              f"executor {executor.name!r} returned {type(output).__name__}, "
                              "not a ToolOutput")
            return ToolResult(call, error=error, decision=decision, approved_by=approved_by)
        if tools_config.summarize_output:
            output = runtime.hooks.transform_output(call, tool, output, runtime)
        return ToolResult(call, output=output, decision=decision, approved_by=approved_by)

    @staticmethod
    def _quota_blocked(runtime: Runtime, call: ToolCall, limit: int) -> ToolResult:
        exhausted = _quota_exhausted(limit, call.caller_id, runtime.settings.origin(_QUOTA_RULE))
        return _fail(call, ErrorCategory.QUOTA_BLOCKED, exhausted.reason, exhausted)

    def _granted(self, call: ToolCall, asks: list[Decision]) -> str | None:
        """The ``approved_by`` of a live grant covering this ``ask``, else ``None``."""
        try:
            grant = self.approvals.find_grant(call, asks)
        except ApprovalError as exc:  # unreadable: no grant, so the call is asked
            print(f"tooldeck: {exc}", file=sys.stderr)
            return None
        return None if grant is None else grant.approved_by

    def _defer(self, call: ToolCall, tool: ToolDef, decision: Decision) -> ToolResult:
        """Keep an ``ask`` as a pending approval; the result says how to resolve it."""
        try:
            approval_id = self.approvals.create(call, tool, decision)
        except (ApprovalError, TypeError, ValueError) as exc:
            return ToolResult(call, decision=decision, error=ToolError(
                ErrorCategory.CONFIRMATION_REQUIRED,
                f"{call.tool_id} requires confirmation: {decision.reason} (it could not be "
                f"kept as an approval: {exc})"))
        return ToolResult(call, decision=decision, approval_id=approval_id, error=ToolError(
            ErrorCategory.CONFIRMATION_REQUIRED,
            f"{call.tool_id} requires confirmation: {decision.reason} (pending approval "
            f"{approval_id})"))

    # ------------------------------------------------------------------------ reloading

    async def reload(self) -> bool:
        """Reload by the hot-reload rule; True when a new runtime is in place.

        The rule (``docs/configuration.md``, "Hot reload"): a zero-byte file is a save in
        progress and nothing is reloaded; a candidate that only tightens, whose changed files
        were all replaced by a rename, is swapped in at once; anything else (a loosening, a
        file written in place, a new file, an invalid or deleted file) is acted on only once
        every file of the candidate is unchanged across the settle interval, re-reading while
        they keep changing. A loosening is audited as ``policy.loosened`` naming what it
        loosens; a refused candidate as ``policy.reload_failed`` (the last good policy stays).
        Swapping: one reference; calls in flight finish on the old runtime, which is then
        unconfigured.
        """
        return await self._reload() is _Outcome.APPLIED

    async def _reload(self) -> _Outcome:
        if self._reload_lock is None:
            self._reload_lock = asyncio.Lock()
        async with self._reload_lock:
            old = self._runtime
            candidate = await self._settled_candidate(old)
            if candidate is None:
                return _Outcome.SKIPPED
            new = candidate.runtime
            if new is None:
                self.last_reload_error = str(candidate.error)
                old.hooks.audit(runtime_event("policy.reload_failed", {
                    "file": old.settings.document.label, "reason": str(candidate.error),
                    "kept_digest": old.digest(),
                }), old)
                return _Outcome.REFUSED
            self._runtime = new
            self.last_reload_error = None
            self._audit_swap(old, new, candidate.change)
            self._announce(old, new)
        await old.drained()
        await old.aclose()
        return _Outcome.APPLIED

    async def _settled_candidate(self, old: Runtime) -> _Candidate | None:
        """The candidate to act on by the reload rule, or ``None`` for a zero-byte file.

        Stable means: every file the candidate was built from reads again, after the settle
        interval, with the same bytes, size, mtime and inode. A policy file that appears
        meanwhile is a change of its own, which the watcher reports next.
        """
        while True:
            candidate = self._candidate(old)
            if candidate.empty:
                await candidate.discard()
                return None
            if candidate.applies_at_once(old):
                return candidate
            try:
                await self._wait_settle()
            except BaseException:
                await candidate.discard()
                raise
            if candidate.still_on_disk():
                return candidate
            await candidate.discard()

    @staticmethod
    def _announce(old: Runtime, new: Runtime) -> None:
        """Tell the fleet a new generation is in place (see :meth:`follow_fleet`)."""
        digest = new.digest()
        if digest == old.digest():
            return
        try:
            new.storage.publish(POLICY_CHANNEL, digest)
        except StorageError as exc:  # the others still reload on their own file events
            print(f"tooldeck: could not announce policy {digest} to the fleet: {exc}",
                  file=sys.stderr)

    @staticmethod
    def _audit_swap(old: Runtime, new: Runtime, change: PolicyChange) -> None:
        fields: dict[str, Any] = {
            "file": new.settings.document.label, "old_digest": old.digest(),
            "new_digest": new.digest(), "changed": [str(p) for p in change.changed],
        }
        if change.tightens:
            fields["change"] = "tighten" if change.changed else "none"
            new.hooks.audit(runtime_event("policy.reloaded", fields), new)
        else:
            fields["loosened"] = list(change.loosened)
            new.hooks.audit(runtime_event("policy.loosened", fields), new)

    async def _wait_settle(self) -> None:
        if self._settle_wait is not None:
            await self._settle_wait()
        else:
            await asyncio.sleep(self._settle_s)

    def _candidate(self, old: Runtime) -> _Candidate:
        """Read one complete generation and build a runtime from it, aside."""
        reads = PolicyReads()
        doc = old.settings.document
        missing = []
        try:
            for path in sorted(old.policy_files):
                version = read_version(path, old.settings.files.read(path).kind)
                if version.data is None:
                    reads.add(version)
                    missing.append(str(path))
            if doc.path is not None:
                version = read_version(doc.path, "config")
                reads.add(version)
                if version.data is None:
                    missing.insert(0, str(doc.path))
                elif version.empty:
                    return _Candidate(reads, empty=True)
                else:
                    doc = _parse_config(version, doc.origin)
            if missing:
                raise ConfigError(
                    f"policy file deleted: {', '.join(missing)}; keeping the last good policy "
                    "(a deleted file never loosens policy; restart to drop it)"
                )
            new = build_runtime(doc, installed=self._installed, extra_plugins=self._extra,
                                environ=self._environ, session=old.session, reads=reads)
        except (ConfigError, OSError) as exc:
            error = (exc if isinstance(exc, ConfigError)
                     else ConfigError(f"cannot read a policy file: {exc}"))
            empty = any(v.empty for v in reads.versions.values())
            return _Candidate(reads, error=error, empty=empty)
        change = classify(old.settings.files.versions, reads.versions)
        empty = any(v.empty for v in reads.versions.values())
        return _Candidate(reads, runtime=new, change=change, empty=empty)

    def watched_dirs(self) -> list[Path]:
        """Directories whose changes trigger a reload: the config's and the plugins' own."""
        runtime = self._runtime
        dirs = {p.parent for p in runtime.policy_files} | set(runtime.watch_paths)
        if runtime.settings.document.path is not None:
            dirs.add(runtime.settings.document.path.parent)
        return sorted(d.resolve() for d in dirs if d.is_dir())

    async def watch(self, *, on_reload: Callable[[bool], None] | None = None,
                    debounce_ms: int = 50) -> None:
        """Reload whenever a watched directory changes; runs until cancelled.

        Editors save by writing a temporary file and renaming it over the original, so the
        directory is watched, not the file. Only changes to ``.toml`` files count, and
        changes to any file in a directory a plugin asked to watch with ``any_file=True``
        (skills folders).

        :param on_reload: called with the outcome of each reload that applied (``True``) or
            refused (``False``) a candidate; not for a zero-byte file (a save in progress).
        :param debounce_ms: how long to gather a burst of file events into one reload.
        """
        from tooldeck.reload import watch_directories

        def any_file_in() -> set[Path]:
            return {p.resolve() for p in self._runtime.watch_any_file}

        follow = asyncio.ensure_future(self.follow_fleet(on_reload=on_reload))
        try:
            async for _changes in watch_directories(self.watched_dirs, debounce_ms=debounce_ms,
                                                    any_file_in=any_file_in):
                outcome = await self._reload()
                if on_reload is not None and outcome is not _Outcome.SKIPPED:
                    on_reload(outcome is _Outcome.APPLIED)
        finally:
            follow.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follow

    async def follow_fleet(self, *,
                           on_reload: Callable[[bool], None] | None = None) -> None:
        """Reload whenever another worker of the fleet announces a new policy; until cancelled.

        With a shared storage backend (``[storage] url``), a worker whose reload applies a new
        generation publishes its digest on the channel ``policy``; every other worker of the
        namespace that runs a different generation then reloads from its own configuration
        files, by the same rule as :meth:`reload` (tighten-only at once, last good kept), so a
        fleet whose workers share one configuration directory follows a change even where
        the file system reports no events (network file systems). :meth:`watch` runs this
        too. With the embedded backend nothing is ever announced.

        :param on_reload: as for :meth:`watch`.
        """
        loop = asyncio.get_running_loop()
        announced = asyncio.Event()

        def heard(digest: str) -> None:  # on the backend's thread
            if digest != self._runtime.digest():
                loop.call_soon_threadsafe(announced.set)

        stop = self._runtime.storage.subscribe(POLICY_CHANNEL, heard)
        try:
            while True:
                await announced.wait()
                announced.clear()
                outcome = await self._reload()
                if on_reload is not None and outcome is not _Outcome.SKIPPED:
                    on_reload(outcome is _Outcome.APPLIED)
        finally:
            stop()

    async def aclose(self) -> None:
        """Wait for calls in flight, unconfigure the runtime, close the session state and store."""
        await self._runtime.drained()
        await self._runtime.aclose()
        storage = self._runtime.storage  # closed last: the session's values use it
        await self._runtime.session.aclose()
        storage.close()
        if self._approvals is not None:
            self._approvals.close()
        self._events.close()


class _Outcome(enum.Enum):
    APPLIED = "applied"
    REFUSED = "refused"
    SKIPPED = "skipped"


@attrs.define
class _Candidate:
    """One reload candidate: the generation read, and the runtime built from it (or why not)."""

    reads: PolicyReads
    runtime: Runtime | None = None
    error: ConfigError | None = None
    change: PolicyChange = attrs.field(factory=lambda: PolicyChange((), ()))
    empty: bool = False

    def still_on_disk(self) -> bool:
        """Read again identically: every file is still this version, byte for byte."""
        return all(v.on_disk_still() for v in self.reads.versions.values())

    def applies_at_once(self, old: Runtime) -> bool:
        """A tightening whose changed files were all replaced by a rename (a new inode)."""
        if self.runtime is None or not self.change.tightens:
            return False
        before, after = old.settings.files.versions, self.reads.versions
        for path in self.change.changed:
            was, now = before.get(path), after.get(path)
            if was is None or was.data is None or now is None or now.data is None:
                return False
            if now.inode == (0, 0) or now.inode == was.inode:
                return False
        return self.still_on_disk()

    async def discard(self) -> None:
        """Unconfigure the runtime built aside, if any."""
        if self.runtime is not None:
            await self.runtime.aclose()


def _parse_config(version: FileVersion, origin: str) -> ConfigDocument:
    assert version.data is not None
    try:
        text = version.data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{version.path}: not UTF-8 text", path=str(version.path)) from None
    doc = parse_document(text, version.path, origin)
    if origin.startswith(PROJECT_ORIGIN):  # an untrusted project file stays tighten-only
        doc = project_document(attrs.evolve(doc, origin=PROJECT_ORIGIN))
    return doc


_QUOTA_RULE = "tools.max_tool_calls_per_session"
POLICY_CHANNEL = "policy"
"""The storage channel on which workers announce the digest of a policy they reloaded."""


def _quota_exhausted(limit: int, caller_id: str | None, source: str) -> Decision:
    whose = f" of caller {caller_id!r}" if caller_id else ""
    return Decision(Verdict.DENY,
                    f"tool call quota{whose} exhausted (max_tool_calls_per_session={limit})",
                    gate="core", rule=_QUOTA_RULE, source=source)


def _tool_of(runtime: Runtime, call: ToolCall) -> ToolDef | None:
    """The definition of the called tool, when the call names one of the runtime's."""
    return runtime.tools.get(call.tool_id) if isinstance(call.tool_id, str) else None


def _closest_names(tool_id: object, known: list[str]) -> str:
    """``; did you mean 'bash'?`` for a name the model got wrong, else ``""``."""
    if not isinstance(tool_id, str) or not known:
        return ""
    by_lower = {name.lower(): name for name in known}
    if tool_id.lower() in by_lower:
        return f"; did you mean {by_lower[tool_id.lower()]!r}? (tool names are case-sensitive)"
    close = difflib.get_close_matches(tool_id.lower()[:100], list(by_lower), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + " or ".join(repr(by_lower[name]) for name in close) + "?"


def _fail(call: ToolCall, category: ErrorCategory, message: str,
          decision: Decision | None = None, *, suggestion: str | None = None) -> ToolResult:
    return ToolResult(call, error=ToolError(category, message, suggestion=suggestion),
                      decision=decision)


async def _confirm(
    call: ToolCall, decision: Decision, confirm: _Settle
) -> tuple[str | None, ToolError | None]:
    """Settle an ``ask``: returns ``(approved_by, None)`` or ``(None, error)``."""
    if confirm is True:
        return "pre-approved", None
    if isinstance(confirm, _Resumed):
        record = confirm.record
        if (call.tool_id, call.caller_id) != (record.tool, record.caller_id) or \
                exact_params(call.params) != exact_params(record.params):
            return None, ToolError(
                ErrorCategory.CONFIRMATION_REQUIRED,
                f"{call.tool_id} requires confirmation: approval {record.id} was for a "
                "different input")
        return f"approval:{record.id} ({record.resolved_by})", None
    if confirm is None or confirm is False or confirm is DEFER or isinstance(confirm, ToolError):
        return None, ToolError(
            ErrorCategory.CONFIRMATION_REQUIRED,
            f"{call.tool_id} requires confirmation: {decision.reason}",
        )
    try:
        answer = confirm(call, decision)
        if inspect.isawaitable(answer):
            answer = await answer
    except Exception as exc:  # no answer is a refusal, never an approval
        return None, ToolError(
            ErrorCategory.CONFIRMATION_REQUIRED,
            f"{call.tool_id} requires confirmation and asking failed: "
            f"{type(exc).__name__}: {exc}",
        )
    if answer is True:
        return "user", None
    if isinstance(answer, Approval) and answer.by:
        return answer.by, None
    if answer is False:
        return None, ToolError(ErrorCategory.CANCELLED,
                               f"{call.tool_id} was declined by the user")
    return None, ToolError(
        ErrorCategory.CONFIRMATION_REQUIRED,
        f"{call.tool_id} requires confirmation: the callback answered {answer!r}; only True or "
        "Approval(by=...) approves",
    )
