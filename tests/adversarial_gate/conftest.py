"""A scripted OpenAI-compatible judge on 127.0.0.1, and decks built around it.

The judge is a real ``http.server`` on a thread. Each test scripts its answers: a reply
text, an HTTP status, a body that is not JSON, or a hang (released at teardown, so a
timeout is certain rather than a matter of timing). Every request it receives is recorded,
headers and body, for assertions made on the server's side.
"""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import attrs
import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext


@attrs.define
class Recorded:
    """One request the judge received."""

    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The request body, parsed."""
        return json.loads(self.body)


class Judge:
    """The scripted server: ``answers`` are used in order, the last one repeats."""

    def __init__(self) -> None:
        self.answers: list[tuple[str, Any]] = [("reply", "ALLOW")]
        self.requests: list[Recorded] = []
        self.release = threading.Event()
        judge = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                judge.requests.append(Recorded(self.path, dict(self.headers.items()), body))
                kind, value = judge.answers[min(len(judge.requests), len(judge.answers)) - 1]
                if kind == "hang":
                    judge.release.wait(30)
                    return
                status, payload = 200, b""
                if kind == "reply":
                    payload = json.dumps({"choices": [{"index": 0, "message": {
                        "role": "assistant", "content": value}}]}).encode()
                elif kind == "status":
                    status, payload = value, b'{"error": "boom"}'
                else:  # "raw": a body as given
                    payload = value
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        """The API root to configure."""
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def script(self, *answers: tuple[str, Any]) -> None:
        """Set the answers: ``("reply", text)``, ``("status", 500)``, ``("raw", bytes)``,
        ``("hang", None)``."""
        self.answers = list(answers)

    def close(self) -> None:
        """Release hung handlers and stop."""
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def judge() -> Iterator[Judge]:
    """A running scripted judge."""
    server = Judge()
    yield server
    server.close()


class StubParams(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="allow")
    value: str = ""


class Stubs:
    """Registers stand-in tools, run by one executor that records what ran."""

    name = "stub"

    def __init__(self, tools: Iterable[str]) -> None:
        self.tools = list(tools)
        self.ran: list[str] = []

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[..., None]) -> None:
        register(self)

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
        for tool in self.tools:
            register(ToolDef(id=tool, description=tool, params=StubParams, executor="stub"))

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        self.ran.append(call.tool_id)
        return ToolOutput(call.tool_id, f"ran {call.tool_id}")


TOOLS = ("probe", "note", "refused", "unruled")


def gate_config(judge: Judge, **keys: Any) -> str:
    """``[tools.adversarial_policy]`` enabled against ``judge``, plus ``keys``.

    The timeout is generous (a loaded machine must not make a scripted answer late); tests
    of the timeout script a hang, which no timeout outlasts.
    """
    values = {"enabled": True, "base_url": judge.base_url, "model": "judge-1",
              "timeout_ms": 10_000, **keys}
    lines = "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items())
    return ("[tools.adversarial_policy]\n" + lines
            + '[[tools.permissions.probe]]\npattern = "*"\naction = "allow"\n'
            + '[[tools.permissions.note]]\npattern = "*"\naction = "allow"\n'
            + '[[tools.permissions.refused]]\npattern = "*"\naction = "deny"\n')


def audit_records(path: Path) -> list[dict[str, Any]]:
    """Every record of an audit file."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def audit_path(tmp_path: Path) -> Path:
    """The audit file of ``make_deck``'s decks."""
    return tmp_path / "audit.jsonl"


@pytest.fixture
async def make_deck(tmp_path: Path, audit_path: Path,
                    monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Callable[..., Any]]:
    """Build a deck from the default configuration plus ``body``; returns (deck, stubs)."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    config = tmp_path / "conf" / "tooldeck.toml"
    decks: list[Deck] = []

    def make(body: str, **kw: Any) -> tuple[Deck, Stubs]:
        config.parent.mkdir(exist_ok=True)
        config.write_text(f'{embedded_default_text()}\n[tools.audit]\npath = "{audit_path}"\n'
                          f"{body}")
        stubs = Stubs(TOOLS)
        deck = Deck.from_config(config, extra_plugins={"stubs": stubs}, **kw)
        decks.append(deck)
        return deck, stubs

    yield make
    for deck in decks:
        await deck.aclose()
