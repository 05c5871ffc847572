"""Execution: process trees, output capture, the envelope, credential scrubbing."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory
from tooldeck.plugins.shell.env import scrub_environment, scrubbed_by
from tooldeck.plugins.shell.settings import DEFAULT_ENV_BLOCKLIST, DEFAULT_ENV_SECRET_MARKERS

pytestmark = pytest.mark.timeout(60)

ONE_SECOND = "[tools.shell]\ntimeout = 1\n"


async def _pids_while_running(deck: Any, helpers: Any, command: str, sandbox: Path,
                              expect: int) -> tuple[set[int], Any]:
    task = asyncio.create_task(helpers.run(deck, command, confirm=True))
    pids: set[int] = set()
    for _ in range(50):
        await asyncio.sleep(0.05)
        pids |= helpers.live_pids_in(sandbox)
        if len(pids) >= expect:
            break
    return pids, task


async def _gone(helpers: Any, sandbox: Path, pids: set[int]) -> set[int]:
    for _ in range(20):
        left = pids & helpers.live_pids_in(sandbox)
        if not left:
            return left
        await asyncio.sleep(0.05)
    return left


async def test_timeout_kills_the_whole_tree(make_deck: Any, helpers: Any, sandbox: Path) -> None:
    deck = make_deck(ONE_SECOND)
    pids, task = await _pids_while_running(deck, helpers, "sh -c 'sleep 100 & sleep 100'",
                                           sandbox, expect=3)
    assert len(pids) >= 3  # sh and both sleeps (bash may exec sh in place)
    result = await task
    assert result.error.category is ErrorCategory.TIMEOUT
    assert await _gone(helpers, sandbox, pids) == set()


async def test_timeout_kills_a_job_in_another_process_group(make_deck: Any, helpers: Any,
                                                            sandbox: Path) -> None:
    deck = make_deck(ONE_SECOND)
    pids, task = await _pids_while_running(deck, helpers, "set -m; sleep 101 & sleep 101",
                                           sandbox, expect=3)
    assert (await task).error.category is ErrorCategory.TIMEOUT
    assert await _gone(helpers, sandbox, pids) == set()


@pytest.mark.skipif(shutil.which("setsid") is None, reason="setsid(1) is not installed")
async def test_timeout_kills_a_grandchild_in_another_session(make_deck: Any, helpers: Any,
                                                             sandbox: Path) -> None:
    deck = make_deck(ONE_SECOND)
    pids, task = await _pids_while_running(deck, helpers, "setsid sleep 102 & sleep 102",
                                           sandbox, expect=3)
    assert (await task).error.category is ErrorCategory.TIMEOUT
    assert await _gone(helpers, sandbox, pids) == set()


async def test_leftover_background_job_is_killed_at_exit(make_deck: Any, helpers: Any,
                                                         sandbox: Path) -> None:
    deck = make_deck("")
    started = time.monotonic()
    result = await helpers.run(deck, "sleep 103 >/dev/null 2>&1 & echo $!")
    assert time.monotonic() - started < 5
    leftover = {int(result.output.summary)}
    assert await _gone(helpers, sandbox, leftover) == set()


async def test_pipe_holder_does_not_wait_for_the_timeout(make_deck: Any, helpers: Any,
                                                         sandbox: Path) -> None:
    deck = make_deck("")
    started = time.monotonic()
    result = await helpers.run(deck, "sleep 104 & echo $!")
    assert time.monotonic() - started < 5
    assert await _gone(helpers, sandbox, {int(result.output.summary)}) == set()


async def test_cancelling_the_call_kills_the_tree(make_deck: Any, helpers: Any,
                                                  sandbox: Path) -> None:
    deck = make_deck("")
    marker = sandbox / "marker"
    pids, task = await _pids_while_running(
        deck, helpers, "sh -c 'sleep 2; touch marker' & sleep 105", sandbox, expect=3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await _gone(helpers, sandbox, pids) == set()
    await asyncio.sleep(2.5)
    assert not marker.exists()


async def test_streams_are_separate_and_interleaved(make_deck: Any, helpers: Any) -> None:
    deck = make_deck("")
    result = await helpers.run(deck, "echo a; sleep 0.1; echo b >&2; sleep 0.1; echo c")
    raw = result.output.raw_response
    assert (raw["stdout"], raw["stderr"], raw["exit_code"], raw["truncated"]) == (
        "a\nc\n", "b\n", 0, False)
    assert result.output.summary.splitlines() == ["a", "[stderr] b", "c"]


async def test_output_cap(make_deck: Any, helpers: Any) -> None:
    deck = make_deck("[tools.shell]\nmax_output_bytes = 1000\n")
    result = await helpers.run(deck, "yes 0123456789 | head -c 100000; echo tail >&2")
    raw = result.output.raw_response
    assert len(raw["stdout"]) + len(raw["stderr"]) <= 1000
    assert raw["truncated"] is True
    # the note survives filtering (the filters' stats line may follow it)
    assert "[truncated: output exceeded max_output_bytes=1000]" in result.output.summary.split("\n")


async def test_signal_exit_code(make_deck: Any, helpers: Any) -> None:
    result = await helpers.run(make_deck(""), "echo bye; kill -9 $$")
    assert result.ok and result.output.exit_code == 137


async def test_runs_in_the_sandbox_directory(make_deck: Any, helpers: Any,
                                             sandbox: Path) -> None:
    assert (await helpers.run(make_deck(""), "pwd")).output.summary == str(sandbox)


async def test_process_cwd_outside_roots_runs_in_first_root(make_deck: Any, helpers: Any,
                                                            tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    deck = make_deck(f'[tools.shell]\nallowed_paths = ["{root}"]\n')
    assert (await helpers.run(deck, "pwd")).output.summary == str(root)


async def test_credentials_are_scrubbed(make_deck: Any, helpers: Any,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    secret = {"MY_API_KEY": "k", "GITHUB_TOKEN": "t", "DB_PASSWORD": "p", "app_secret": "s",
              "TOOLDECK_X": "x", "ANTHROPIC_BASE": "a", "HUGGINGFACE_HUB": "h"}
    for name, value in secret.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PLAIN_SETTING", "visible")
    deck = make_deck("")
    names = [*secret, "PLAIN_SETTING"]
    command = "; ".join(f"echo {n}=${{{n}:-absent}}" for n in names)
    result = await helpers.run(deck, command, confirm=True)
    lines = result.output.summary.splitlines()
    assert lines[:-1] == [f"{n}=absent" for n in secret]
    assert lines[-1] == "PLAIN_SETTING=visible"


async def test_allowlist_keeps_a_named_variable(make_deck: Any, helpers: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "kept")
    monkeypatch.setenv("NPM_TOKEN", "gone")
    deck = make_deck('[tools.shell]\nenv_allowlist = ["GITHUB_TOKEN"]\n')
    result = await helpers.run(deck, "echo ${GITHUB_TOKEN:-absent} ${NPM_TOKEN:-absent}",
                               confirm=True)
    assert result.output.summary == "kept absent"


@pytest.mark.parametrize(("name", "rule"), [
    ("AWS_REGION", "prefix"), ("aws_region", "prefix"), ("HuggingFace_X", "prefix"),
    ("MY_KEY", "secret-marker"),
    ("keychain_path", "secret-marker"), ("PATH", None), ("HOME", None), ("LANG", None),
])
def test_scrub_rules(name: str, rule: str | None) -> None:
    assert scrubbed_by(name, DEFAULT_ENV_BLOCKLIST, DEFAULT_ENV_SECRET_MARKERS) == rule


def test_scrub_keeps_the_rest() -> None:
    env = {"PATH": "/bin", "OPENAI_API_KEY": "x", "SECRET": "y"}
    assert scrub_environment(env, prefixes=DEFAULT_ENV_BLOCKLIST,
                             markers=DEFAULT_ENV_SECRET_MARKERS) == {"PATH": "/bin"}


async def test_audit_records_exit_code(make_deck: Any, helpers: Any, tmp_path: Path) -> None:
    import json

    deck = make_deck("")
    await helpers.run(deck, "exit 3")
    records = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    last = records[-1]
    assert last["tool"] == "bash" and last["exit_code"] == 3 and last["command"] == "exit 3"


def test_bash_is_on_path() -> None:
    assert shutil.which("bash") is not None and os.name == "posix"


async def test_closed_pipes_do_not_stop_the_timeout(make_deck: Any, helpers: Any,
                                                    sandbox: Path) -> None:
    deck = make_deck(ONE_SECOND)
    pids, task = await _pids_while_running(deck, helpers, "exec >&- 2>&-; sleep 108",
                                           sandbox, expect=1)
    result = await task
    assert result.error.category is ErrorCategory.TIMEOUT
    assert pids and await _gone(helpers, sandbox, pids) == set()


async def test_closed_pipes_then_an_exit_end_the_call_with_its_exit_code(
        make_deck: Any, helpers: Any) -> None:
    deck = make_deck(ONE_SECOND)
    result = await helpers.run(deck, "exec >&- 2>&-; sleep 0.3; exit 3", confirm=True)
    assert result.error is None, result.error
    assert result.output.exit_code == 3


async def test_nul_byte_is_denied_before_it_reaches_the_executor(make_deck: Any,
                                                                 helpers: Any) -> None:
    deck = make_deck("")
    assert helpers.verdict_of(deck, "echo a\x00b")[:2] == ("deny", "command")
    result = await helpers.run(deck, "echo a\x00b", confirm=True)
    assert result.error.category is ErrorCategory.POLICY_BLOCKED


async def test_environment_changes_reach_the_next_call(make_deck: Any, helpers: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    deck = make_deck("")
    command = "echo ${PLAIN_SETTING:-absent} ${MY_API_KEY:-absent}"
    assert (await helpers.run(deck, command, confirm=True)).output.summary == "absent absent"
    monkeypatch.setenv("PLAIN_SETTING", "one")
    monkeypatch.setenv("MY_API_KEY", "k")
    assert (await helpers.run(deck, command, confirm=True)).output.summary == "one absent"
    monkeypatch.setenv("PLAIN_SETTING", "two")
    assert (await helpers.run(deck, command, confirm=True)).output.summary == "two absent"
    monkeypatch.delenv("PLAIN_SETTING")
    assert (await helpers.run(deck, command, confirm=True)).output.summary == "absent absent"


def _bash_shim(folder: Path, first_line: str) -> Path:
    """A ``bash`` in ``folder`` that runs ``first_line``, then the real bash as ``bash``."""
    real = shutil.which("bash")
    assert real is not None
    folder.mkdir()
    shim = folder / "bash"
    shim.write_text(f'#!{real}\n{first_line}\nexec -a bash {real} "$@"\n')
    shim.chmod(0o755)
    return shim


async def test_the_bash_on_path_is_found_again_when_path_changes_or_it_is_gone(
        make_deck: Any, helpers: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The executor looks ``bash`` up once per environment: a new PATH finds a new bash, and
    a bash removed since is searched for again instead of failing the call."""
    shims = tmp_path / "shims"
    shim = _bash_shim(shims, 'echo "via shim $0"')
    deck = make_deck("")
    assert (await helpers.run(deck, "echo plain", confirm=True)).output.summary == "plain"
    monkeypatch.setenv("PATH", f"{shims}{os.pathsep}{os.environ['PATH']}")
    shown = (await helpers.run(deck, "echo $0", confirm=True)).output.summary
    assert shown.splitlines() == [f"via shim {shim}", "bash"]
    shim.unlink()  # gone between two calls, the environment unchanged
    result = await helpers.run(deck, "echo $0", confirm=True)
    assert result.ok, result.text
    assert result.output.summary == "bash"


async def test_a_relative_path_entry_finds_bash_in_the_working_directory(
        make_deck: Any, helpers: Any, sandbox: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative PATH entry is the child's business: it is resolved from where the command
    runs (the sandbox), as a PATH search in the child does, never from the deck's own cwd."""
    shims = sandbox / "shims"
    _bash_shim(shims, 'echo "sandbox bash"')
    monkeypatch.setenv("PATH", f"shims{os.pathsep}{os.environ['PATH']}")
    deck = make_deck("")
    monkeypatch.chdir(sandbox.parent)  # the deck's own directory is no longer the sandbox
    result = await helpers.run(deck, "pwd; echo $0", confirm=True)
    assert result.ok, result.text
    assert result.output.summary.splitlines() == ["sandbox bash", str(sandbox), "bash"]


async def test_without_pidfd_the_exit_is_polled(make_deck: Any, helpers: Any, sandbox: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pidfd(pid: int, flags: int = 0) -> int:
        raise OSError(38, "no pidfd here")

    monkeypatch.setattr(os, "pidfd_open", no_pidfd, raising=False)
    deck = make_deck(ONE_SECOND)
    result = await helpers.run(deck, "echo out; echo err >&2; exit 3")
    assert result.ok and result.output.exit_code == 3
    assert result.output.summary.splitlines()[:2] == ["out", "[stderr] err"]
    pids, task = await _pids_while_running(deck, helpers, "sh -c 'sleep 109 & sleep 109'",
                                           sandbox, expect=3)
    assert (await task).error.category is ErrorCategory.TIMEOUT
    assert await _gone(helpers, sandbox, pids) == set()


async def test_calls_leave_no_descriptors_or_zombies(make_deck: Any, helpers: Any) -> None:
    deck = make_deck("")
    await helpers.run(deck, "true")
    before = set(os.listdir("/proc/self/fd"))
    for _ in range(20):
        result = await helpers.run(deck, "echo x; echo y >&2")
        assert result.ok and result.output.summary == "x\n[stderr] y"
    assert set(os.listdir("/proc/self/fd")) <= before
    assert not _zombie_children()


def _zombie_children() -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] == b"Z" and int(fields[1]) == os.getpid():
            found.append(int(entry))
    return found
