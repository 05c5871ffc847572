"""Background runs: run id at once, the cap, bash_status, timeouts, runtime retirement."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.plugins.shell.background import head_tail, started_message

pytestmark = pytest.mark.timeout(60)

STATUS_ALLOWED = '[[tools.permissions.bash_status]]\npattern = "*"\naction = "allow"\n'


async def status(deck: Any, run_id: str) -> Any:
    return await deck.call(ToolCall("bash_status", {"run_id": run_id}))


async def wait_finished(deck: Any, run_id: str) -> Any:
    for _ in range(200):
        result = await status(deck, run_id)
        if result.output.raw_response["status"] != "running":
            return result
        await asyncio.sleep(0.05)
    raise AssertionError("the run did not finish")


async def test_run_id_and_message(make_deck: Any, helpers: Any) -> None:
    deck = make_deck(STATUS_ALLOWED)
    result = await helpers.run(deck, "echo done", background=True)
    run_id = result.output.raw_response["run_id"]
    assert re.fullmatch(r"[0-9a-f]{32}", run_id)
    assert result.output.summary == started_message(run_id, "echo done")
    assert result.output.summary.startswith(f"[background] started run_id={run_id} — command: ")
    assert f"(run_id_short={run_id[:8]})" in result.output.summary
    finished = await wait_finished(deck, run_id)
    assert finished.output.raw_response["status"] == "finished"
    assert finished.output.exit_code == 0 and finished.output.summary.endswith("done")


async def test_status_while_running(make_deck: Any, helpers: Any) -> None:
    deck = make_deck(STATUS_ALLOWED)
    run_id = (await helpers.run(deck, "sleep 5", background=True)).output.raw_response["run_id"]
    running = await status(deck, run_id)
    assert running.output.raw_response["status"] == "running"


async def test_background_is_gated_like_foreground(make_deck: Any, helpers: Any) -> None:
    deck = make_deck(STATUS_ALLOWED)
    result = await helpers.run(deck, "sudo id", background=True, confirm=True)
    assert result.error.category is ErrorCategory.POLICY_BLOCKED


async def test_cap(make_deck: Any, helpers: Any) -> None:
    deck = make_deck("[tools.shell]\nmax_background_runs = 2\n" + STATUS_ALLOWED)
    for _ in range(2):
        assert (await helpers.run(deck, "sleep 5", background=True)).ok
    third = await helpers.run(deck, "sleep 5", background=True)
    assert third.error.category is ErrorCategory.POLICY_BLOCKED
    assert third.error.message == "background run cap reached (max_background_runs=2)"


async def test_background_timeout_kills(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck("[tools.shell]\nbackground_timeout_secs = 0.5\n" + STATUS_ALLOWED)
    run_id = (await helpers.run(deck, "sleep 106", background=True)).output.raw_response[
        "run_id"]
    finished = await wait_finished(deck, run_id)
    assert finished.output.raw_response["status"] == "timeout"
    assert not helpers.live_pids_in(sandbox)


async def test_a_background_run_may_ask_for_a_shorter_timeout(
        make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(STATUS_ALLOWED)
    run_id = (await helpers.run(deck, "sleep 107", background=True, timeout=0.5)
              ).output.raw_response["run_id"]
    finished = await wait_finished(deck, run_id)
    assert finished.output.raw_response["status"] == "timeout"
    assert not helpers.live_pids_in(sandbox)
    over = await helpers.run(make_deck("[tools.shell]\nbackground_timeout_secs = 5\n"),
                             "true", background=True, timeout=6)
    assert over.error.category is ErrorCategory.INVALID_PARAMETERS
    assert "background_timeout_secs (5s)" in over.error.message


async def test_output_is_cut_head_and_tail(make_deck: Any, helpers: Any) -> None:
    deck = make_deck(STATUS_ALLOWED)
    run_id = (await helpers.run(deck, "seq 1 5000", background=True)).output.raw_response[
        "run_id"]
    text = (await wait_finished(deck, run_id)).output.summary
    body = text.split("\n", 1)[1]
    assert len(body) <= 4096 and body.startswith("1\n2\n") and body.endswith("4999\n5000")


def test_head_tail() -> None:
    assert head_tail("short") == "short"
    cut = head_tail("a" * 3000 + "b" * 3000)
    assert len(cut) <= 4096 and cut.startswith("a") and cut.endswith("b")


async def test_unknown_run(make_deck: Any) -> None:
    result = await status(make_deck(STATUS_ALLOWED), "0" * 32)
    assert result.error.category is ErrorCategory.INVALID_PARAMETERS


async def test_runs_outlive_a_reload(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    """A policy reload must not kill the agent's build, nor forget its run id."""
    deck = make_deck(STATUS_ALLOWED)
    started = await helpers.run(deck, "sleep 0.8; echo done", background=True)
    run_id = started.output.raw_response["run_id"]
    await asyncio.sleep(0.2)
    assert await deck.reload()
    assert (await status(deck, run_id)).output.raw_response["status"] == "running"
    for _ in range(60):
        result = await status(deck, run_id)
        if result.output.raw_response["status"] != "running":
            break
        await asyncio.sleep(0.05)
    assert result.output.raw_response["status"] == "finished"
    assert "done" in result.output.summary


async def test_the_cap_counts_runs_started_before_a_reload(make_deck: Any,
                                                           helpers: Any) -> None:
    deck = make_deck(STATUS_ALLOWED + "[tools.shell]\nmax_background_runs = 1\n")
    await helpers.run(deck, "sleep 5", background=True)
    assert await deck.reload()
    second = await helpers.run(deck, "sleep 5", background=True)
    assert second.error.message == "background run cap reached (max_background_runs=1)"


async def test_closing_the_deck_kills_its_runs(make_deck: Any, helpers: Any,
                                               sandbox: Path) -> None:
    deck = make_deck(STATUS_ALLOWED)
    await helpers.run(deck, "sleep 107", background=True)
    await asyncio.sleep(0.3)
    assert helpers.live_pids_in(sandbox)
    await deck.aclose()
    for _ in range(40):
        if not helpers.live_pids_in(sandbox):
            break
        await asyncio.sleep(0.05)
    assert not helpers.live_pids_in(sandbox)


async def test_status_tool_asks_without_a_rule(make_deck: Any, helpers: Any) -> None:
    # bash_status has no default permission rule: the permissions gate asks (fail closed).
    deck = make_deck("")
    run_id = (await helpers.run(deck, "true", background=True)).output.raw_response["run_id"]
    result = await status(deck, run_id)
    assert result.error.category is ErrorCategory.CONFIRMATION_REQUIRED
