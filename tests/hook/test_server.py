"""The warm server: same answers as a cold deck, cold fallback on every failure, private socket.

Real parts: ``tooldeck serve`` runs as a real subprocess on a real Unix socket; killed
servers are killed with real signals (by the pid the kernel reports for the peer).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck
from tooldeck.plugins.agent_hooks import client
from tooldeck.plugins.agent_hooks.cli import HookCommand
from tooldeck.plugins.agent_hooks.decide import answer

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "shell_corpus" / "commands.tsv"
SERVE = "from tooldeck.cli import main; raise SystemExit(main())"


def corpus_commands() -> list[str]:
    commands = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith(("#", "id\t")):
            continue
        cols = line.split("\t")
        command = cols[3]
        if cols[5].startswith("[multiline]"):
            command = command.replace("\\n", "\n")
        commands.append(command)
    return commands


def bash_event(agent: str, command: str, cwd: str) -> str:
    if agent == "gemini-cli":
        return json.dumps({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                           "tool_input": {"command": command}, "cwd": cwd})
    return json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": {"command": command}, "cwd": cwd})


def write_config(path: Path, blocked: str) -> None:
    path.write_text(embedded_default_text()
                    + f'\n[tools.shell]\nblocked_commands = ["{blocked}"]\n')


def server_pid(path: str) -> int:
    """The pid of the process listening on ``path`` (the kernel's SO_PEERCRED)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        raw = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return int(struct.unpack("3i", raw)[0])


_LOOKUP_OUTCOME = re.compile(
    r"DNS resolution (?:failed for [^:\"]+: [^\"]*|timed out after \d+ s)")


def same_lookups(answer_: tuple[str, int, str]) -> tuple[str, int, str]:
    """An answer with the system resolver's outcome for a made-up name said one way.

    The server and the cold deck resolve ``paste.example`` through this machine's resolver:
    with no network it fails at once, or times out under load. Both are the same ``ask``
    (egress unverified); only the wording of the lookup may differ between two runs.
    """
    text, code, err = answer_
    return _LOOKUP_OUTCOME.sub("DNS resolution failed", text), code, err


def wait_for(predicate: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def listening(path: str) -> bool:
    try:
        client.check_socket(path)
        server_pid(path)
    except (client.ServerUnavailable, OSError):
        return False
    return True


@pytest.fixture
def project(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A project directory as cwd, with its config, and a short private runtime dir."""
    base = Path(tempfile.mkdtemp(prefix="tdh"))  # short: a socket path has ~100 bytes
    runtime = base / "run"
    runtime.mkdir(mode=0o700)
    project = base / "project"
    project.mkdir()
    write_config(project / "tooldeck.toml", "make")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.chdir(project)
    yield project
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def server(project: Path) -> Iterator[str]:
    """A running ``tooldeck serve`` for the project; its socket path."""
    proc = subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--idle-timeout", "120"],
                            cwd=project, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline()
    assert "listening on" in line, line + proc.stderr.read()
    path = line.rsplit(" ", 1)[1].strip()
    assert path == client.socket_path(None)
    yield path
    proc.terminate()
    proc.wait(timeout=20)
    proc.stderr.close()


@pytest.fixture
def cold_deck(project: Path) -> Iterator[Deck]:
    deck = Deck.from_config(None)
    yield deck
    deck.close()


def test_warm_answers_equal_cold_ones_over_the_corpus(server: str, cold_deck: Deck,
                                                      project: Path) -> None:
    commands = corpus_commands()
    assert len(commands) > 500
    verdicts = set()
    for command in commands:
        text = bash_event("claude-code", command, str(project))
        warm = client.ask_server("claude-code", text, None, timeout=30)
        cold = tuple(answer(cold_deck.runtime, "claude-code", text))
        assert same_lookups(warm) == same_lookups(cold), command
        verdicts.add(json.loads(warm[0])["hookSpecificOutput"]["permissionDecision"])
    assert verdicts == {"allow", "ask", "deny"}
    for agent in ("codex", "gemini-cli"):
        for command in commands[::10]:
            text = bash_event(agent, command, str(project))
            assert same_lookups(client.ask_server(agent, text, None, timeout=30)) == (
                same_lookups(tuple(answer(cold_deck.runtime, agent, text)))), (agent, command)


def test_warm_file_and_post_answers_equal_cold_ones(server: str, cold_deck: Deck,
                                                    project: Path) -> None:
    (project / ".env").write_text("SECRET=1\n")
    events = [
        {"tool_name": "Read", "tool_input": {"file_path": str(project / "a.txt")}},
        {"tool_name": "Read", "tool_input": {"file_path": ".env"}},
        {"tool_name": "Read", "tool_input": {"file_path": "/etc/passwd"}},
        {"tool_name": "Write", "tool_input": {"file_path": "b.txt", "content": "x"}},
        {"tool_name": "Edit", "tool_input": {"file_path": "b.txt", "old_string": "x",
                                             "new_string": "y"}},
        {"tool_name": "Grep", "tool_input": {"pattern": "TODO"}},
        {"tool_name": "Glob", "tool_input": {"pattern": "**/*.py", "path": "/"}},
        {"tool_name": "WebFetch", "tool_input": {"url": "http://169.254.169.254/",
                                                 "prompt": "x"}},
        {"tool_name": "Agent", "tool_input": {"prompt": "x"}},
    ]
    for event in events:
        text = json.dumps({"hook_event_name": "PreToolUse", "cwd": str(project), **event})
        assert client.ask_server("claude-code", text, None) == tuple(
            answer(cold_deck.runtime, "claude-code", text)), event
    post = json.dumps({"hook_event_name": "PostToolUse", "tool_name": "Bash",
                       "tool_input": {"command": "env"},
                       "tool_response": {"stdout": "KEY=AKIAIOSFODNN7EXAMPLE\n"}})
    warm = client.ask_server("claude-code", post, None)
    assert warm == tuple(answer(cold_deck.runtime, "claude-code", post))
    assert "AKIAIOSFODNN7EXAMPLE" not in warm[0]


def test_a_large_event_is_answered_by_the_server(server: str, cold_deck: Deck,
                                                  project: Path) -> None:
    content = "x" * (3 * 1024 * 1024)
    text = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": str(project),
                       "tool_input": {"file_path": "big.txt", "content": content}})
    warm = client.ask_server("claude-code", text, None)
    assert warm == tuple(answer(cold_deck.runtime, "claude-code", text))


def hook(agent: str, text: str, *extra: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SERVE, "hook", agent, *extra], input=text,
                          capture_output=True, text=True, cwd=cwd, timeout=60)


def decision(stdout: str) -> str:
    return str(json.loads(stdout)["hookSpecificOutput"]["permissionDecision"])


def test_a_killed_server_falls_back_to_a_cold_decision(server: str, project: Path) -> None:
    os.kill(server_pid(server), signal.SIGKILL)
    wait_for(lambda: not listening(server))
    assert os.path.exists(server)  # the stale socket is still there
    with pytest.raises(client.ServerAbsent):
        client.ask_server("claude-code", bash_event("claude-code", "ls", "."), None)
    denied = hook("claude-code", bash_event("claude-code", "rm -rf /", str(project)),
                  "--no-start", cwd=project)
    assert denied.returncode == 0 and decision(denied.stdout) == "deny"
    blocked = hook("claude-code", bash_event("claude-code", "make build", str(project)),
                   "--no-start", cwd=project)
    assert decision(blocked.stdout) == "deny"
    assert not listening(server)  # --no-start started nothing


def test_the_first_hook_call_starts_a_server_that_answers_the_next(project: Path) -> None:
    path = client.socket_path(None)
    first = hook("claude-code", bash_event("claude-code", "ls", str(project)), cwd=project)
    assert first.returncode == 0 and decision(first.stdout) == "allow"
    wait_for(lambda: listening(path))
    pid = server_pid(path)
    try:
        assert oct(os.stat(path).st_mode & 0o777) == "0o600"
        assert oct(os.stat(os.path.dirname(path)).st_mode & 0o777) == "0o700"
        text = bash_event("claude-code", "rm -rf /", str(project))
        assert decision(client.ask_server("claude-code", text, None)[0]) == "deny"
    finally:
        os.kill(pid, signal.SIGTERM)
    wait_for(lambda: not os.path.exists(path))


def test_the_server_reloads_policy_like_any_deck(server: str, project: Path) -> None:
    text = bash_event("claude-code", "make build", str(project))
    assert decision(client.ask_server("claude-code", text, None)[0]) == "deny"
    write_config(project / "tooldeck.toml", "wget")
    wait_for(lambda: decision(client.ask_server("claude-code", text, None)[0]) != "deny")
    cold = Deck.from_config(None)
    try:
        assert client.ask_server("claude-code", text, None) == tuple(
            answer(cold.runtime, "claude-code", text))
    finally:
        cold.close()


class FakeServer:
    """Listens on the hook socket and answers every request with ``reply`` (or nothing)."""

    def __init__(self, path: str, reply: bytes | None) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        os.chmod(path, 0o600)
        self.sock.listen(8)
        self.reply = reply
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                if self.reply is None:
                    time.sleep(1.0)
                    continue
                conn.recv(1 << 20)
                conn.sendall(self.reply)

    def close(self) -> None:
        self.sock.close()


@pytest.mark.parametrize("reply", [
    b"not json",
    b"[1]",
    json.dumps({"stdout": "", "exit_code": 1, "stderr": ""}).encode(),
    json.dumps({"stdout": 3, "exit_code": 0, "stderr": ""}).encode(),
    b"",
], ids=["garbage", "array", "exit-1", "no-stdout", "hang-up"])
def test_a_garbage_answer_is_replaced_by_a_cold_one(reply: bytes, project: Path,
                                                    cold_deck: Deck) -> None:
    path = client.socket_path(None)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fake = FakeServer(path, reply)
    try:
        text = bash_event("claude-code", "rm -rf /", str(project))
        with pytest.raises(client.ServerUnavailable) as caught:
            client.ask_server("claude-code", text, None)
        assert not isinstance(caught.value, client.ServerAbsent)
        args = argparse.Namespace(agent="claude-code", cold=False, no_start=True)
        got = HookCommand._answer(args, text, None)
        assert got == tuple(answer(cold_deck.runtime, "claude-code", text))
        assert decision(got[0]) == "deny"
    finally:
        fake.close()


def test_a_silent_server_times_out_into_a_cold_answer(project: Path) -> None:
    path = client.socket_path(None)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fake = FakeServer(path, None)
    try:
        started = time.monotonic()
        with pytest.raises(client.ServerUnavailable):
            client.ask_server("claude-code", bash_event("claude-code", "ls", "."), None,
                              timeout=0.2)
        assert time.monotonic() - started < 3.0  # the fake server never answers
    finally:
        fake.close()


def serve_exit(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SERVE, "serve", "--idle-timeout", "1"],
                          cwd=project, capture_output=True, text=True, timeout=60)


def test_a_socket_directory_open_to_others_is_refused(project: Path) -> None:
    path = client.socket_path(None)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    os.chmod(os.path.dirname(path), 0o755)
    with pytest.raises(client.UnsafeSocket):
        client.ask_server("claude-code", bash_event("claude-code", "ls", "."), None)
    refused = serve_exit(project)
    assert refused.returncode == 2 and "refusing" in refused.stderr
    assert not os.path.exists(path)


def test_a_socket_open_to_others_is_refused(project: Path) -> None:
    path = client.socket_path(None)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fake = FakeServer(path, b'{"stdout": "", "exit_code": 0, "stderr": ""}')
    try:
        os.chmod(path, 0o666)
        with pytest.raises(client.UnsafeSocket):
            client.ask_server("claude-code", bash_event("claude-code", "ls", "."), None)
        assert serve_exit(project).returncode == 2
    finally:
        fake.close()


def test_a_symlinked_socket_directory_is_refused(project: Path) -> None:
    path = client.socket_path(None)
    real = project / "elsewhere"
    real.mkdir(mode=0o700)
    os.symlink(real, os.path.dirname(path))
    with pytest.raises(client.UnsafeSocket):
        client.ask_server("claude-code", bash_event("claude-code", "ls", "."), None)
    assert serve_exit(project).returncode == 2


@pytest.mark.skipif(os.getuid() != 0, reason="handing a file to another user needs root")
@pytest.mark.parametrize("what", ["directory", "socket"])
def test_a_socket_owned_by_another_user_is_refused(what: str, project: Path) -> None:
    path = client.socket_path(None)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fake = FakeServer(path, b'{"stdout": "", "exit_code": 0, "stderr": ""}')
    try:
        os.chown(os.path.dirname(path) if what == "directory" else path, 65534, 65534)
        with pytest.raises(client.UnsafeSocket, match="owned by uid 65534"):
            client.ask_server("claude-code", bash_event("claude-code", "ls", "."), None)
        refused = serve_exit(project)
        assert refused.returncode == 2 and "owned by uid 65534" in refused.stderr
    finally:
        fake.close()


def test_a_second_server_leaves_the_first_in_place(server: str, project: Path) -> None:
    pid = server_pid(server)
    second = serve_exit(project)
    assert second.returncode == 0 and "already listens" in second.stderr
    assert server_pid(server) == pid
