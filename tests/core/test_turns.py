"""The user turn a host hands the deck (Deck.turn, tooldeck.turns): scope, counting, ending."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import Decision, ToolCall, ToolDef
from tooldeck.state import StashKey
from tooldeck.turns import TurnContext, TurnEnd, in_turn, turn_of

ALLOW_ALL = '[[tools.permissions.echo]]\npattern = "*"\naction = "allow"\n'


class TurnWatcher:
    """A probe recording the turn each call belongs to, and what it knew then."""

    def __init__(self, end_after: int | None = None) -> None:
        self.end_after = end_after
        self.seen: list[tuple[str, TurnContext | None, int]] = []

    @hookimpl
    def tooldeck_probe_call(self, call: ToolCall, tool: ToolDef) -> Decision | None:
        turn = turn_of(call)
        self.seen.append((call.params["command"], turn, -1 if turn is None else turn.calls_made))
        if turn is not None and self.end_after is not None and len(self.seen) >= self.end_after:
            turn.end("watcher", "watcher.enough", "enough calls for one turn")
        return None


def deck_with(make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any],
              watcher: TurnWatcher) -> tuple[Deck, Any]:
    plugin = tool_plugin("echo")
    return make_deck(ALLOW_ALL, {"p": plugin, "w": watcher}), plugin.executor


async def test_calls_inside_the_block_see_the_turn_and_count(
        make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]) -> None:
    watcher = TurnWatcher()
    deck, _ = deck_with(make_deck, tool_plugin, watcher)
    turn = TurnContext("run: ls", caller_id="agent", token_budget=100)
    await deck.call(ToolCall("echo", {"command": "before"}, caller_id="agent"))
    with deck.turn(turn) as entered:
        assert entered is turn
        await deck.call(ToolCall("echo", {"command": "one"}, caller_id="agent"))
        await deck.call(ToolCall("nope", {}, caller_id="agent"))  # a failed call counts too
        await deck.call(ToolCall("echo", {"command": "two"}, caller_id="agent"))
        await deck.call(ToolCall("echo", {"command": "other"}, caller_id="someone-else"))
    await deck.call(ToolCall("echo", {"command": "after"}, caller_id="agent"))
    assert [(c, t is turn, n) for c, t, n in watcher.seen] == [
        ("before", False, -1), ("one", True, 0), ("two", True, 2),
        ("other", False, -1), ("after", False, -1)]
    assert turn.calls_made == 3


async def test_a_turn_is_not_seen_by_other_tasks(
        make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]) -> None:
    watcher = TurnWatcher()
    deck, _ = deck_with(make_deck, tool_plugin, watcher)
    inside, release = asyncio.Event(), asyncio.Event()

    async def in_a_turn() -> None:
        with deck.turn(TurnContext("hello")):
            inside.set()
            await release.wait()
            await deck.call(ToolCall("echo", {"command": "mine"}))

    async def beside() -> None:
        await inside.wait()
        await deck.call(ToolCall("echo", {"command": "theirs"}))
        release.set()

    await asyncio.gather(in_a_turn(), beside())
    seen = {command: turn for command, turn, _ in watcher.seen}
    assert seen["theirs"] is None and seen["mine"] is not None


async def test_an_ended_turn_refuses_its_later_calls(
        make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any],
        audit_records: Callable[[Deck], list[dict[str, Any]]]) -> None:
    watcher = TurnWatcher(end_after=1)
    deck, executor = deck_with(make_deck, tool_plugin, watcher)
    turn = TurnContext("go")
    with deck.turn(turn):
        first = await deck.call(ToolCall("echo", {"command": "one"}))
        second = await deck.call(ToolCall("echo", {"command": "two"}))
    assert first.ok and len(executor.calls) == 1
    assert turn.ended == TurnEnd("watcher", "watcher.enough", "enough calls for one turn")
    assert second.error is not None and second.error.category is ErrorCategory.CANCELLED
    assert second.error.message == "not run: enough calls for one turn"
    assert [c for c, _, _ in watcher.seen] == ["one"]  # refused before any gate or probe
    record = audit_records(deck)[-1]
    assert record["decision"]["gate"] == "watcher"
    assert record["decision"]["rule"] == "watcher.enough"
    turn.end("other", "other.rule", "later")  # the first end stands
    assert turn.ended is not None and turn.ended.gate == "watcher"
    assert (await deck.call(ToolCall("echo", {"command": "three"}))).ok  # outside: runs


def test_values_are_checked_when_set() -> None:
    turn = TurnContext("hi", token_budget=10)
    turn.tokens_consumed = 12
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="tokens_consumed must be an integer >= 0"):
            turn.tokens_consumed = bad  # type: ignore[assignment]
    with pytest.raises(ValueError, match="token_budget"):
        TurnContext("hi", token_budget=-5)
    with pytest.raises(TypeError):
        TurnContext(None)  # type: ignore[arg-type]
    assert turn.turn_id != TurnContext("hi").turn_id


def test_per_turn_state_is_made_once_per_turn() -> None:
    key = StashKey[list[str]]("test.memo")
    made: list[int] = []

    def factory() -> list[str]:
        made.append(1)
        return []

    turn = TurnContext("hi")
    turn.setdefault(key, factory).append("a")
    assert turn.setdefault(key, factory) == ["a"] and len(made) == 1
    assert TurnContext("hi").setdefault(key, factory) == [] and len(made) == 2


def test_only_a_turn_context_can_be_entered() -> None:
    with pytest.raises(TypeError, match="expected a TurnContext"), \
            in_turn("not a turn"):  # type: ignore[arg-type]
        pass
    assert turn_of(ToolCall("echo", {})) is None
