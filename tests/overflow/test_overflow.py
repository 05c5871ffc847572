"""The overflow plugin: long and filtered outputs kept whole, read back with read_overflow."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck, ToolResult
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.overflow_store import OverflowStore, parse_id
from tooldeck.runtime import CallContext

LINE = 100  # bytes per generated line


def generated(lines: int) -> str:
    return "".join(f"{i:09d} " + "x" * (LINE - 11) + "\n" for i in range(lines))


class CannedParams(pydantic.BaseModel):
    command: str


class Canned:
    """An ``exec`` tool ``sh`` answering known commands with canned output."""

    name = "canned"

    def __init__(self, outputs: dict[str, str]) -> None:
        self.outputs = outputs

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        text = self.outputs[str(call.params["command"])]
        return ToolOutput(call.tool_id, text, {"stdout": text}, exit_code=0)

    @hookimpl
    def tooldeck_register_tools(self, register: Any) -> None:
        register(ToolDef(id="sh", description="canned shell", params=CannedParams,
                         executor=self.name, capabilities={"execute"}))

    @hookimpl
    def tooldeck_register_executors(self, register: Any) -> None:
        register(self)


MakeDeck = Callable[..., Deck]


@pytest.fixture
async def make_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                    ) -> AsyncIterator[MakeDeck]:
    monkeypatch.chdir(tmp_path)
    decks: list[Deck] = []

    def make(body: str = "", outputs: dict[str, str] | None = None) -> Deck:
        config = tmp_path / "tooldeck.toml"
        config.write_text(
            f'{embedded_default_text()}\n[tools.audit]\npath = "{tmp_path / "audit.jsonl"}"\n'
            f'[tools.overflow]\npath = "{tmp_path / "overflow.sqlite3"}"\n{body}\n'
            '[[tools.permissions.sh]]\npattern = "*"\naction = "allow"\n')
        deck = Deck.from_config(config, extra_plugins={"canned": Canned(outputs or {})},
                                environ={})
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()


async def read_all(deck: Deck, ident: str, caller: str | None = None) -> str:
    pages: list[str] = []
    offset = 1
    while True:
        result = await deck.call(ToolCall("read_overflow", {"id": ident, "offset": offset,
                                                            "limit": 2000}, caller_id=caller))
        assert result.ok, result.text
        assert result.output is not None and result.output.raw_response is not None
        page = result.output.raw_response["text"]
        if not page:
            return "".join(pages)
        pages.append(page)
        offset += len(page.splitlines(keepends=True))


def overflow_id(result: ToolResult) -> str:
    assert result.output is not None and result.output.raw_response is not None
    ident = result.output.raw_response["overflow_id"]
    assert isinstance(ident, str) and ident.startswith("overflow:")
    assert ident in result.output.summary
    return ident


async def test_ten_megabytes_are_stored_and_read_back_byte_exact(make_deck: MakeDeck) -> None:
    text = generated(100_000)  # 10,000,000 bytes
    deck = make_deck(outputs={"big": text})
    result = await deck.call(ToolCall("sh", {"command": "big"}))
    assert result.ok
    summary = result.output.summary if result.output else ""
    assert len(summary) < 60_000, "the model gets a head and a tail, not 10 MB"
    # the filters keep the data's two ends (20 lines each) and count the middle; the store
    # keeps it all
    assert summary.startswith(text[:1000]) and text[-1000:].rstrip() in summary
    assert "99960 lines like" in summary
    assert await read_all(deck, overflow_id(result)) == text


async def test_a_real_long_shell_output_is_kept(make_deck: MakeDeck) -> None:
    deck = make_deck("[tools.shell]\nmax_output_bytes = 4000000\n")
    result = await deck.call(ToolCall("bash", {"command": "seq 1 200000"}))
    assert result.ok
    stored = await read_all(deck, overflow_id(result))
    # the shell reports its output without the final newline
    assert stored == "".join(f"{i}\n" for i in range(1, 200_001)).rstrip("\n")


async def test_another_session_or_a_malformed_id_finds_nothing(make_deck: MakeDeck) -> None:
    deck = make_deck(outputs={"big": generated(1000)})
    ident = overflow_id(await deck.call(ToolCall("sh", {"command": "big"}, caller_id="alice")))
    assert (await read_all(deck, ident, caller="alice")) == generated(1000)
    other_deck = make_deck()
    for reader, caller in ((deck, "bob"), (deck, None), (other_deck, None)):
        result = await reader.call(ToolCall("read_overflow", {"id": ident}, caller_id=caller))
        assert result.error is not None
        assert result.error.category is ErrorCategory.INVALID_PARAMETERS
        assert "not found" in result.error.message
    for bad in ("overflow:nope", "../../etc/passwd", "' OR 1=1 --", "overflow:" + "f" * 36):
        result = await deck.call(ToolCall("read_overflow", {"id": bad}, caller_id="alice"))
        assert result.error is not None and "not found" in result.error.message


async def test_a_filtered_output_keeps_its_unfiltered_text(make_deck: MakeDeck) -> None:
    compiled = "".join(f"   Compiling crate{i} v0.1.{i}\n" for i in range(300))
    secret = "ghp_" + "Q9w8E7r6" * 4 + "T5y4"
    text = compiled + f"token={secret}\n    Finished dev [unoptimized] target(s) in 9.1s\n"
    deck = make_deck(outputs={"cargo build": text})
    result = await deck.call(ToolCall("sh", {"command": "cargo build"}))
    assert result.ok and result.output is not None
    assert result.output.summary.count("Compiling") < 300, "the cargo rule shortened it"
    stored = await read_all(deck, overflow_id(result))
    assert stored.count("Compiling") == 300
    assert secret not in stored and "[REDACTED:github-token]" in stored


async def test_short_unfiltered_outputs_are_left_alone(make_deck: MakeDeck) -> None:
    deck = make_deck(outputs={"echo": "hello\n"})
    result = await deck.call(ToolCall("sh", {"command": "echo"}))
    assert result.output is not None and result.output.summary.rstrip() == "hello"
    assert "overflow_id" not in (result.output.raw_response or {})


FILTERS_OFF = "[tools.filters]\nenabled = false\n"
"""The filters would shorten the generated output (it is data past 150 lines)."""


@pytest.mark.parametrize("body", ["enabled = false\n", 'threshold = 200000\n'])
async def test_disabled_or_under_the_threshold(make_deck: MakeDeck, body: str) -> None:
    deck = make_deck(body + FILTERS_OFF, outputs={"big": generated(1000)})
    result = await deck.call(ToolCall("sh", {"command": "big"}))
    assert result.output is not None and result.output.summary == generated(1000).rstrip()


async def test_the_plugin_can_be_disabled(make_deck: MakeDeck) -> None:
    deck = make_deck(FILTERS_OFF, outputs={"big": generated(1000)})
    deck = Deck.from_config(deck.runtime.settings.document, extra_plugins={
        "canned": Canned({"big": generated(1000)})},
        environ={"TOOLDECK_PLUGINS_DISABLE": '["overflow"]'})
    assert "read_overflow" not in deck.runtime.tools
    result = await deck.call(ToolCall("sh", {"command": "big"}))
    assert result.output is not None and result.output.summary == generated(1000).rstrip()
    await deck.aclose()


def test_retention_and_the_byte_cap(tmp_path: Path) -> None:
    store = OverflowStore(tmp_path / "o.sqlite3", retention_days=1, max_bytes=250)
    old = store.put("s", "t", "a" * 100)
    assert old is not None
    with sqlite3.connect(tmp_path / "o.sqlite3") as db:
        db.execute("UPDATE tool_overflow SET created = created - 2 * 86400")
    kept = [store.put("s", "t", c * 100) for c in "bcd"]
    assert store.get("s", old) is None, "older than retention_days"
    assert store.get("s", kept[0] or "") is None, "the oldest goes over the byte cap"
    assert [store.get("s", k or "") for k in kept[1:]] == ["c" * 100, "d" * 100]
    assert store.put("s", "t", "e" * 251) is None, "alone over the cap: not stored"
    store.drop_scope("s")
    assert store.get("s", kept[2] or "") is None, "a session's rows go with it"
    store.close()
    assert (tmp_path / "o.sqlite3").stat().st_mode & 0o777 == 0o600


def test_ids_are_validated() -> None:
    assert parse_id("overflow:" + "0" * 32) == "00000000-0000-0000-0000-000000000000"
    assert parse_id("overflow:../x") is None and parse_id("") is None


WRITER = """
import sys
from pathlib import Path
from tooldeck.overflow_store import OverflowStore
store = OverflowStore(Path(sys.argv[1]), retention_days=0, max_bytes=0)
print(store.put("s", "t", "committed"), flush=True)
while True:
    store.put("s", "t", "y" * 2_000_000)
"""


def test_kill_9_during_writes_leaves_a_readable_database(tmp_path: Path) -> None:
    path = tmp_path / "o.sqlite3"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    ident = proc.stdout.readline().strip()
    time.sleep(0.3)  # in the middle of the big writes
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    store = OverflowStore(path, retention_days=0, max_bytes=0)
    assert store.get("s", ident) == "committed"
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store.close()


async def test_the_audit_log_records_every_read(make_deck: MakeDeck, tmp_path: Path) -> None:
    deck = make_deck(outputs={"big": generated(1000)})
    ident = overflow_id(await deck.call(ToolCall("sh", {"command": "big"})))
    await deck.call(ToolCall("read_overflow", {"id": ident}))
    records = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [r["tool"] for r in records if r.get("tool")] == ["sh", "read_overflow"]
