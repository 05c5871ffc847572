"""The utility gate end to end: a real deck, the tool loop and a loopback model server.

Each run is one user turn: the loop hands the deck its user message, caller and token
budget. Asserted on what the model was sent and on the audit log.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from tooldeck.adapters import adapter_for
from tooldeck.loop import BUDGET_RATIO, StopReason, ToolLoop

from .conftest import ALLOW_ECHO

pytestmark = pytest.mark.timeout(60)

UTILITY = "[tools.utility]\nenabled = true\n"


def loop(dialect: Any, deck: Any, server: Any, **options: Any) -> ToolLoop:
    return ToolLoop(deck, adapter_for(dialect.name), dialect.client(server.url),
                    caller_id="agent-7", **options)


def echo(cid: str, text: str) -> tuple[str, str, dict[str, str]]:
    return (cid, "bash", {"command": f"echo {text}"})


def error_line(content: str) -> str:
    assert content.startswith("[tool_error]\ncategory: cancelled\n"), content
    return content.split("\n")[2]


async def test_a_retrieve_its_retry_and_a_repeat_reach_the_model(
        dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    """bash's first call of a turn is a Retrieve; the same call again is the retry it asked
    for and runs; a third time it is redundant: Respond. Then the model answers."""
    replies = [dialect.tool_reply([echo("c1", "hello")]),
               dialect.tool_reply([echo("c2", "hello")]),
               dialect.tool_reply([echo("c3", "hello")]),
               dialect.text_reply("hello it is")]
    server = model_server(lambda n, body: replies[n])
    outcome = await loop(dialect, make_deck(ALLOW_ECHO + UTILITY), server,
                         context_window=100_000).run([{"role": "user", "content": "greet"}])

    assert outcome.reason is StopReason.FINISHED and outcome.iterations == 3
    bodies = server.bodies()
    ((cid, first, _),) = dialect.results(bodies[1])
    assert cid == "c1"
    assert error_line(first).startswith("error: [utility:retrieve] bash was not run")
    assert first.split("\n")[3] == (
        "suggestion: Retrieve relevant context first (memory_search or a related lookup), "
        "then call bash again with the same arguments: that call will run.")
    assert dialect.results(bodies[2]) == [("c2", "hello", None)]
    ((_, third, is_error),) = dialect.results(bodies[3])
    assert error_line(third) == (
        "error: [utility:respond] bash was not run: the utility policy recommends answering "
        "directly, without more tool use (the same call was already made in this turn)")
    assert is_error is (True if dialect.name == "anthropic" else None)
    for body in bodies:
        dialect.validate(body)

    records = audit("tool_call")
    assert [(r["result"]["type"], r.get("error_category")) for r in records] == [
        ("error", "cancelled"), ("success", None), ("error", "cancelled")]
    assert [r["decision"]["gate"] for r in records] == ["utility", "permissions", "utility"]
    assert [records[0]["decision"]["rule"], records[2]["decision"]["rule"]] == [
        "utility.uncertain", "utility.redundant"]
    verdicts = audit("utility.verdict")
    assert [(v["recommendation"], v["rule"], v["calls_made"]) for v in verdicts] == [
        ("retrieve", "uncertain", 0), ("tool_call", "mandated-retry", 1),
        ("respond", "redundant", 2)]
    assert len({v["turn_id"] for v in verdicts}) == 1
    assert all(v["caller_id"] == "agent-7" for v in verdicts)
    budget = math.ceil(100_000 * BUDGET_RATIO)
    assert all(v["token_budget"] == budget for v in verdicts)
    consumed = [v["tokens_consumed"] for v in verdicts]
    assert 0 < consumed[0] < consumed[1] < consumed[2]  # the conversation grows
    assert all(v["cost"] == pytest.approx(c / budget, abs=1e-6)
               for v, c in zip(verdicts, consumed, strict=True))
    (stop,) = audit("loop.stopped")
    assert stop["reason"] == "finished"


async def test_the_window_stops_the_loop_and_the_next_turn_starts_afresh(
        dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    """Two skips in a row (utility_window = 2) end the turn: the batch's third call is not
    run, no further request is made, and the run stops with ``turn_ended``. The next run is
    a new turn; its model request carries what the last one's calls returned."""
    replies = [dialect.tool_reply([echo("w1", "one"), echo("w2", "two"), echo("w3", "three")]),
               dialect.tool_reply([echo("n1", "one")]),
               dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    deck = make_deck(ALLOW_ECHO + UTILITY + "utility_window = 2\n")
    agent = loop(dialect, deck, server)
    outcome = await agent.run([{"role": "user", "content": "count"}])

    assert outcome.reason is StopReason.TURN_ENDED and outcome.iterations == 1
    assert outcome.detail == ("the utility gate did not let 2 calls in a row run "
                              "(utility_window = 2); the turn ends here")
    assert len(server.bodies()) == 1  # the turn ended: the model was not asked again
    (stop,) = audit("loop.stopped")
    assert (stop["reason"], stop["ended_by"], stop["rule"]) == (
        "turn_ended", "utility", "utility.window")
    assert stop["detail"] == outcome.detail and stop["caller_id"] == "agent-7"
    records = audit("tool_call")
    assert [(r["command"], r["decision"]["rule"]) for r in records] == [
        ("echo one", "utility.uncertain"), ("echo two", "utility.uncertain"),
        ("echo three", "utility.window")]
    assert all(r["error_category"] == "cancelled" for r in records)
    assert [v["ends_turn"] for v in audit("utility.verdict")] == [False, True]

    following = [*outcome.messages, {"role": "user", "content": "and now?"}]
    second = await agent.run(following)
    assert second.reason is StopReason.FINISHED
    body = server.bodies()[1]
    sent = json.dumps(body[dialect.messages_key])
    assert "[utility:retrieve] bash was not run" in sent
    assert "2 calls in a row were not run, so the turn ends here" in sent
    assert "not run: the utility gate did not let 2 calls in a row run" in sent
    # a new turn: the first call is a Retrieve again, not the continuation of a window
    ((_, content, _),) = dialect.results(server.bodies()[2])
    assert error_line(content).startswith("error: [utility:retrieve] bash was not run")
    verdicts = audit("utility.verdict")
    assert len({v["turn_id"] for v in verdicts}) == 2
    assert verdicts[-1]["calls_made"] == 0


async def test_an_explicit_request_in_the_user_message_runs_every_call(
        dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    replies = [dialect.tool_reply([echo("e1", "x")]), dialect.tool_reply([echo("e2", "x")]),
               dialect.text_reply("x")]
    server = model_server(lambda n, body: replies[n])
    outcome = await loop(dialect, make_deck(ALLOW_ECHO + UTILITY), server).run(
        [{"role": "user", "content": "run: echo x"}])
    assert outcome.reason is StopReason.FINISHED
    assert dialect.results(server.bodies()[1]) == [("e1", "x", None)]
    assert dialect.results(server.bodies()[2]) == [("e2", "x", None)]
    assert {v["rule"] for v in audit("utility.verdict")} == {"explicit-request"}
