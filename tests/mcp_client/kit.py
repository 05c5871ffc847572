"""Decks wired to the real demo MCP server (``demo_server.py``) for the tests."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from tooldeck.config import parse_document
from tooldeck.deck import Deck

SERVER = Path(__file__).with_name("demo_server.py")


def server_table(name: str, *extra_args: str, **keys: Any) -> str:
    """A ``[[mcp.servers]]`` table starting the demo server over stdio."""
    lines = ["[[mcp.servers]]", f"name = {json.dumps(name)}",
             f"command = {json.dumps(sys.executable)}",
             f"args = {json.dumps([str(SERVER), *extra_args])}"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in keys.items()]
    return "\n".join(lines) + "\n"


def allow(tool: str, action: str = "allow") -> str:
    """A permission rule list for ``tool``."""
    return f'[[tools.permissions.{tool}]]\npattern = "*"\naction = "{action}"\n'


def make_deck(toml: str, tmp: Path, *, file: bool = False, **kwargs: Any) -> Deck:
    """A deck from ``toml`` whose audit log is ``tmp/audit.jsonl``.

    Servers get a minute to start unless ``toml`` has its own ``[mcp]`` table: a loaded CI
    machine must not turn a slow start into a failure. With ``file``, the configuration is
    written to ``tmp/tooldeck.toml`` and read from there (so that the deck can reload it).
    """
    if "[mcp]" not in toml:
        toml = "[mcp]\nstartup_timeout_secs = 60\n" + toml
    toml = f'[tools.audit]\npath = {json.dumps(str(tmp / "audit.jsonl"))}\n' + toml
    if file:
        path = tmp / "tooldeck.toml"
        path.write_text(toml)
        return Deck.from_config(path, **kwargs)
    return Deck.from_config(parse_document(toml, None, "test"), **kwargs)


def audit(tmp: Path, kind: str | None = None) -> list[dict[str, Any]]:
    """The audit records written to ``tmp/audit.jsonl``."""
    path = tmp / "audit.jsonl"
    if not path.exists():
        return []
    records = [json.loads(line) for line in path.read_text().splitlines() if line]
    return [r for r in records if kind is None or r["kind"] == kind]


def alive(pid: int) -> bool:
    """True while process ``pid`` exists (a reaped child does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class HeldBackoff:
    """A backoff wait that records each delay and waits until the test releases it."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.released = threading.Event()

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        while not self.released.is_set():
            await asyncio.sleep(0.01)
