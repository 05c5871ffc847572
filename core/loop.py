"""The tool loop: ask the model, run its tool calls through the deck, repeat until it is done.

The model is any async callable ``client(messages, tools) -> response`` returning the
provider's response as a dict (:mod:`tooldeck.model_clients` has small httpx ones); an
:mod:`adapter <tooldeck.adapters>` reads it. No provider SDK is needed.

Each :meth:`ToolLoop.run` is one user turn. Before every request the loop checks the context
budget; after every reply it runs the reply's calls, one after another in the order the model
made them, and checks for a doom loop. It stops for one of the :class:`StopReason` values,
and every stop is audited as a ``loop.stopped`` event through the deck's audit sinks.

=====================  ======================================================================
rule                   behaviour
=====================  ======================================================================
turn, caller           every call carries the loop's caller id and the turn number (one
                       per model response, counting up across runs of the same loop)
user turn              each run is one user turn for the deck's gates: its calls run inside
                       :meth:`Deck.turn <tooldeck.deck.Deck.turn>` with a
                       :class:`~tooldeck.turns.TurnContext` holding the run's user message,
                       the caller, the token budget (``budget_ratio`` of
                       ``context_window``; ``0`` without a window) and the tokens the last
                       request used; when a gate ends the turn, the round's remaining calls
                       are refused by the deck and the run stops with ``turn_ended``
fenced blocks          a reply without structured calls is searched for fenced blocks of
                       the tools that declare one (```` ```bash ````, ```` ```scrape ````;
                       ```` ```bashrc ```` is no bash block); their results go back in one
                       user message
iteration cap          at most ``max_tool_iterations`` rounds of calls per run
                       (``[agent] max_tool_iterations``); the calls of a reply past the cap
                       are answered "not run" so the history stays well-formed, and the loop
                       stops with ``iteration_cap``
doom loop              stop with ``doom_loop`` when ``doom_repeats`` (3) rounds in a row
                       returned identical outputs, or when the same call (tool and
                       parameters) has failed ``doom_repeats`` times in the run
tool selection         with ``[agent.tool_filter] enabled``, each request carries only the
                       tools the schema filter selects for the run's user message
                       (:mod:`tooldeck.schema_filter`), gated and boosted by
                       ``[tools.dependencies]`` when that is enabled
                       (:mod:`tooldeck.dependencies`) against :attr:`ToolLoop.completed`;
                       with ``allowed_tools=True`` and an adapter that can (OpenAI chat and
                       Responses), every request lists every tool and the selection goes in
                       an ``allowed_tools`` ``tool_choice`` instead, so the tool list stays
                       the same from request to request and prompt caching keeps working
context budget         before each request the conversation and tool schemas are measured
                       with ``count_tokens`` (default: characters / 4); at ``budget_ratio``
                       (80 %) of ``context_window`` the ``compress`` callback, if any,
                       rewrites the history; still over, the loop stops with
                       ``context_budget``
compress_context       a reply calling ``compress_context`` may replace the messages before
                       it (not the leading system messages) with a summary appended to the
                       loop's :attr:`~ToolLoop.knowledge` block, which is sent as one user
                       message after the system messages (:mod:`tooldeck.context_compression`)
=====================  ======================================================================
"""

from __future__ import annotations

import enum
import json
import math
import sys
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

import attrs

from tooldeck.adapters import Adapter, AdapterError, ProviderCall
from tooldeck.audit import runtime_event
from tooldeck.context_compression import (
    COMPRESS_CONTEXT,
    CompressionRequest,
    knowledge_text,
    offering,
)
from tooldeck.deck import Confirm, ToolResult
from tooldeck.dependencies import DependencyGraph
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.fenced import fenced_calls
from tooldeck.safe_json import json_safe, safe_repr
from tooldeck.schema_filter import Embed, SchemaFilter
from tooldeck.turns import TurnContext

if TYPE_CHECKING:
    from tooldeck.deck import Deck
    from tooldeck.models import ToolDef
    from tooldeck.runtime import Runtime

__all__ = [
    "BUDGET_RATIO",
    "DOOM_REPEATS",
    "ChoosingModelClient",
    "Compress",
    "LoopOutcome",
    "ModelClient",
    "StopReason",
    "TokenCounter",
    "ToolLoop",
    "estimate_tokens",
]

ModelClient = Callable[[list[dict[str, Any]], list[dict[str, Any]]],
                       Awaitable[Mapping[str, Any]]]
"""``await client(messages, tools)``: one model request, the provider's response as a dict."""


class ChoosingModelClient(Protocol):
    """A model client that also takes the request's ``tool_choice`` (for ``allowed_tools``)."""

    def __call__(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], *,
                 tool_choice: Mapping[str, Any] | None = None
                 ) -> Awaitable[Mapping[str, Any]]:
        """One model request with a ``tool_choice``."""
        ...


TokenCounter = Callable[[str], int]
"""Counts the tokens of a text (the JSON of the conversation and the tool schemas)."""

Compress = Callable[[list[dict[str, Any]]], Awaitable[list[dict[str, Any]]]]
"""``await compress(messages)``: a shorter conversation (summarised, trimmed…)."""

BUDGET_RATIO = 0.8
"""The share of the context window at which the loop compresses or stops."""

DOOM_REPEATS = 3
"""Identical rounds in a row, or failures of one call, that make a doom loop."""


def estimate_tokens(text: str) -> int:
    """The default token counter: one token per four characters, rounded up."""
    return math.ceil(len(text) / 4)


class StopReason(str, enum.Enum):
    """Why a run of the loop ended; the value is what the audit record says."""

    FINISHED = "finished"
    """The model replied without a tool call."""
    ITERATION_CAP = "iteration_cap"
    """The model asked for another round after ``max_tool_iterations`` rounds."""
    DOOM_LOOP = "doom_loop"
    """The same outputs kept coming back, or the same call kept failing."""
    CONTEXT_BUDGET = "context_budget"
    """The conversation reached the budget share of the context window (after compressing)."""
    MODEL_ERROR = "model_error"
    """The client raised, or its response was not of the adapter's format."""
    TURN_ENDED = "turn_ended"
    """A gate ended the user turn (:meth:`tooldeck.turns.TurnContext.end`): the ``utility``
    gate after ``utility_window`` calls in a row it did not let run."""


@attrs.frozen
class LoopOutcome:
    """How a run ended.

    :param reason: why it stopped.
    :param messages: the whole conversation, including the replies and results of this run.
    :param text: the text of the model's last reply.
    :param iterations: rounds of tool calls run.
    :param detail: what the stop was about, in words (empty for ``finished``).
    """

    reason: StopReason
    messages: list[dict[str, Any]]
    text: str
    iterations: int
    detail: str = ""


def _not_run(pc: ProviderCall, why: str) -> ToolResult:
    return ToolResult(pc.call, error=ToolError(ErrorCategory.CANCELLED, f"not run: {why}"))


def _call_key(pc: ProviderCall) -> str:
    """The identity of a call for doom-loop counting: tool and canonical parameters."""
    params = json_safe(pc.call.params, max_chars=4096)
    return json.dumps([safe_repr(pc.call.tool_id), params], sort_keys=True, default=str)


def _last_user_text(history: Sequence[Mapping[str, Any]]) -> str:
    """The text of the latest user message that has text (tool results have none)."""
    for message in reversed(history):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            parts = [part["text"] for part in content if isinstance(part, Mapping)
                     and part.get("type") in ("text", "input_text")
                     and isinstance(part.get("text"), str)]
            if parts:
                return "\n".join(parts)
    return ""


class _DoomWatch:
    """Counts identical rounds in a row and failures of each call."""

    def __init__(self, repeats: int) -> None:
        self._repeats = repeats
        self._last: tuple[tuple[str, str], ...] | None = None
        self._same = 0
        self._failures: Counter[str] = Counter()

    def observe(self, results: Sequence[tuple[ProviderCall, ToolResult]]) -> str | None:
        """Record one round; returns why it is a doom loop, or ``None``."""
        round_ = tuple((safe_repr(pc.call.tool_id), result.text) for pc, result in results)
        self._same = self._same + 1 if round_ == self._last else 1
        self._last = round_
        if self._same >= self._repeats:
            return f"{self._same} rounds in a row returned identical outputs"
        for pc, result in results:
            if result.ok:
                continue
            key = _call_key(pc)
            self._failures[key] += 1
            if self._failures[key] >= self._repeats:
                category = result.error.category.label if result.error else "error"
                return (f"the same call to {safe_repr(pc.call.tool_id)} failed "
                        f"{self._failures[key]} times ({category})")
        return None


class ToolLoop:
    """Drive a model and a deck until the model stops calling tools (or a limit hits).

    :param deck: runs and audits every call.
    :param adapter: the provider format (``adapter_for("openai_chat")``…).
    :param client: the model: ``await client(messages, tools)``.
    :param caller_id: set on every call (audited, and the key of the call quota).
    :param confirm: how calls that a gate asks about are settled (see :meth:`Deck.call`).
    :param max_iterations: rounds of calls per run; default ``[agent] max_tool_iterations``
        of the deck's configuration, read at the start of each run.
    :param context_window: the model's context size in tokens; ``None`` disables the budget.
    :param budget_ratio: the share of the window at which to compress or stop.
    :param count_tokens: the token counter (default :func:`estimate_tokens`).
    :param compress: called with the history when the budget is reached; the loop goes on
        with what it returns if that is under the budget.
    :param doom_repeats: see the table above.
    :param fenced: run fenced blocks found in replies without structured calls; ``False``
        for hosts that want tools called only through the provider's tool-calling API.
    :param embed: the embedder of the schema filter; by default the one a plugin supplies
        (``tooldeck_embedder``), else the lexical index.
    :param allowed_tools: with the schema filter on, send every tool and restrict each turn
        to the selection through the adapter's ``allowed_tools`` ``tool_choice``, so the
        request's tool list never changes (prompt caching); the client must then take a
        ``tool_choice`` keyword (:class:`ChoosingModelClient`, as the clients of
        :mod:`tooldeck.model_clients` do). An adapter without such a mode (Anthropic) sends
        the selection as usual.
    """

    def __init__(
        self,
        deck: Deck,
        adapter: Adapter,
        client: ModelClient,
        *,
        caller_id: str | None = None,
        confirm: Confirm | bool | None = None,
        max_iterations: int | None = None,
        context_window: int | None = None,
        budget_ratio: float = BUDGET_RATIO,
        count_tokens: TokenCounter = estimate_tokens,
        compress: Compress | None = None,
        doom_repeats: int = DOOM_REPEATS,
        fenced: bool = True,
        embed: Embed | None = None,
        allowed_tools: bool = False,
    ) -> None:
        if max_iterations is not None and max_iterations < 1:
            raise ValueError("max_iterations must be at least 1")
        if not 0 < budget_ratio <= 1:
            raise ValueError("budget_ratio must be in (0, 1]")
        if doom_repeats < 2:
            raise ValueError("doom_repeats must be at least 2")
        self.deck = deck
        self.adapter = adapter
        self.client = client
        self.caller_id = caller_id
        self.confirm = confirm
        self.max_iterations = max_iterations
        self.context_window = context_window
        self.budget_ratio = budget_ratio
        self.count_tokens = count_tokens
        self.compress = compress
        self.doom_repeats = doom_repeats
        self.fenced = fenced
        self.embed = embed
        self.allowed_tools = allowed_tools
        self.turn = 0
        """The number of model responses this loop has read (the last call's ``turn``)."""
        self.completed: set[str] = set()
        """Tools that completed successfully in this session, for the dependency graph;
        clear it to start a new session."""
        self.knowledge: list[str] = []
        """The knowledge block: the summaries ``compress_context`` made, oldest first; each
        new one is appended, none is ever replaced."""
        self._filter: SchemaFilter | None = None
        self._graph: DependencyGraph | None = None

    async def _offered(self, runtime: Runtime, query: str) -> list[ToolDef]:
        """The tools to send: all the deck offers, or the schema filter's selection."""
        tools = self.deck.tools()
        config = runtime.settings.core.tool_filter
        if not config.enabled:
            return tools
        embed = self.embed or runtime.hooks.embedder(runtime)
        if (self._filter is None or self._filter.config != config
                or self._filter.embed is not embed):
            self._filter = SchemaFilter(config, embed)
        try:
            result = await self._filter.select(query, tools)
        except Exception as exc:  # filtering only saves tokens: without it, offer everything
            print(f"tooldeck: the schema filter failed, sending every tool: "
                  f"{type(exc).__name__}: {safe_repr(str(exc), 200)}", file=sys.stderr)
            return tools
        dependencies = runtime.settings.core.dependencies
        if dependencies.enabled:
            if self._graph is None or self._graph.config != dependencies:
                self._graph = DependencyGraph(dependencies)
            result = self._graph.apply(result, self.completed, config.always_on)
        by_id = {tool.id: tool for tool in tools}
        return [by_id[tool_id] for tool_id in result.tool_ids]

    def _measure(self, history: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
        text = json.dumps([history, tools], ensure_ascii=False, default=str)
        return self.count_tokens(text)

    def _token_budget(self) -> int:
        """The tokens a run may use before it compresses or stops (``0``: no window)."""
        if self.context_window is None:
            return 0
        return math.ceil(self.context_window * self.budget_ratio)

    async def _within_budget(
        self, history: list[dict[str, Any]], tools: list[dict[str, Any]], turn: TurnContext
    ) -> tuple[list[dict[str, Any]], str | None]:
        """The history to send, and why the budget stops the run (``None``: go on).

        The tokens the request uses are recorded as the turn's ``tokens_consumed``.
        """
        if self.context_window is None:
            return history, None
        limit = self.context_window * self.budget_ratio
        used = turn.tokens_consumed = self._measure(history, tools)
        if used < limit:
            return history, None
        if self.compress is not None:
            history = list(await self.compress(list(history)))
            used = turn.tokens_consumed = self._measure(history, tools)
            if used < limit:
                return history, None
        return history, (f"{used} tokens reach {self.budget_ratio:.0%} of the "
                         f"{self.context_window}-token window")

    async def run(self, messages: Sequence[Mapping[str, Any]]) -> LoopOutcome:
        """Run one user turn, starting from ``messages`` (the conversation so far).

        :param messages: the history, ending with the user's message, in the adapter's format.
        :returns: why the run stopped and the whole conversation; the stop is audited.
        """
        history = [dict(m) for m in messages]
        query = _last_user_text(history)
        turn = TurnContext(user_message=query, caller_id=self.caller_id,
                           token_budget=self._token_budget())
        with self.deck.turn(turn):
            return await self._run_turn(history, query, turn)

    async def _run_turn(self, history: list[dict[str, Any]], query: str,
                        turn: TurnContext) -> LoopOutcome:
        cap = self.max_iterations or self.deck.runtime.settings.core.agent.max_tool_iterations
        watch = _DoomWatch(self.doom_repeats)
        iterations, text = 0, ""
        while True:
            runtime = self.deck.runtime
            tafc = runtime.settings.core.tafc
            offered = await self._offered(runtime, query)
            tools = self.adapter.tool_specs(offered, tafc)
            choice: dict[str, Any] | None = None
            if self.allowed_tools and offered and runtime.settings.core.tool_filter.enabled:
                choice = self.adapter.allowed_tools_choice([tool.id for tool in offered])
                if choice is not None:
                    tools = self.adapter.tool_specs(self.deck.tools(), tafc)
            history, over = await self._within_budget(history, tools, turn)
            if over is not None:
                return self._stop(StopReason.CONTEXT_BUDGET, history, text, iterations, over)
            try:
                if choice is None:
                    response = await self.client(history, tools)
                else:
                    choosing = cast("ChoosingModelClient", self.client)
                    response = await choosing(history, tools, tool_choice=choice)
                self.turn += 1
                reply = self.adapter.parse(response, caller_id=self.caller_id, turn=self.turn)
            except AdapterError as exc:
                return self._stop(StopReason.MODEL_ERROR, history, text, iterations,
                                  f"unreadable response: {exc}")
            except Exception as exc:  # the client's failure ends the run, audited
                return self._stop(StopReason.MODEL_ERROR, history, text, iterations,
                                  f"the model client failed: {type(exc).__name__}: "
                                  f"{safe_repr(str(exc), 300)}")
            reply_start = len(history)
            history.extend(reply.messages)
            text = reply.text
            calls = list(reply.calls)
            fenced = not calls
            if fenced and self.fenced:
                calls = [ProviderCall(c) for c in
                         fenced_calls(text, self.deck.tools(), caller_id=self.caller_id,
                                      turn=self.turn)]
            if not calls:
                return self._stop(StopReason.FINISHED, history, text, iterations, "")
            if iterations >= cap:
                why = f"the tool iteration cap ({cap}) was reached"
                self._answer(history, [(pc, _not_run(pc, why)) for pc in calls], fenced)
                return self._stop(StopReason.ITERATION_CAP, history, text, iterations,
                                  f"{why}; {len(calls)} call(s) not run")
            iterations += 1
            request: CompressionRequest | None = None
            if any(pc.call.tool_id == COMPRESS_CONTEXT for pc in calls):
                request = CompressionRequest(self._compressible(history[:reply_start]))
                with offering(request):
                    results = [(pc, await self.deck.call(pc.call, confirm=self.confirm))
                               for pc in calls]
            else:
                results = [(pc, await self.deck.call(pc.call, confirm=self.confirm))
                           for pc in calls]
            self.completed.update(pc.call.tool_id for pc, result in results
                                  if result.ok and isinstance(pc.call.tool_id, str))
            self._answer(history, results, fenced)
            if request is not None and request.summary is not None:
                history = self._compressed(history, reply_start, request)
            if turn.ended is not None:
                ended = turn.ended
                return self._stop(StopReason.TURN_ENDED, history, text, iterations,
                                  ended.detail, ended_by=ended.gate, rule=ended.rule)
            doom = watch.observe(results)
            if doom is not None:
                return self._stop(StopReason.DOOM_LOOP, history, text, iterations, doom)

    def _head(self, history: Sequence[Mapping[str, Any]]) -> int:
        """How many messages open the history and are never compressed.

        They are the leading system (or developer) messages and the knowledge block after them.
        """
        head = 0
        while head < len(history) and history[head].get("role") in ("system", "developer"):
            head += 1
        if (self.knowledge and head < len(history)
                and history[head] == self.adapter.user_message(knowledge_text(self.knowledge))):
            head += 1
        return head

    def _compressible(self, before_reply: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
        """The messages a ``compress_context`` call of this round may replace."""
        return tuple(before_reply[self._head(before_reply):])

    def _compressed(self, history: list[dict[str, Any]], reply_start: int,
                    request: CompressionRequest) -> list[dict[str, Any]]:
        """The history with the request's messages replaced by the grown knowledge block."""
        assert request.summary is not None
        system = 0
        while system < reply_start and history[system].get("role") in ("system", "developer"):
            system += 1
        head = self._head(history[:reply_start])
        self.knowledge.append(request.summary)
        block = self.adapter.user_message(knowledge_text(self.knowledge))
        runtime = self.deck.runtime
        fields: dict[str, Any] = {"messages": reply_start - head,
                                  "summary_chars": len(request.summary),
                                  "knowledge_sections": len(self.knowledge),
                                  "turn": self.turn}
        if self.caller_id:
            fields["caller_id"] = self.caller_id
        runtime.hooks.audit(runtime_event("loop.compressed", fields), runtime)
        return [*history[:system], block, *history[reply_start:]]

    def _answer(self, history: list[dict[str, Any]],
                results: Sequence[tuple[ProviderCall, ToolResult]], fenced: bool) -> None:
        if not fenced:
            history.extend(self.adapter.result_messages(results))
            return
        parts = [f"[{safe_repr(pc.call.tool_id)} result]\n{result.text}"
                 for pc, result in results]
        history.append(self.adapter.user_message("\n\n".join(parts)))

    def _stop(self, reason: StopReason, history: list[dict[str, Any]], text: str,
              iterations: int, detail: str, **extra: str) -> LoopOutcome:
        runtime = self.deck.runtime
        fields: dict[str, Any] = {"reason": reason.value, "iterations": iterations,
                                  "turn": self.turn, "adapter": self.adapter.name, **extra}
        if detail:
            fields["detail"] = detail
        if self.caller_id:
            fields["caller_id"] = self.caller_id
        runtime.hooks.audit(runtime_event("loop.stopped", fields), runtime)
        return LoopOutcome(reason, history, text, iterations, detail)
