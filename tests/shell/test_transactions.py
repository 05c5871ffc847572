"""Transactional execution (zeph-test-cases §1.10): snapshot, rollback, fail closed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory
from tooldeck.paths import compile_glob
from tooldeck.plugins.shell.transaction import SnapshotError, take_snapshot
from tooldeck.shell_analysis import analyze

TX = "[tools.shell]\ntransactional = true\nauto_rollback = true\n"


def test_capture_and_rollback_restores_content(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_bytes(b"original")
    snapshot = take_snapshot([str(target)], roots=[tmp_path], scope=[], max_bytes=0)
    target.write_bytes(b"modified")
    report = snapshot.rollback()
    snapshot.discard()
    assert target.read_bytes() == b"original" and (report.restored, report.deleted) == (1, 0)


def test_capture_missing_then_rollback_deletes(tmp_path: Path) -> None:
    target = tmp_path / "new.txt"
    snapshot = take_snapshot([str(target)], roots=[tmp_path], scope=[], max_bytes=0)
    target.write_text("created")
    assert snapshot.rollback().deleted == 1 and not target.exists()


def test_capture_nothing(tmp_path: Path) -> None:
    snapshot = take_snapshot([], roots=[tmp_path], scope=[], max_bytes=0)
    report = snapshot.rollback()
    assert (snapshot.size, len(snapshot.entries), report.restored, report.deleted) == (0, 0, 0, 0)


def test_size_limit(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.write_bytes(b"x" * 100)
    with pytest.raises(SnapshotError, match="exceeds limit"):
        take_snapshot([str(big)], roots=[tmp_path], scope=[], max_bytes=50)
    small = tmp_path / "small"
    small.write_bytes(b"hello")
    assert take_snapshot([str(small)], roots=[tmp_path], scope=[], max_bytes=1024).size == 5
    mega = tmp_path / "mega"
    mega.write_bytes(b"x" * 1_000_000)
    assert take_snapshot([str(mega)], roots=[tmp_path], scope=[], max_bytes=0).size == 1_000_000


def test_scope_filters_targets(tmp_path: Path) -> None:
    rust, text = tmp_path / "main.rs", tmp_path / "backup.txt"
    snapshot = take_snapshot([str(rust), str(text)], roots=[tmp_path],
                             scope=[compile_glob("*.rs")], max_bytes=0)
    assert snapshot.targets == (str(rust),)


@pytest.mark.parametrize("command", [
    "echo hello > out.txt", "echo hello >> out.txt", "rm old.txt", "mv src dst", "cp a b",
    "sed -i 's/a/b/' file", "touch new.txt", "mkdir newdir", "tee output.log",
])
def test_write_commands(command: str) -> None:
    assert analyze(command).writes


@pytest.mark.parametrize("command", [
    "ls -la", "cat file.txt", "grep pattern file", "echo hello", "pwd", "wc -l file.txt",
])
def test_read_commands(command: str) -> None:
    assert not analyze(command).writes


@pytest.mark.parametrize(("command", "targets"), [
    ("echo x > file.txt", ["file.txt"]),
    ("cmd >> log 2> err.txt", ["log", "err.txt"]),
    ("cmd 2>> stderr.log &> combined.log", ["stderr.log", "combined.log"]),
])
def test_redirect_targets(command: str, targets: list[str]) -> None:
    assert list(analyze(command).write_targets) == targets


async def test_failing_write_is_rolled_back_byte_exact(make_deck: Any, helpers: Any,
                                                       sandbox: Path) -> None:
    original = bytes(range(256)) * 4 + b"\r\n\x00tail"
    target = sandbox / "data.bin"
    target.write_bytes(original)
    os.chmod(target, 0o640)
    result = await helpers.run(make_deck(TX), "echo modified > data.bin && exit 2")
    assert target.read_bytes() == original and (target.stat().st_mode & 0o777) == 0o640
    assert result.output.raw_response["rollback"] == {"restored": 1, "deleted": 0,
                                                      "unrestored": []}
    assert "[rollback] exit code 2: restored 1, deleted 0" in result.output.summary
    audit = sandbox.parent / "audit.jsonl"
    last = json.loads(audit.read_text().splitlines()[-1])
    assert last["result"] == {"type": "rollback", "restored": 1, "deleted": 0}


async def test_created_file_is_deleted_on_rollback(make_deck: Any, helpers: Any,
                                                   sandbox: Path) -> None:
    result = await helpers.run(make_deck(TX), "echo x > fresh.txt; exit 5")
    assert not (sandbox / "fresh.txt").exists()
    assert result.output.raw_response["rollback"] == {"restored": 0, "deleted": 1,
                                                      "unrestored": []}


async def test_directory_is_restored(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    tree = sandbox / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "a.txt").write_text("a")
    result = await helpers.run(make_deck(TX), "rm -r tree/sub; exit 3", confirm=True)
    assert (tree / "sub" / "a.txt").read_text() == "a"
    assert result.output.raw_response["rollback"]["restored"] == 1


@pytest.mark.parametrize(("command", "rolled_back"), [
    ("echo modified > f.txt", False),
    ("echo modified > f.txt; exit 1", False),
    ("echo modified > f.txt; exit 2", True),
])
async def test_default_threshold(make_deck: Any, helpers: Any, sandbox: Path, command: str,
                                 rolled_back: bool) -> None:
    (sandbox / "f.txt").write_text("original\n")
    await helpers.run(make_deck(TX), command)
    assert ((sandbox / "f.txt").read_text() == "original\n") is rolled_back


@pytest.mark.parametrize(("code", "rolled_back"), [(2, False), (42, True)])
async def test_explicit_exit_codes(make_deck: Any, helpers: Any, sandbox: Path, code: int,
                                   rolled_back: bool) -> None:
    (sandbox / "f.txt").write_text("original\n")
    deck = make_deck(TX + "auto_rollback_exit_codes = [42]\n")
    await helpers.run(deck, f"echo modified > f.txt; exit {code}")
    assert ((sandbox / "f.txt").read_text() == "original\n") is rolled_back


async def test_not_transactional_is_not_restored(make_deck: Any, helpers: Any,
                                                 sandbox: Path) -> None:
    (sandbox / "f.txt").write_text("original\n")
    deck = make_deck("[tools.shell]\nauto_rollback = true\n")
    await helpers.run(deck, "echo modified > f.txt; exit 2")
    assert (sandbox / "f.txt").read_text() == "modified\n"


async def test_scope_limits_the_rollback(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    (sandbox / "a.rs").write_text("rust\n")
    (sandbox / "b.txt").write_text("text\n")
    deck = make_deck(TX + 'transaction_scope = ["*.rs"]\n')
    await helpers.run(deck, "echo x > a.rs; echo x > b.txt; exit 2")
    assert (sandbox / "a.rs").read_text() == "rust\n"
    assert (sandbox / "b.txt").read_text() == "x\n"


async def test_over_limit_with_snapshot_required_fails_closed(make_deck: Any, helpers: Any,
                                                              sandbox: Path) -> None:
    (sandbox / "big.txt").write_bytes(b"x" * 100)
    deck = make_deck(TX + "snapshot_required = true\nmax_snapshot_bytes = 50\n")
    result = await helpers.run(deck, "echo changed > big.txt")
    assert result.error.category is ErrorCategory.PERMANENT_FAILURE
    assert result.error.message.startswith("snapshot failed: snapshot size 100 exceeds limit 50")
    assert (sandbox / "big.txt").read_bytes() == b"x" * 100  # the command never ran


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads unreadable files")
@pytest.mark.parametrize("required", [False, True])
async def test_unreadable_file(make_deck: Any, helpers: Any, sandbox: Path,
                               required: bool) -> None:
    locked = sandbox / "locked.txt"
    locked.write_text("secret")
    locked.chmod(0)
    deck = make_deck(TX + f"snapshot_required = {str(required).lower()}\n")
    result = await helpers.run(deck, "touch locked.txt")
    if required:
        assert result.error.message.startswith("snapshot failed:")
    else:
        assert result.output.summary.startswith("[warn] snapshot failed:")


async def test_unusable_snapshot_warns_without_required(make_deck: Any, helpers: Any,
                                                        sandbox: Path) -> None:
    (sandbox / "big.txt").write_bytes(b"x" * 100)
    deck = make_deck(TX + "max_snapshot_bytes = 50\n")
    result = await helpers.run(deck, "echo changed > big.txt")
    assert result.output.summary.startswith("[warn] snapshot failed: snapshot size 100")
    assert "rollback unavailable" in result.output.raw_response["snapshot_warning"]


async def test_rollback_noted_on_classified_error(make_deck: Any, helpers: Any,
                                                  sandbox: Path) -> None:
    (sandbox / "f.txt").write_text("original\n")
    result = await helpers.run(make_deck(TX), "echo x > f.txt; exit 127")
    assert result.error.category is ErrorCategory.PERMANENT_FAILURE
    assert "[rollback] exit code 127: restored 1" in result.error.message
    assert (sandbox / "f.txt").read_text() == "original\n"


async def test_timeout_rolls_back(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    (sandbox / "f.txt").write_text("original\n")
    deck = make_deck(TX + "timeout = 0.5\n")
    result = await helpers.run(deck, "echo modified > f.txt; sleep 30")
    assert result.error.category is ErrorCategory.TIMEOUT
    assert "[rollback]" in result.error.message
    assert (sandbox / "f.txt").read_text() == "original\n"


async def test_invalid_scope_glob_is_a_config_error(make_deck: Any) -> None:
    from tooldeck.errors import ConfigError

    with pytest.raises(ConfigError, match="transaction_scope"):
        make_deck(TX + 'transaction_scope = ["src/[oops"]\n')


# ----------------------------------------------------------------- issue 11: rollback safety


async def test_rename_out_of_scope_never_deletes_the_only_copy(make_deck: Any, helpers: Any,
                                                               sandbox: Path) -> None:
    (sandbox / "notes.txt").write_bytes(b"the only copy\n")
    deck = make_deck(TX + 'transaction_scope = ["*.rs"]\n')
    result = await helpers.run(deck, "mv notes.txt notes.rs; exit 2")
    assert (sandbox / "notes.rs").read_bytes() == b"the only copy\n"
    rollback = result.output.raw_response["rollback"]
    assert rollback["deleted"] == 0
    assert [item.split(": ")[0] for item in rollback["unrestored"]] == [str(sandbox / "notes.rs")]
    assert "[rollback incomplete]" in result.output.summary
    assert "NOT restored 1" in result.output.summary


async def test_rename_restores_old_name_and_removes_new(make_deck: Any, helpers: Any,
                                                        sandbox: Path) -> None:
    (sandbox / "old.txt").write_bytes(b"tracked\n")
    os.chmod(sandbox / "old.txt", 0o604)
    result = await helpers.run(make_deck(TX), "mv old.txt new.txt; exit 2")
    assert (sandbox / "old.txt").read_bytes() == b"tracked\n"
    assert (sandbox / "old.txt").stat().st_mode & 0o777 == 0o604
    assert not (sandbox / "new.txt").exists()
    assert result.output.raw_response["rollback"] == {"restored": 1, "deleted": 1,
                                                      "unrestored": []}


async def test_directory_swapped_for_symlink_is_not_followed(make_deck: Any, helpers: Any,
                                                             sandbox: Path) -> None:
    outside = sandbox.parent / "outside"
    outside.mkdir()
    (sandbox / "d").mkdir()
    (sandbox / "d" / "f.txt").write_bytes(b"original\n")
    swap = (f"import os; os.rename('d', 'd.moved'); os.symlink({str(outside)!r}, 'd')")
    command = f'echo new > d/f.txt; python3 -c "{swap}"; exit 2'
    result = await helpers.run(make_deck(TX), command, confirm=True)
    assert list(outside.iterdir()) == []  # nothing was written outside the root
    assert os.readlink(sandbox / "d") == str(outside)
    summary = result.output.summary
    assert "[rollback incomplete]" in summary and "symlink" in summary
    assert "not captured: 'python3' may write" in summary
    unrestored = result.output.raw_response["rollback"]["unrestored"]
    assert unrestored[0].startswith(f"{sandbox / 'd' / 'f.txt'}: not restored")
    last = json.loads((sandbox.parent / "audit.jsonl").read_text().splitlines()[-1])
    assert last["result"]["type"] == "rollback"
    assert last["result"]["unrestored"] == unrestored


async def test_uncovered_write_asks_in_a_transaction(make_deck: Any, helpers: Any,
                                                     sandbox: Path) -> None:
    deck = make_deck(TX)
    for command in ('rm "$f"', "cd sub && rm a", "ls | xargs rm", "find . -delete",
                    "python3 -c 'print(1)'", "echo x > $out", "rm *.txt"):
        vote = helpers.shell_vote(deck, command)
        assert (vote.verdict.value, vote.rule) == ("ask", "rollback-coverage"), command
        assert "the rollback could not undo this" in vote.reason
    assert helpers.shell_vote(deck, "echo x > out.txt; mv a b").rule == "clean"
    assert helpers.shell_vote(make_deck(), "python3 -c 'print(1)'").rule == "clean"
    full = make_deck(TX + '[agent]\nautonomy = "full"\n')
    assert helpers.shell_vote(full, "ls | xargs rm").rule == "rollback-coverage"
    no_rollback = make_deck("[tools.shell]\ntransactional = true\n")
    assert helpers.shell_vote(no_rollback, "python3 -c 'print(1)'").rule == "clean"
