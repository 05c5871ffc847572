"""Fixtures for the egress tests: a network tripwire, a resolver stub and a deck with both.

Nothing leaves the machine: names are answered by :class:`StubResolver` (installed as the
deck's egress resolver), and a connect or system lookup outside loopback is refused and
recorded, so a ``fetch`` the policy lets through shows up as a recorded attempt instead of
a packet.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.egress import use_resolver

PUBLIC_V4 = "93.184.215.14"
PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"

CONFIG = """
[tools.shell]
allowed_commands = ["curl", "wget", "nc ", "ncat", "netcat"]
allowed_paths = ["/"]
confirm_patterns = []

[[tools.permissions.fetch]]
pattern = "*"
action = "allow"
"""


def _loopback(host: object) -> bool:
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def tripwire(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Refuse and record every connect or system lookup that is not loopback."""
    attempts: list[str] = []
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(address: Any) -> None:
        if isinstance(address, tuple) and not _loopback(address[0]):
            attempts.append(str(address[0]))
            raise PermissionError(f"tripwire: connection to {address!r} refused in tests")

    def connect(self: socket.socket, address: Any) -> None:
        check(address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _loopback(host):
            raise socket.gaierror(socket.EAI_NONAME, f"tripwire: lookup of {host!r} refused")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield attempts


class StubResolver:
    """A local resolver: answers from a table, and fails for any other name."""

    def __init__(self, table: Mapping[str, Sequence[str]]) -> None:
        self.table = dict(table)
        self.asked: list[str] = []

    async def __call__(self, host: str, port: int) -> Sequence[str]:
        self.asked.append(host)
        if host not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, f"no such test host: {host}")
        return list(self.table[host])


@pytest.fixture
async def egress_deck(tmp_path: Path) -> AsyncIterator[Callable[..., tuple[Deck, StubResolver]]]:
    """Build a deck with curl permitted, fetch allowed, and a resolver stub for its checks."""
    decks: list[Deck] = []

    def build(table: Mapping[str, Sequence[str]], extra: str = "") -> tuple[Deck, StubResolver]:
        audit = json.dumps(str(tmp_path / "audit.jsonl"))
        text = f"[tools.audit]\npath = {audit}\n{CONFIG}{extra}"
        deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))
        decks.append(deck)
        stub = StubResolver(table)
        use_resolver(deck.runtime.session, stub)
        return deck, stub

    yield build
    for deck in decks:
        await deck.aclose()
