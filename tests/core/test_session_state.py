"""Deck session state: shared by every runtime of a deck, closed with the deck."""

from __future__ import annotations

from pathlib import Path

from tooldeck.deck import Deck
from tooldeck.runtime import SessionState, StashKey

COUNTER = StashKey[list[int]]("test.counter")


class Closable:
    def __init__(self, log: list[str], name: str, *, fail: bool = False) -> None:
        self.log, self.name, self.fail = log, name, fail

    async def aclose(self) -> None:
        self.log.append(self.name)
        if self.fail:
            raise RuntimeError("boom")


def test_setdefault_builds_once() -> None:
    session = SessionState()
    calls: list[int] = []

    def factory() -> list[int]:
        calls.append(1)
        return []

    first = session.setdefault(COUNTER, factory)
    first.append(5)
    assert session.setdefault(COUNTER, factory) == [5]
    assert calls == [1]


async def test_aclose_closes_every_value_even_after_a_failure(capsys: object) -> None:
    session = SessionState()
    log: list[str] = []
    session.setdefault(StashKey[Closable]("a"), lambda: Closable(log, "a", fail=True))
    session.setdefault(StashKey[Closable]("b"), lambda: Closable(log, "b"))
    session.setdefault(COUNTER, list)  # no aclose: left alone
    await session.aclose()
    assert log == ["a", "b"]
    assert "closing session state 'a' failed" in capsys.readouterr().err  # type: ignore[attr-defined]
    await session.aclose()  # idempotent: everything was dropped
    assert log == ["a", "b"]


async def test_reload_keeps_the_session_and_aclose_closes_it(tmp_path: Path) -> None:
    config = tmp_path / "tooldeck.toml"
    config.write_text(f'[tools.audit]\npath = "{tmp_path / "audit.jsonl"}"\n')
    deck = Deck.from_config(config, extra_plugins={})
    log: list[str] = []
    kept = deck.runtime.session.setdefault(StashKey[Closable]("job"), lambda: Closable(log, "job"))
    config.write_text(config.read_text() + "# touched\n")
    old = deck.runtime
    assert await deck.reload()
    assert deck.runtime is not old
    assert deck.runtime.session is old.session
    assert deck.runtime.session.setdefault(StashKey[Closable]("job"), list) is kept  # type: ignore[arg-type]
    assert log == []  # the retired runtime did not close deck state
    await deck.aclose()
    assert log == ["job"]
