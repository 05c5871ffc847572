"""Reload against decisions, as a hypothesis state machine over real files.

Rules write the config atomically, start an in-place save (truncate, then some 64-byte
chunks), go on with it, finish it, save an invalid file, reload, and decide calls. Time is
driven by the machine: the deck's settle wait lets an in-place save in progress write one
more chunk, which is the rule's premise (a writer pauses for less than the settle interval).
An atomic save is seen by the watcher before anyone writes the file in place again.

Invariants: every decision names the digest of a complete policy that was written, and the
command every policy denies never runs.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tooldeck.deck import Deck
from tooldeck.models import ToolCall

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

# the storm bench's echo tool and audit probe, shared rather than copied
from stress import Probe, digest  # type: ignore[import-not-found]

pytestmark = pytest.mark.timeout(60)

HEAD = "[plugins]\ndisable = ['shell', 'files', 'web', 'risk_chain', 'filters']\n\n"
DENY = '[[tools.permissions.echo]]\npattern = "forbidden*"\naction = "deny"\n\n'
NOTE = "".join(f"# a comment line {i} that a torn save may cut anywhere in\n" for i in range(3))
POLICIES = [
    HEAD + DENY + '[[tools.permissions.echo]]\npattern = "*"\naction = "allow"\n',
    HEAD + '[[tools.permissions.echo]]\npattern = "also*"\naction = "deny"\n\n' + DENY
    + NOTE + '[[tools.permissions.echo]]\npattern = "*"\naction = "allow"\n',
    HEAD + DENY + '[[tools.permissions.echo]]\npattern = "ok*"\naction = "allow"\n',
    HEAD + DENY,
]
INVALID = HEAD + DENY + '[[tools.permissions.echo]]\npattern = "*"\naction = "perhaps"\n'


class ReloadMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="reload-machine-"))
        self.config = self.dir / "tooldeck.toml"
        self.config.write_text(POLICIES[0])
        self.complete = {digest(POLICIES[0])}
        self.pending: list[bytes] = []
        self.pending_text = ""
        self.stalled = False
        self.probe = Probe()
        self.loop = asyncio.new_event_loop()
        self.deck = Deck.from_config(
            self.config, extra_plugins={"echo": self.probe},
            environ={"TOOLDECK_TOOLS_AUDIT_ENABLED": "false"}, settle_wait=self.settle)

    async def settle(self) -> None:
        """The settle interval passes: a save in progress writes (at least) one more chunk.

        Except a save that stalls after truncating: a zero-byte file is never a policy,
        however long it stays empty.
        """
        if self.pending and not (self.stalled and self.config.stat().st_size == 0):
            self.write_chunks(1)

    def write_chunks(self, count: int) -> None:
        if not self.pending:
            return
        with open(self.config, "r+b") as handle:
            handle.seek(0, os.SEEK_END)
            for _ in range(min(count, len(self.pending))):
                handle.write(self.pending.pop(0))
        if not self.pending:
            self.complete.add(digest(self.pending_text))

    def finish_any_save(self) -> None:
        self.write_chunks(len(self.pending))

    @rule(index=st.integers(0, len(POLICIES) - 1))
    def save_atomically(self, index: int) -> None:
        self.finish_any_save()
        staged = self.dir / ".tooldeck.toml.tmp"
        staged.write_text(POLICIES[index])
        os.replace(staged, self.config)
        self.complete.add(digest(POLICIES[index]))
        self.reload()  # the watcher sees the rename before anyone writes the file again

    @rule(index=st.integers(0, len(POLICIES) - 1), size=st.sampled_from([16, 32, 64]),
          chunks=st.integers(0, 12), stall=st.booleans())
    def start_saving_in_place(self, index: int, size: int, chunks: int, stall: bool) -> None:
        self.finish_any_save()
        data = POLICIES[index].encode()
        with open(self.config, "r+b") as handle:
            handle.truncate(0)
        self.pending = [data[i:i + size] for i in range(0, len(data), size)]
        self.pending_text = POLICIES[index]
        self.stalled = stall
        self.write_chunks(chunks)

    @precondition(lambda self: bool(self.pending))
    @rule(chunks=st.integers(1, 6))
    def go_on_saving(self, chunks: int) -> None:
        self.write_chunks(chunks)

    @rule()
    def save_invalid_in_place(self) -> None:
        self.finish_any_save()
        self.config.write_text(INVALID)

    @rule()
    def reload(self) -> None:
        self.loop.run_until_complete(self.deck.reload())

    @rule(text=st.sampled_from(["forbidden rm -rf /", "also this", "ok then", "hello"]))
    def decide(self, text: str) -> None:
        call = ToolCall("echo", {"text": text})
        self.loop.run_until_complete(self.deck.call(call, confirm=True))

    @invariant()
    def decisions_come_from_complete_policies(self) -> None:
        for event in self.probe.events:
            if event.kind == "tool_call":
                assert event.fields["policy"] in self.complete, event.fields
            elif event.kind in ("policy.reloaded", "policy.loosened"):
                assert event.fields["new_digest"] in self.complete, event.fields

    @invariant()
    def the_forbidden_command_never_runs(self) -> None:
        assert not [t for t in self.probe.ran if t.startswith("forbidden")]

    def teardown(self) -> None:
        self.loop.run_until_complete(self.deck.aclose())
        self.loop.close()
        shutil.rmtree(self.dir, ignore_errors=True)


ReloadMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=20,
                                           deadline=None)
test_reload_against_decisions = ReloadMachine.TestCase
