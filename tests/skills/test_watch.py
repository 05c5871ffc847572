"""The real watcher: adding and removing a SKILL.md adds and removes the skill's tools."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import Callable
from pathlib import Path

from tests.skills.conftest import SAY, MakeDeck, write_skill
from tooldeck.deck import Deck


async def _until(deck: Deck, outcomes: asyncio.Queue[bool], done: Callable[[], bool],
                 poke: Callable[[], None]) -> None:
    """Poke the files until a reload makes ``done()`` true (the watcher may still be starting).

    Each round waits for a reload outcome; a round without one pokes again. Fails after
    20 rounds, not after a fixed time.
    """
    for _ in range(20):
        poke()
        with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
            await asyncio.wait_for(outcomes.get(), 2)
        if done():
            return
    raise AssertionError("the watcher never reloaded the skills")


async def test_the_watcher_follows_skill_files(tmp_path: Path, make_deck: MakeDeck) -> None:
    (tmp_path / "skills").mkdir()
    deck = make_deck()
    outcomes: asyncio.Queue[bool] = asyncio.Queue()
    task = asyncio.create_task(deck.watch(on_reload=outcomes.put_nowait))
    try:
        def add() -> None:  # a new folder each round: the root is what is watched for it
            shutil.rmtree(tmp_path / "skills" / "greet", ignore_errors=True)
            write_skill(tmp_path, "greet", SAY)

        await _until(deck, outcomes, lambda: "skill_greet__say" in deck.runtime.tools, add)
        skill = tmp_path / "skills" / "greet" / "SKILL.md"
        await _until(deck, outcomes, lambda: "skill_greet__say" not in deck.runtime.tools,
                     lambda: skill.unlink(missing_ok=True))
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
