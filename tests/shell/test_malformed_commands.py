"""Commands no shell could run, and commands too costly to analyse, through every entry point.

A NUL byte or a lone surrogate is a clean deny from the shell gate (``tooldeck check bash``,
the gate's own vote, ``deck.call``), never an executor crash. Malformed input whose parse used
to take tens of seconds is judged in bounded time and asked about.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory
from tooldeck.models import Verdict

REFUSED = [
    ("echo a\x00b", "NUL byte"),
    ("echo a\ud800b", "lone surrogate U+D800"),
    ("cat \udcff", "lone surrogate U+DCFF"),
]
DANGLING_PIPE = "a|" * 20_000 + "|"
"""40 KB ending in a dangling ``|``: about 7 s of tree-sitter error recovery without a budget."""


@pytest.mark.parametrize(("command", "what"), REFUSED)
def test_check_bash_denies(check_cli: Any, write_config: Any, command: str, what: str) -> None:
    data = check_cli(command, write_config(default=True))
    assert (data["verdict"], data["gate"], data["rule"]) == ("deny", "shell", "command")
    assert what in data["reason"]
    assert data["opaque"] is True and data["segments"] == []


@pytest.mark.parametrize(("command", "what"), REFUSED)
async def test_the_gate_votes_deny(make_deck: Any, helpers: Any, command: str,
                                   what: str) -> None:
    vote = helpers.shell_vote(make_deck(default=True), command)
    assert (vote.verdict, vote.rule) == (Verdict.DENY, "command")
    assert what in vote.reason


@pytest.mark.parametrize(("command", "what"), REFUSED)
async def test_a_call_is_blocked_not_crashed(make_deck: Any, helpers: Any, command: str,
                                             what: str) -> None:
    result = await helpers.run(make_deck(default=True), command, confirm=True)
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
    assert what in result.error.message


def test_check_bash_on_a_40kb_dangling_pipe_is_quick(check_cli: Any, write_config: Any) -> None:
    config = write_config(default=True)
    start = time.perf_counter()
    data = check_cli(DANGLING_PIPE, config)
    # a whole CLI process on a loaded CI machine; the bound only has to tell "bounded" from hung
    assert time.perf_counter() - start < 10.0
    assert (data["verdict"], data["rule"]) == ("ask", "opaque")
    assert "command too complex to analyse" in data["reason"]


async def test_the_gate_asks_on_a_40kb_dangling_pipe(make_deck: Any, helpers: Any) -> None:
    deck = make_deck(default=True)
    start = time.perf_counter()
    vote = helpers.shell_vote(deck, DANGLING_PIPE)
    assert time.perf_counter() - start < 2.0
    assert (vote.verdict, vote.rule) == (Verdict.ASK, "opaque")
