"""The per-call memo: a bash command is analysed once per call, and again on the next call."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import tooldeck.call_memo
from tooldeck import hookimpl
from tooldeck.call_memo import call_memo, shell_analysis
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.judge import judge_call
from tooldeck.models import ToolCall, ToolDef
from tooldeck.shell_analysis import CommandAnalysis

# the shell gate, the egress gate, the risk chain (it names kill) and the transactional
# executor (it writes out.txt) each need this command's analysis
COMMAND = "echo hi > out.txt; kill -0 $$"


@pytest.fixture
def analysed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every command the real analyzer is run on, through the memo."""
    seen: list[str] = []
    real = tooldeck.call_memo.analyze

    def counting(command: str, **kwargs: Any) -> CommandAnalysis:
        seen.append(command)
        return real(command, **kwargs)

    monkeypatch.setattr(tooldeck.call_memo, "analyze", counting)
    return seen


@pytest.fixture
def deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Deck:
    monkeypatch.chdir(tmp_path)
    return Deck.from_config(parse_document(
        f'[tools.audit]\npath = "{tmp_path / "audit.jsonl"}"\n'
        "[tools.shell]\ntransactional = true\n", None, "test"))


class Recorder:
    """A gate that asks for the call's analysis the way the built-in gates do."""

    def __init__(self) -> None:
        self.analyses: list[CommandAnalysis] = []

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef) -> None:
        if tool.id == "bash":
            self.analyses.append(shell_analysis(call.params["command"]))


def test_every_plugin_of_a_call_shares_one_analysis(deck: Deck, analysed: list[str]) -> None:
    result = deck.call_sync(ToolCall("bash", {"command": COMMAND}), confirm=True)
    assert result.ok, result.text
    assert (Path.cwd() / "out.txt").read_text() == "hi\n"  # the executor did run
    assert analysed == [COMMAND]
    deck.close()


def test_the_next_call_analyses_again(deck: Deck, analysed: list[str]) -> None:
    for _ in range(3):
        deck.call_sync(ToolCall("bash", {"command": COMMAND}), confirm=True)
    assert analysed == [COMMAND] * 3
    deck.close()


def test_judging_without_running_shares_the_analysis_too(deck: Deck,
                                                         analysed: list[str]) -> None:
    judge_call(deck.runtime, "bash", {"command": COMMAND})
    judge_call(deck.runtime, "bash", {"command": COMMAND})
    assert analysed == [COMMAND] * 2
    deck.close()


def test_concurrent_calls_do_not_share(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    recorder = Recorder()
    deck = Deck.from_config(parse_document(
        f'[tools.audit]\npath = "{tmp_path / "audit.jsonl"}"\n', None, "test"),
        extra_plugins={"recorder": recorder})

    async def both() -> None:
        await asyncio.gather(*(deck.call(ToolCall("bash", {"command": "true"}))
                               for _ in range(2)))
        await deck.aclose()

    asyncio.run(both())
    first, second = recorder.analyses
    assert first == second and first is not second


def test_outside_a_memo_each_request_is_analysed() -> None:
    assert shell_analysis("ls") is not shell_analysis("ls")


def test_a_memo_answers_the_same_question_once_and_a_nested_one_starts_empty() -> None:
    with call_memo():
        outer = shell_analysis("ls -la")
        assert shell_analysis("ls -la") is outer
        assert shell_analysis("ls -la", extra_wrappers=["mywrap"]) is not outer
        with call_memo():
            assert shell_analysis("ls -la") is not outer
        assert shell_analysis("ls -la") is outer
    assert shell_analysis("ls -la") is not outer
