"""The answer to one hook event, computed by a deck: the same code warm (server) and cold.

The verdict is what ``tooldeck check`` computes: the ``[tools] enabled`` switch, parameter
validation, every gate's vote combined by :func:`tooldeck.deck.combine_decisions`; for file
tools also the path sandbox the file executor would apply before touching anything. The web
plugin's SSRF guard is not consulted (it lives in that plugin and guards tooldeck's own
fetches); a ``WebFetch`` is judged by the ``fetch`` permission rules alone.

Each event is judged alone, on a fresh session state: the agent, not tooldeck, runs the
tool, so a stateful gate (the risk chain) cannot know whether a call it saw ever ran, and a
warm server must not answer differently from a cold process.
"""

from __future__ import annotations

from typing import Any

from tooldeck.plugins.agent_hooks.agents import (
    NO_OPINION,
    Answer,
    Event,
    HookInputError,
    parse_event,
    render_decision,
    render_output,
)

__all__ = ["answer", "answer_event", "cold_answer", "judge"]

_FILE_OPS = {"read": "read", "find_path": "read", "grep": "read", "write": "write",
             "edit": "write"}


def _sandbox_denial(runtime: Any, tool: str, params: dict[str, Any]) -> str | None:
    """The core path service's verdict on the call's path (the file tools' sandbox)."""
    check = runtime.services.paths.check(params["path"], _FILE_OPS[tool])
    return None if check.verdict == "allow" else str(check.reason)


def judge(runtime: Any, tool_id: str, params: dict[str, Any]) -> tuple[str, str]:
    """The policy's verdict on one call, without running it.

    :param runtime: the deck's current runtime.
    :param tool_id: the tooldeck tool.
    :param params: its parameters (validated here).
    :returns: ``(verdict, reason)``, verdict one of ``allow``, ``deny``, ``ask``.
    """
    import pydantic

    from tooldeck.deck import combine_decisions, validation_error
    from tooldeck.models import ToolCall, Verdict
    from tooldeck.runtime import SessionState

    tool = runtime.tools.get(tool_id)
    if tool is None:
        return "deny", f"the {tool_id} tool is not available in this deck"
    if not runtime.settings.core.tools.enabled:
        return "deny", "tools are disabled ([tools] enabled = false)"
    try:
        params = tool.params.model_validate(params).model_dump()
    except pydantic.ValidationError as exc:
        return "deny", validation_error(tool, exc).message
    call = ToolCall(tool_id, params, caller_id="hook")
    kept = runtime.session
    runtime.session = SessionState()
    try:
        decision = combine_decisions(runtime.hooks.check_call(call, tool, runtime))
    finally:
        runtime.session = kept
    if decision.verdict is Verdict.DENY:
        return "deny", decision.reason
    denial = _sandbox_denial(runtime, tool_id, params) if tool_id in _FILE_OPS else None
    if denial is not None:
        return "deny", denial
    return decision.verdict.value, decision.reason


def _filtered(runtime: Any, event: Event) -> str | None:
    from tooldeck.models import ToolCall, ToolOutput

    tool = runtime.tools.get(event.tool)
    if tool is None or event.output is None:
        return None
    call = ToolCall(event.tool, event.params, caller_id="hook")
    output = ToolOutput(event.tool, event.output)
    summary: str = runtime.hooks.transform_output(call, tool, output, runtime).summary
    return None if summary.strip() == event.output.strip() else summary


def _event(agent: str, text: str) -> Event | Answer | None:
    try:
        return parse_event(agent, text)
    except HookInputError as exc:
        return Answer("", 2, f"tooldeck hook: {exc}; refusing the call")


def answer_event(runtime: Any, agent: str, event: Event) -> Answer:
    """The answer to an already parsed event (see :func:`answer`).

    :param runtime: the deck's current runtime.
    :param agent: the agent whose format the answer takes.
    :param event: the event.
    :returns: the answer.
    """
    if event.phase == "pre":
        verdict, reason = judge(runtime, event.tool, event.params)
        return render_decision(agent, verdict, reason)
    filtered = _filtered(runtime, event)
    return NO_OPINION if filtered is None else render_output(agent, filtered)


def answer(runtime: Any, agent: str, text: str) -> Answer:
    """The answer to one hook input, as the agent's documentation defines it.

    :param runtime: the deck's current runtime.
    :param agent: one of :data:`tooldeck.plugins.agent_hooks.agents.AGENTS`.
    :param text: the JSON the agent wrote on the hook's stdin.
    :returns: the answer; exit code 2 with a reason on stderr for input that cannot be read.
    """
    event = _event(agent, text)
    if event is None:
        return NO_OPINION
    if isinstance(event, Answer):
        return event
    return answer_event(runtime, agent, event)


def cold_answer(agent: str, text: str, config: str | None) -> Answer:
    """The answer computed in this process: build the deck, answer, close it.

    An event tooldeck has no opinion on is answered before any deck is built. A
    configuration that cannot be used answers exit code 2 (the call is refused).

    :param agent: one of the agents.
    :param text: the hook input.
    :param config: ``--config``, or ``None`` for the lookup order.
    :returns: the answer.
    """
    event = _event(agent, text)
    if event is None:
        return NO_OPINION
    if isinstance(event, Answer):
        return event
    import asyncio

    from tooldeck.deck import Deck
    from tooldeck.errors import ConfigError

    try:
        deck = Deck.from_config(config)
    except ConfigError as exc:
        return Answer("", 2, f"tooldeck: configuration error, refusing the call:\n{exc}")
    try:
        return answer_event(deck.runtime, agent, event)
    finally:
        asyncio.run(deck.aclose())
