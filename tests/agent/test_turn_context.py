"""Each run of the tool loop is one user turn for the deck's gates (tooldeck.turns)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tooldeck import hookimpl
from tooldeck.adapters import adapter_for
from tooldeck.loop import BUDGET_RATIO, StopReason, ToolLoop
from tooldeck.models import Decision, ToolCall
from tooldeck.turns import TurnContext, turn_of

pytestmark = pytest.mark.timeout(60)


class TurnWatcher:
    """A probe recording what each call's turn said; it ends the turn at its ``end_at``-th
    call."""

    def __init__(self, end_at: int | None = None) -> None:
        self.end_at = end_at
        self.seen: list[tuple[str, TurnContext | None, str, int, int, int]] = []

    @hookimpl
    def tooldeck_probe_call(self, call: ToolCall) -> Decision | None:
        turn = turn_of(call)
        assert turn is not None
        self.seen.append((call.params["command"], turn, turn.user_message, turn.token_budget,
                          turn.tokens_consumed, turn.calls_made))
        if len(self.seen) == self.end_at:
            turn.end("watcher", "watcher.enough", "the watcher has seen enough")
        return None


def echo(cid: str, text: str) -> tuple[str, str, dict[str, str]]:
    return (cid, "bash", {"command": f"echo {text}"})


async def test_the_loop_hands_each_run_to_the_deck_as_a_turn(
        chat_dialect: Any, make_deck: Any, model_server: Any) -> None:
    replies = [chat_dialect.tool_reply([echo("a", "one"), echo("b", "two")]),
               chat_dialect.tool_reply([echo("c", "three")]),
               chat_dialect.text_reply("done"),
               chat_dialect.tool_reply([echo("d", "four")]),
               chat_dialect.text_reply("done again")]
    server = model_server(lambda n, body: replies[n])
    watcher = TurnWatcher()
    deck = make_deck(plugins={"watcher": watcher})
    loop = ToolLoop(deck, adapter_for(chat_dialect.name), chat_dialect.client(server.url),
                    caller_id="agent-7", context_window=50_000)
    first = await loop.run([{"role": "user", "content": "count up"}])
    await loop.run([*first.messages, {"role": "user", "content": "once more"}])

    (_, _, message, budget, used_one, _), two, three, four = watcher.seen
    assert [s[0] for s in watcher.seen] == ["echo one", "echo two", "echo three", "echo four"]
    assert message == "count up" and budget == math.ceil(50_000 * BUDGET_RATIO)
    assert [s[5] for s in watcher.seen] == [0, 1, 2, 0]  # calls made before, per turn
    assert 0 < used_one == two[4] < three[4]  # measured before each request
    assert two[1] is three[1] is watcher.seen[0][1]
    assert four[1] is not watcher.seen[0][1] and four[2] == "once more"
    assert four[1] is not None and four[1].caller_id == "agent-7"


async def test_a_turn_a_gate_ends_stops_the_run(chat_dialect: Any, make_deck: Any,
                                                model_server: Any, audit: Any) -> None:
    replies = [chat_dialect.tool_reply([echo("a", "one"), echo("b", "two"), echo("c", "3")])]
    server = model_server(lambda n, body: replies[n])
    deck = make_deck(plugins={"watcher": TurnWatcher(end_at=1)})
    loop = ToolLoop(deck, adapter_for(chat_dialect.name), chat_dialect.client(server.url),
                    caller_id="agent-7")
    outcome = await loop.run([{"role": "user", "content": "go"}])

    assert outcome.reason is StopReason.TURN_ENDED
    assert (outcome.detail, outcome.iterations) == ("the watcher has seen enough", 1)
    assert len(server.requests) == 1
    calls = audit("tool_call")
    assert [(c["command"], c.get("error_category")) for c in calls] == [
        ("echo one", None), ("echo two", "cancelled"), ("echo 3", "cancelled")]
    assert calls[1]["decision"]["gate"] == "watcher"
    (stop,) = audit("loop.stopped")
    assert (stop["reason"], stop["ended_by"], stop["rule"]) == (
        "turn_ended", "watcher", "watcher.enough")
    # every call of the round is answered, so the history stays valid for the next run
    answers = chat_dialect.results({"messages": outcome.messages})
    assert [(cid, content.split("\n")[1]) for cid, content, _ in answers[1:]] == [
        ("b", "category: cancelled"), ("c", "category: cancelled")]
    assert answers[0][:2] == ("a", "one")
