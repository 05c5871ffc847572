"""Approvals as data: an ``ask`` deferred in one process, resolved in another, run once.

Real parts: the real ``bash`` tool appends a line to a file each time it runs, the store is
the real SQLite file in the (per-test) user data directory, and approvals are resolved by
``tooldeck approvals`` running as a subprocess against that same data directory.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.approvals import ApprovalError, ApprovalStore, parse_approval_id
from tooldeck.deck import DEFER, Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import Decision, ToolCall, Verdict

ASK_ECHO = '[[tools.permissions.bash]]\npattern = "echo *"\naction = "ask"\n'
DENY_ECHO = '[[tools.permissions.bash]]\npattern = "echo *"\naction = "deny"\n'


class FakeClock:
    """Epoch seconds that move only when the test says so (from now: the CLI's clock is real)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def _no_wait() -> None:
    return None


@pytest.fixture
def config(in_tmp: Path) -> Path:
    """The policy, in the working directory (the shell's sandbox root)."""
    path = in_tmp / "tooldeck.toml"
    path.write_text(ASK_ECHO)
    return path


def _deck(config: Path, clock: FakeClock | None = None) -> Deck:
    if clock is None:
        return Deck.from_config(config, settle_wait=_no_wait)
    return Deck.from_config(config, settle_wait=_no_wait, clock=clock)


def _echo(out: Path, word: str = "ran", caller: str = "session-1") -> ToolCall:
    return ToolCall("bash", {"command": f"echo {word} >> {out.name}"}, caller_id=caller)


def _cli(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``tooldeck approvals ...`` in a second process, same user data directory."""
    return subprocess.run(
        [str(Path(sys.executable).parent / "tooldeck"), "approvals", *args, "--config", str(config),
         "--json"], capture_output=True, text=True, env=dict(os.environ), timeout=60)


def _lines(out: Path) -> list[str]:
    return out.read_text().splitlines() if out.exists() else []


async def test_deferred_in_one_process_approved_in_another_runs_once(
        config: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    deck = _deck(config)
    try:
        asked = await deck.call(_echo(out), confirm=DEFER)
        assert asked.error is not None
        assert asked.error.category is ErrorCategory.CONFIRMATION_REQUIRED
        assert asked.approval_id is not None and asked.approval_id in asked.error.message
        assert _lines(out) == []

        listed = _cli(config, "list")
        assert listed.returncode == 0, listed.stderr
        shown = json.loads(listed.stdout)
        assert [r["id"] for r in shown] == [asked.approval_id]
        assert shown[0]["decision"]["rule"] == "tools.permissions.bash[0]"
        assert shown[0]["caller_id"] == "session-1"
        assert "params" not in shown[0]  # the exact parameters stay in the store

        approved = _cli(config, "approve", asked.approval_id)
        assert approved.returncode == 0, approved.stderr
        assert json.loads(approved.stdout)["status"] == "approved"

        ran = await deck.resume(asked.approval_id)
        assert ran.ok, ran.text
        assert ran.approval_id == asked.approval_id
        assert ran.approved_by is not None
        assert ran.approved_by.startswith(f"approval:{asked.approval_id} (cli:")
        assert _lines(out) == ["ran"]

        with pytest.raises(ApprovalError, match="resumed already"):
            await deck.resume(asked.approval_id)
    finally:
        await deck.aclose()

    # a second process cannot run it either
    script = textwrap.dedent(f"""
        import asyncio, sys
        from tooldeck.approvals import ApprovalError
        from tooldeck.deck import Deck
        async def main():
            deck = Deck.from_config({str(config)!r})
            try:
                await deck.resume({asked.approval_id!r})
            except ApprovalError as exc:
                print(exc); sys.exit(3)
            finally:
                await deck.aclose()
        asyncio.run(main())
    """)
    other = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=dict(os.environ), timeout=60)
    assert other.returncode == 3, other.stdout + other.stderr
    assert "resumed already" in other.stdout
    assert _lines(out) == ["ran"]
    audit = [json.loads(line) for line in
             (Path(os.environ["XDG_DATA_HOME"]) / "tooldeck" / "audit.jsonl").read_text()
             .splitlines()]
    kinds = [(r["kind"], r.get("approval_id"), r.get("error_category")) for r in audit]
    assert kinds == [("tool_call", asked.approval_id, "confirmation_required"),
                     ("approval.approved", asked.approval_id, None),
                     ("tool_call", asked.approval_id, None)]


async def test_an_approval_the_policy_has_since_denied_does_not_run(
        config: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    deck = _deck(config)
    try:
        asked = await deck.call(_echo(out), confirm=DEFER)
        assert asked.approval_id is not None
        deck.approvals.approve(asked.approval_id, by="alice")
        config.write_text(DENY_ECHO)
        assert await deck.reload()
        result = await deck.resume(asked.approval_id)
        assert result.error is not None
        assert result.error.category is ErrorCategory.POLICY_BLOCKED
        assert result.approval_id == asked.approval_id
        assert _lines(out) == []
    finally:
        await deck.aclose()


async def test_an_expired_approval_fails_closed(config: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    clock = FakeClock()
    deck = _deck(config, clock)
    try:
        late = await deck.call(_echo(out, "late"), confirm=DEFER)
        early = await deck.call(_echo(out, "early"), confirm=DEFER)
        assert late.approval_id is not None and early.approval_id is not None
        deck.approvals.approve(early.approval_id, by="alice")
        clock.now += 3600  # the default expiry_secs
        with pytest.raises(ApprovalError, match="expired"):
            deck.approvals.approve(late.approval_id, by="alice")
        with pytest.raises(ApprovalError, match="expired"):
            await deck.resume(early.approval_id)
        assert deck.approvals.pending() == []
        assert _lines(out) == []
    finally:
        await deck.aclose()


async def test_a_command_grant_allows_the_same_command_again_and_nothing_else(
        config: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    clock = FakeClock()
    deck = _deck(config, clock)
    try:
        asked = await deck.call(_echo(out), confirm=DEFER)
        assert asked.approval_id is not None
        deck.approvals.approve(asked.approval_id, by="alice", scope="command")
        assert (await deck.resume(asked.approval_id)).ok

        again = await deck.call(_echo(out))  # no confirmation callback at all
        assert again.ok, again.text
        assert again.approved_by is not None and again.approved_by.startswith("grant:command:")

        other = await deck.call(_echo(out, "other"))
        assert other.error is not None
        assert other.error.category is ErrorCategory.CONFIRMATION_REQUIRED
        someone_else = await deck.call(_echo(out, caller="session-2"))
        assert someone_else.error is not None
        assert someone_else.error.category is ErrorCategory.CONFIRMATION_REQUIRED

        clock.now += 3600  # the default grant_ttl_secs
        expired = await deck.call(_echo(out))
        assert expired.error is not None
        assert expired.error.category is ErrorCategory.CONFIRMATION_REQUIRED
        assert _lines(out) == ["ran", "ran"]
    finally:
        await deck.aclose()


async def test_a_rule_grant_allows_what_the_same_rule_asks_for_this_caller_only(
        config: Path, tmp_path: Path) -> None:
    config.write_text(ASK_ECHO + '\n[[tools.permissions.bash]]\npattern = "printf *"\n'
                      'action = "ask"\n')
    out = tmp_path / "out.txt"
    deck = _deck(config)
    try:
        asked = await deck.call(_echo(out), confirm=DEFER)
        assert asked.approval_id is not None
        deck.approvals.approve(asked.approval_id, by="alice", scope="rule")
        assert (await deck.resume(asked.approval_id)).ok
        same_rule = await deck.call(_echo(out, "second"))
        assert same_rule.ok, same_rule.text
        assert same_rule.approved_by is not None
        assert same_rule.approved_by.startswith("grant:rule:")
        other_rule = await deck.call(ToolCall(
            "bash", {"command": f"printf x >> {out.name}"}, caller_id="session-1"))
        assert other_rule.error is not None
        assert other_rule.error.category is ErrorCategory.CONFIRMATION_REQUIRED
        other_caller = await deck.call(_echo(out, "third", caller="session-2"))
        assert other_caller.error is not None
        assert _lines(out) == ["ran", "second"]
    finally:
        await deck.aclose()


async def test_a_denied_approval_resumes_as_cancelled_once(config: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    deck = _deck(config)
    try:
        asked = await deck.call(_echo(out), confirm=DEFER)
        assert asked.approval_id is not None
        denied = _cli(config, "deny", asked.approval_id, "--reason", "not today")
        assert denied.returncode == 0, denied.stderr
        with pytest.raises(ApprovalError, match="denied already"):
            deck.approvals.approve(asked.approval_id, by="alice")
        result = await deck.resume(asked.approval_id)
        assert result.error is not None
        assert result.error.category is ErrorCategory.CANCELLED
        assert "not today" in result.error.message
        assert result.approval_id == asked.approval_id
        with pytest.raises(ApprovalError):
            await deck.resume(asked.approval_id)
        assert _lines(out) == []
    finally:
        await deck.aclose()


async def test_unknown_malformed_and_pending_ids_are_clear_errors(
        config: Path, tmp_path: Path) -> None:
    deck = _deck(config)
    try:
        with pytest.raises(ApprovalError, match="not an approval id"):
            await deck.resume("'; DROP TABLE approvals; --")
        with pytest.raises(ApprovalError, match="no approval"):
            await deck.resume(str(uuid.uuid4()))
        asked = await deck.call(_echo(tmp_path / "out.txt"), confirm=DEFER)
        assert asked.approval_id is not None
        with pytest.raises(ApprovalError, match="still pending"):
            await deck.resume(asked.approval_id)
        with pytest.raises(ApprovalError, match="unknown scope"):
            deck.approvals.approve(asked.approval_id, by="x", scope="everything")
        bad = _cli(config, "approve", "not-an-id")
        assert bad.returncode == 1 and "not an approval id" in bad.stderr
        assert [r.id for r in deck.approvals.pending()] == [asked.approval_id]
    finally:
        await deck.aclose()


def test_the_store_is_private_to_its_owner(config: Path, tmp_path: Path) -> None:
    deck = _deck(config)
    try:
        result = deck.call_sync(_echo(tmp_path / "out.txt"), confirm=DEFER)
        assert result.approval_id is not None
        mode = deck.approvals.path.stat().st_mode & 0o777
        assert mode == 0o600
        assert deck.approvals.path.parent.stat().st_mode & 0o077 == 0
    finally:
        deck.close()


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=40))
def test_only_uuids_parse_as_approval_ids(text: str) -> None:
    try:
        canonical = parse_approval_id(text)
    except ApprovalError:
        return
    assert canonical == str(uuid.UUID(text.strip()))


async def test_a_rule_grant_does_not_cover_a_second_gate_that_also_asks(
        config: Path, tmp_path: Path) -> None:
    deck = _deck(config)
    try:
        call = _echo(tmp_path / "out.txt")
        asked = await deck.call(call, confirm=DEFER)
        assert asked.approval_id is not None and asked.decision is not None
        deck.approvals.approve(asked.approval_id, by="alice", scope="rule")
        other = Decision(Verdict.ASK, "egress asks", gate="egress", rule="egress.unknown")
        assert deck.approvals.find_grant(call, [asked.decision]) is not None
        assert deck.approvals.find_grant(call, [asked.decision, other]) is None
    finally:
        await deck.aclose()


def test_concurrent_claims_from_separate_connections_let_exactly_one_run(
        config: Path, tmp_path: Path) -> None:
    deck = _deck(config)
    try:
        asked = deck.call_sync(_echo(tmp_path / "out.txt"), confirm=DEFER)
        assert asked.approval_id is not None
        deck.approvals.approve(asked.approval_id, by="alice")
        path = deck.approvals.path
    finally:
        deck.close()
    stores = [ApprovalStore(path, expiry_secs=60, grant_ttl_secs=60) for _ in range(6)]
    start = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def claim(store: ApprovalStore) -> None:
        start.wait()
        try:
            store.claim(asked.approval_id or "")
            outcomes.append("claimed")
        except ApprovalError as exc:
            outcomes.append(str(exc))
        finally:
            store.close()

    threads = [threading.Thread(target=claim, args=(s,)) for s in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("claimed") == 1
    assert all("resumed already" in o for o in outcomes if o != "claimed")


def test_a_symlinked_store_is_refused_and_nothing_is_kept(config: Path, tmp_path: Path) -> None:
    deck = _deck(config)
    try:
        target = tmp_path / "elsewhere.sqlite3"
        target.write_bytes(b"")
        deck.approvals.path.parent.mkdir(parents=True, exist_ok=True)
        deck.approvals.path.symlink_to(target)
        result = deck.call_sync(_echo(tmp_path / "out.txt"), confirm=DEFER)
        assert result.error is not None
        assert result.error.category is ErrorCategory.CONFIRMATION_REQUIRED
        assert result.approval_id is None
        assert "could not be kept" in result.error.message
        assert target.read_bytes() == b""
    finally:
        deck.close()


_ASK = Decision(Verdict.ASK, "asks", gate="permissions", rule="tools.permissions.bash[0]",
                source="tooldeck.toml", pattern="echo *", line=1)
_callers = st.one_of(st.none(), st.text(max_size=8))
_commands = st.text(max_size=12)


@settings(max_examples=60, deadline=None)
@given(granted=st.tuples(_callers, _commands), asked=st.tuples(_callers, _commands))
def test_a_command_grant_covers_exactly_its_caller_and_parameters(
        granted: tuple[str | None, str], asked: tuple[str | None, str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = ApprovalStore(Path(folder) / "a.sqlite3", expiry_secs=60, grant_ttl_secs=60)
        try:
            call = ToolCall("bash", {"command": granted[1]}, caller_id=granted[0])
            store.approve(store.create(call, None, _ASK), by="alice", scope="command")
            again = ToolCall("bash", {"command": asked[1]}, caller_id=asked[0])
            same = (granted[0] or "", granted[1]) == (asked[0] or "", asked[1])
            assert (store.find_grant(again, [_ASK]) is not None) is same
            assert store.find_grant(ToolCall("read", {"command": granted[1]},
                                             caller_id=granted[0]), [_ASK]) is None
            json.dumps(store.records()[0].public(), ensure_ascii=False).encode("utf-8")
        finally:
            store.close()


async def test_an_approval_answers_only_the_input_it_was_given_for(
        config: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    deck = _deck(config)
    try:
        asked = await deck.call(_echo(out), confirm=DEFER)
        assert asked.approval_id is not None
        deck.approvals.approve(asked.approval_id, by="alice")
        # the stored input no longer matches what validation makes of it (a tool whose
        # parameters changed meanwhile): the approval does not answer the new input
        with sqlite3.connect(deck.approvals.path) as db:
            db.execute("UPDATE approvals SET params=? WHERE id=?",
                       (json.dumps({"command": "echo ran >> out.txt"}), asked.approval_id))
        result = await deck.resume(asked.approval_id)
        assert result.error is not None
        assert result.error.category is ErrorCategory.CONFIRMATION_REQUIRED
        assert "different input" in result.error.message
        assert _lines(out) == []
    finally:
        await deck.aclose()
