"""Fixtures for the shell plugin tests: decks, configs in tmp dirs, the CLI commands."""

from __future__ import annotations

import argparse
import itertools
import os
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.plugins.shell.cli import CheckBash, RunCommand


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory, made the current directory."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def write_config(tmp_path: Path) -> Callable[[str], Path]:
    """Write a tooldeck.toml (audit into the tmp dir) and return its path."""
    def write(body: str = "", *, default: bool = False) -> Path:
        path = tmp_path / "conf" / "tooldeck.toml"
        path.parent.mkdir(exist_ok=True)
        head = embedded_default_text() if default else ""
        path.write_text(f'{head}\n[tools.audit]\npath = "{tmp_path / "audit.jsonl"}"\n{body}')
        return path
    return write


@pytest.fixture
async def make_deck(sandbox: Path, write_config: Callable[..., Path]
                    ) -> AsyncIterator[Callable[..., Deck]]:
    """Build decks from config text; each is closed at the end of the test."""
    decks: list[Deck] = []

    def make(body: str = "", *, default: bool = False) -> Deck:
        deck = Deck.from_config(write_config(body, default=default), extra_plugins={})
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()


async def run(deck: Deck, command: str, *, confirm: Any = None, **params: Any) -> Any:
    """One bash call through the whole pipeline."""
    return await deck.call(ToolCall("bash", {"command": command, **params}), confirm=confirm)


def verdict_of(deck: Deck, command: str) -> tuple[str, str | None, str]:
    """(verdict, rule, gate) of the combined gate votes for a bash command."""
    from tooldeck.deck import combine_decisions

    runtime = deck.runtime
    tool = runtime.tools["bash"]
    call = ToolCall("bash", {"command": command, "background": False})
    decision = combine_decisions(runtime.hooks.check_call(call, tool, runtime))
    return decision.verdict.value, decision.rule, decision.gate


@pytest.fixture
def check_cli(sandbox: Path, capsys: pytest.CaptureFixture[str]
              ) -> Iterator[Callable[..., dict[str, Any]]]:
    """``tooldeck check bash CMD --json`` in-process, through the command object."""
    import json

    command = CheckBash({})

    def check(cmd: str, config: Path | None = None) -> dict[str, Any]:
        args = argparse.Namespace(shell_command=cmd, json=True,
                                  **({"config": str(config)} if config else {}))
        assert command.run(args) == 0
        out = capsys.readouterr().out
        data: dict[str, Any] = json.loads(out)
        return data

    yield check


@pytest.fixture
def run_cli(sandbox: Path) -> Callable[..., int]:
    """``tooldeck run`` in-process, through the command object."""
    command = RunCommand({})

    def go(*argv: str, yes: bool = False, config: Path | None = None, raw: bool = False,
           as_json: bool = False) -> int:
        args = argparse.Namespace(argv=list(argv), yes=yes, json=as_json, raw=raw,
                                  **({"config": str(config)} if config else {}))
        return command.run(args)

    return go


def live_pids_in(cwd: Path) -> set[int]:
    """Pids of live (non-zombie) processes other than this one whose directory is ``cwd``."""
    found: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            if os.readlink(f"/proc/{entry}/cwd") != str(cwd):
                continue
            with open(f"/proc/{entry}/stat", "rb") as handle:
                state = handle.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state != b"Z":
            found.add(int(entry))
    return found




def shell_vote(deck: Deck, command: str) -> Any:
    """The shell gate's own vote (a Decision) on a bash command."""
    from tooldeck.plugins.shell.gate import ShellGate

    runtime = deck.runtime
    gate = next(p for p in runtime.pm.get_plugins() if isinstance(p, ShellGate))
    call = ToolCall("bash", {"command": command, "background": False})
    return gate.tooldeck_check_call(call, runtime.tools["bash"], runtime)


async def _public_dns(host: str, port: int) -> Sequence[str]:
    return ["93.184.215.14"]


@pytest.fixture(scope="module")
def default_verdicts(tmp_path_factory: pytest.TempPathFactory
                     ) -> Iterator[Callable[[Sequence[str]], dict[str, str]]]:
    """Judge many bash commands with one deck built from the embedded default.

    The deck runs in a project of its own (made the current directory while the module's
    tests run); host names resolve to a public address. Each command gets its own caller,
    so the risk chain links none of them.
    """
    from tooldeck.config import parse_document
    from tooldeck.deck import combine_decisions
    from tooldeck.egress import use_resolver

    root = tmp_path_factory.mktemp("project")
    previous = Path.cwd()
    os.chdir(root)
    text = embedded_default_text() + "\n[tools.audit]\nenabled = false\n"
    deck = Deck.from_config(parse_document(text, root / "tooldeck.toml", "test"))
    use_resolver(deck.runtime.session, _public_dns)
    runtime = deck.runtime

    callers = itertools.count()  # one caller per command across calls: no chain links them

    def judge(commands: Sequence[str]) -> dict[str, str]:
        verdicts = {}
        for command in commands:
            call = ToolCall("bash", {"command": command}, caller_id=f"c{next(callers)}")
            decision = combine_decisions(
                runtime.hooks.check_call(call, runtime.tools["bash"], runtime))
            verdicts[command] = decision.verdict.value
        return verdicts

    try:
        yield judge
    finally:
        deck.close()
        os.chdir(previous)


@pytest.fixture
def helpers() -> Any:
    """The module-level helpers, for tests (importlib mode cannot import conftest)."""
    class Helpers:
        run = staticmethod(run)
        verdict_of = staticmethod(verdict_of)
        shell_vote = staticmethod(shell_vote)
        live_pids_in = staticmethod(live_pids_in)
        extra: dict[str, object] = {}
    return Helpers
