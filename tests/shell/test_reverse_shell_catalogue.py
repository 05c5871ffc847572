"""Every reverse shell of InternalAllTheThings' cheat sheet is denied by the default policy.

``data/iatt_reverse_shells.tsv`` holds the victim-side commands of the cheat sheet (source
and commit in its first line), the attacker's address replaced by ``attacker.example``, a
name that resolves to a public address here: the shells must be denied by what they do
(a shell on a socket, code that connects and spawns, a download that runs), not because
the address is private.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tooldeck.config import embedded_default_text, parse_document
from tooldeck.deck import Deck, combine_decisions
from tooldeck.egress import use_resolver
from tooldeck.models import ToolCall

DATA = Path(__file__).with_name("data") / "iatt_reverse_shells.tsv"


async def _public(host: str, port: int) -> Sequence[str]:
    return ["93.184.215.14"]


def test_every_reverse_shell_of_the_cheat_sheet_is_denied(tmp_path: Path) -> None:
    lines = DATA.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# swisskyrepo/InternalAllTheThings@")
    commands = [line.split("\t", 1)[1] for line in lines[2:]]
    assert len(commands) > 50
    previous = Path.cwd()
    os.chdir(tmp_path)
    try:
        text = embedded_default_text() + "\n[tools.audit]\nenabled = false\n"
        deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))
        use_resolver(deck.runtime.session, _public)
        runtime = deck.runtime
        verdicts = {}
        for number, command in enumerate(commands):
            call = ToolCall("bash", {"command": command}, caller_id=f"row{number}")
            decision = combine_decisions(runtime.hooks.check_call(call, runtime.tools["bash"],
                                                                  runtime))
            verdicts[command] = decision.verdict.value
        deck.close()
    finally:
        os.chdir(previous)
    assert {c: v for c, v in verdicts.items() if v != "deny"} == {}
