"""Issue 11: a half-written policy is never loaded, under a real watcher and real in-place saves.

A writer thread rewrites the config in place (truncate, 64-byte chunks, pauses of 1-80 ms),
alternating two policies that both deny ``forbidden``, while an agent keeps calling
``forbidden`` with every ``ask`` pre-approved. Neither policy lets it run, so it must never
run, and every call's audit line must name one of the two complete generations.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tooldeck.deck import Deck
from tooldeck.models import ToolCall

pytestmark = pytest.mark.timeout(60)

PADDING = "".join(f"# padding line {i:02d} so that a save takes several chunks\n"
                  for i in range(6))
POLICY_A = (PADDING + '[[tools.permissions.echo]]\npattern = "forbidden*"\naction = "deny"\n'
            '\n[[tools.permissions.echo]]\npattern = "*"\naction = "allow"\n')
POLICY_B = ('[[tools.permissions.echo]]\npattern = "also-denied*"\naction = "deny"\n\n'
            + POLICY_A)


def digest(text: str) -> str:
    """A generation of one config file and no other policy file."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def write_in_place(path: Path, text: str, rng: random.Random) -> None:
    data = text.encode()
    with open(path, "r+b") as handle:
        handle.truncate(0)
        handle.flush()
        for start in range(0, len(data), 64):
            time.sleep(rng.uniform(0.001, 0.08))
            handle.write(data[start:start + 64])
            handle.flush()


def storm(path: Path, stop: threading.Event, reloaded: threading.Event,
          rng: random.Random) -> None:
    """Alternate the two policies in place; once, hold B still until it has been loaded.

    The hold waits for the reload itself rather than a fixed time: on a loaded machine a
    reload can take longer than any fixed pause, and the storm must not tear it."""
    started = time.monotonic()
    held = False
    flip = False
    while not stop.is_set():
        flip = not flip
        write_in_place(path, POLICY_B if flip else POLICY_A, rng)
        if not held and flip and time.monotonic() - started > 1.0:
            held = True  # on B: the deck started on A, so holding A would load nothing
            reloaded.wait(timeout=30)
        time.sleep(rng.uniform(0.001, 0.08))
    write_in_place(path, POLICY_A, rng)


def has_reloaded(audit: Path) -> bool:
    """Whether the audit log records a reload yet."""
    text = audit.read_text() if audit.exists() else ""
    return '"policy.reloaded"' in text or '"policy.loosened"' in text


async def test_in_place_saves_never_load_a_torn_policy(tmp_path: Path, echo: Any) -> None:
    config = tmp_path / "tooldeck.toml"
    audit = tmp_path / "audit.jsonl"
    config.write_text(POLICY_A)
    deck = Deck.from_config(config, extra_plugins={"echo": echo},
                            environ={"TOOLDECK_TOOLS_AUDIT_PATH": str(audit)}, settle_s=0.3)
    watcher = asyncio.create_task(deck.watch())
    await asyncio.sleep(0.3)
    stop = threading.Event()
    reloaded = threading.Event()
    writer = threading.Thread(target=storm, args=(config, stop, reloaded, random.Random(11)))
    writer.start()
    calls = 0
    try:
        # three seconds of calls, and on until a reload (plus a second of storm after it)
        deadline = time.monotonic() + 3.0
        give_up = time.monotonic() + 40.0
        while ((time.monotonic() < deadline or not reloaded.is_set())
               and time.monotonic() < give_up):
            text = "forbidden rm -rf" if calls % 2 == 0 else "hello"
            await deck.call(ToolCall("echo", {"text": text}), confirm=True)
            calls += 1
            if not reloaded.is_set() and calls % 10 == 0 and has_reloaded(audit):
                reloaded.set()
                deadline = max(deadline, time.monotonic() + 1.0)
            await asyncio.sleep(0.002)
    finally:
        stop.set()
        reloaded.set()  # a writer still holding lets go (the audit is what is asserted)
        await asyncio.to_thread(writer.join)
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
        await deck.aclose()

    assert not [t for t in echo.ran if t.startswith("forbidden")], "a denied command ran"
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    call_records = [r for r in records if r["kind"] == "tool_call"]
    assert len(call_records) == calls
    complete = {digest(POLICY_A), digest(POLICY_B)}
    assert {r["policy"] for r in call_records} <= complete, "a call was decided by a torn file"
    reloads = [r for r in records if r["kind"] in ("policy.reloaded", "policy.loosened")]
    assert reloads, "the held policy was loaded"
    assert {r["new_digest"] for r in reloads} <= complete
