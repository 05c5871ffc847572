"""Shell overlays are part of the generation: read once, in the digest, under the reload rule."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.plugins.shell.gate import ShellGate

pytestmark = pytest.mark.timeout(60)

PING = '[tools.shell]\nblocked_commands = ["ping"]\n'
PING_MAKE = '[tools.shell]\nblocked_commands = ["ping", "make"]\n'


def save_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def shell_rule(deck: Deck, command: str) -> str | None:
    runtime = deck.runtime
    gate = next(p for p in runtime.pm.get_plugins() if isinstance(p, ShellGate))
    call = ToolCall("bash", {"command": command, "background": False})
    return gate.tooldeck_check_call(call, runtime.tools["bash"], runtime).rule


class Setup:
    def __init__(self, tmp_path: Path, overlay_text: str, settle_s: float) -> None:
        self.config = tmp_path / "tooldeck.toml"
        self.config.write_text('[tools.shell]\npolicy_dir = "policy.d"\n')
        (tmp_path / "policy.d").mkdir()
        self.overlay = tmp_path / "policy.d" / "10.toml"
        self.overlay.write_text(overlay_text)
        self.audit = tmp_path / "audit.jsonl"
        self.deck = Deck.from_config(self.config, settle_s=settle_s,
                                     environ={"TOOLDECK_TOOLS_AUDIT_PATH": str(self.audit)})

    def records(self, kind: str) -> list[dict[str, Any]]:
        lines = [json.loads(x) for x in self.audit.read_text().splitlines()]
        return [r for r in lines if r["kind"] == kind]


async def test_the_digest_covers_the_overlay_as_it_was_read(tmp_path: Path) -> None:
    setup = Setup(tmp_path, PING, settle_s=0.3)
    before = setup.deck.runtime.digest()
    setup.overlay.write_text(PING_MAKE)
    assert setup.deck.runtime.digest() == before, "a runtime's digest never re-reads the disk"
    assert await setup.deck.reload() is True  # the config file is unchanged
    assert setup.deck.runtime.digest() != before
    await setup.deck.aclose()


async def test_a_zero_byte_overlay_is_a_save_in_progress(tmp_path: Path) -> None:
    setup = Setup(tmp_path, PING, settle_s=5)
    setup.overlay.write_bytes(b"")
    started = time.monotonic()
    assert await setup.deck.reload() is False
    assert time.monotonic() - started < 2
    assert shell_rule(setup.deck, "ping example.com") == "blocklist"
    await setup.deck.aclose()


async def test_an_atomic_overlay_tightening_applies_at_once(tmp_path: Path) -> None:
    setup = Setup(tmp_path, PING, settle_s=30)
    assert shell_rule(setup.deck, "make all") != "blocklist"
    save_atomically(setup.overlay, PING_MAKE)
    assert await asyncio.wait_for(setup.deck.reload(), 5) is True
    assert shell_rule(setup.deck, "make all") == "blocklist"
    (event,) = setup.records("policy.reloaded")
    assert event["change"] == "tighten" and event["changed"] == [str(setup.overlay)]
    await setup.deck.aclose()


async def test_an_overlay_loosening_waits_and_names_what_it_loosens(tmp_path: Path) -> None:
    setup = Setup(tmp_path, PING_MAKE, settle_s=0.5)
    save_atomically(setup.overlay, PING)
    reload = asyncio.create_task(setup.deck.reload())
    await asyncio.sleep(0.25)
    assert not reload.done()
    assert shell_rule(setup.deck, "make all") == "blocklist"
    assert await reload is True
    assert shell_rule(setup.deck, "make all") != "blocklist"
    (event,) = setup.records("policy.loosened")
    assert event["loosened"] == [f"{setup.overlay}: tools.shell.blocked_commands"]
    await setup.deck.aclose()
