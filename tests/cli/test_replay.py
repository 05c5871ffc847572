"""``tooldeck replay``: a recorded session re-judged under a tightened and a loosened policy.

The session is real: a deck with an audit path runs 210 bash/read/write/fetch calls in a
project directory. Replay must report exactly the calls whose decision changes, with both
provenances, exit 1 only when a call is loosened, and run nothing: it is run in a child
process whose audit hook refuses every subprocess, every write and every connection, and
the project's files are compared before and after.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tooldeck.cli import main
from tooldeck.deck import Deck
from tooldeck.models import ToolCall

pytestmark = pytest.mark.timeout(120)

RULES = {
    "tighten_bash": '[[tools.permissions.bash]]\npattern = "cat *"\naction = "deny"\n\n',
    "bash": '[[tools.permissions.bash]]\npattern = "*"\naction = "allow"\n\n',
    "read_secret": '[[tools.permissions.read]]\npattern = "*secret*"\naction = "deny"\n\n',
    "read": '[[tools.permissions.read]]\npattern = "*"\naction = "allow"\n\n',
    "tighten_write": '[[tools.permissions.write]]\npattern = "*.log"\naction = "deny"\n\n',
    "write": '[[tools.permissions.write]]\npattern = "*"\naction = "allow"\n\n',
    "fetch": ('[[tools.permissions.fetch]]\npattern = "http://169.254.*"\naction = "deny"\n\n'
              '[[tools.permissions.fetch]]\npattern = "https://*"\naction = "ask"\n\n'),
}
BASE = ("bash", "read_secret", "read", "write", "fetch")
TIGHT = ("tighten_bash", "bash", "read_secret", "read", "tighten_write", "write", "fetch")
LOOSE = ("bash", "read", "write", "fetch")

HOOK = r"""
import sys

def _refuse(event, args):
    if event in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                 "os.fork", "os.forkpty", "pty.spawn", "socket.connect", "socket.getaddrinfo",
                 "os.remove", "os.rename", "os.mkdir", "os.rmdir", "os.symlink", "os.link",
                 "os.truncate", "os.chmod", "os.utime", "shutil.rmtree", "shutil.move",
                 "shutil.copyfile"):
        raise RuntimeError(f"replay must not do {event} {args!r}")
    if event == "open":
        mode, flags = args[1], args[2]
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & 0o3 != 0)
        if writing:
            raise RuntimeError(f"replay must not write {args[0]!r}")

sys.addaudithook(_refuse)
from tooldeck.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def config(tmp_path: Path, name: str, rules: tuple[str, ...]) -> Path:
    path = tmp_path / name
    path.write_text(f'[tools.audit]\npath = "{tmp_path / "audit.jsonl"}"\n\n'
                    + "".join(RULES[r] for r in rules))
    return path


def session() -> list[tuple[str, str, dict[str, Any]]]:
    """(kind, tool, params): the kinds say how each policy should judge the call."""
    calls: list[tuple[str, str, dict[str, Any]]] = []
    for i in range(30):
        calls.append(("same", "bash", {"command": f"echo hello {i}"}))
        calls.append(("same", "read", {"path": "notes.txt"}))
        calls.append(("same", "write", {"path": f"out/{i}.txt", "content": f"{i}\n"}))
    for i in range(20):
        calls.append(("tightened", "bash", {"command": "cat notes.txt"}))
        calls.append(("same", "bash", {"command": f"sudo id {i}"}))
        calls.append(("loosened", "read", {"path": f"secret-{i}.txt"}))
        calls.append(("tightened", "write", {"path": f"log/{i}.log", "content": "x\n"}))
        calls.append(("same", "fetch", {"url": f"http://169.254.169.254/latest/{i}"}))
        calls.append(("same", "fetch", {"url": f"https://example.invalid/{i}"}))
    return calls


def tree_digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One recorded session for the module (recording it is the slow part)."""
    tmp_path = tmp_path_factory.mktemp("replay")
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
        for name in [n for n in os.environ if n.startswith("TOOLDECK_")]:
            monkeypatch.delenv(name)
        yield _record(tmp_path, monkeypatch)


def _record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("notes\n")
    for i in range(20):
        (project / f"secret-{i}.txt").write_text("s3cr3t\n")
    monkeypatch.chdir(project)
    base = config(tmp_path, "base.toml", BASE)
    calls = session()

    async def record() -> list[str]:
        deck = Deck.from_config(base, environ={})
        try:
            ids = []
            for _kind, tool, params in calls:
                result = await deck.call(ToolCall(tool, params, caller_id="agent"))
                ids.append(result.call.call_id)
            return ids
        finally:
            await deck.aclose()

    ids = asyncio.run(record())
    log = tmp_path / "audit.jsonl"
    assert len(log.read_text().splitlines()) == len(calls) >= 200
    return {"project": project, "log": log, "tmp": tmp_path,
            "kinds": {call_id: kind for call_id, (kind, _t, _p) in zip(ids, calls, strict=True)}}


def replay(rec: dict[str, Any], policy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("TOOLDECK_CONFIG", None)
    before = tree_digest(rec["project"])
    log_before = rec["log"].read_bytes()
    proc = subprocess.run(
        [sys.executable, "-c", HOOK, "replay", str(rec["log"]), "--config", str(policy), *args],
        capture_output=True, text=True, cwd=rec["project"], env=env, timeout=90)
    assert "must not" not in proc.stderr, proc.stderr
    assert tree_digest(rec["project"]) == before
    assert rec["log"].read_bytes() == log_before
    return proc


def changed(rec: dict[str, Any], kind: str) -> set[str]:
    return {call_id for call_id, k in rec["kinds"].items() if k == kind}


def test_a_tightened_policy_reports_exactly_the_tightened_calls(recorded: dict[str, Any]) -> None:
    policy = config(recorded["tmp"], "tight.toml", TIGHT)
    proc = replay(recorded, policy, "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["replayed"] == len(recorded["kinds"]) and report["loosened"] == 0
    assert {c["call_id"] for c in report["changes"]} == changed(recorded, "tightened")
    text = policy.read_text()
    for change in report["changes"]:
        assert change["change"] == "tightened"
        assert (change["before"]["verdict"], change["after"]["verdict"]) == ("allow", "deny")
        assert change["before"]["source"].endswith("base.toml")
        assert change["after"]["source"] == str(policy)
        pattern = change["after"]["pattern"]
        assert pattern in ("cat *", "*.log")
        header = text.splitlines()[change["after"]["line"] - 1]
        assert header.startswith("[[tools.permissions.")
        assert text.splitlines()[change["after"]["line"]] == f'pattern = "{pattern}"'
        assert change["before"]["policy"] != change["after"]["policy"]


def test_a_loosened_policy_fails_and_names_both_rules(recorded: dict[str, Any]) -> None:
    policy = config(recorded["tmp"], "loose.toml", LOOSE)
    proc = replay(recorded, policy)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    reported = [line for line in lines if line.startswith("line ")]
    assert len(reported) == len(changed(recorded, "loosened")) == 20
    assert all("read 'secret-" in line for line in reported)
    assert sum("deny -> allow  [LOOSENED]" in line for line in lines) == 20
    assert sum("pattern '*secret*'" in line and "before:" in line for line in lines) == 20
    assert lines[-1].startswith(f"{len(recorded['kinds'])} calls replayed")
    assert "20 changed (20 loosened, 0 tightened)" in lines[-1]


def test_the_same_policy_changes_nothing(recorded: dict[str, Any],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    policy = config(recorded["tmp"], "same.toml", BASE)
    assert main(["replay", str(recorded["log"]), "--config", str(policy), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["changes"] == []


def test_records_of_an_older_schema_still_replay(recorded: dict[str, Any]) -> None:
    old = recorded["tmp"] / "old.jsonl"
    rows = []
    for line in recorded["log"].read_text().splitlines():
        record = json.loads(line)
        record.pop("v")
        decision = record["decision"]
        record["decision"] = {k: decision[k] for k in ("verdict", "gate") if k in decision}
        rows.append(json.dumps(record))
    old.write_text("\n".join(rows) + "\n")
    policy = config(recorded["tmp"], "loose.toml", LOOSE)
    proc = replay({**recorded, "log": old}, policy, "--json")
    assert proc.returncode == 1
    assert {c["call_id"] for c in json.loads(proc.stdout)["changes"]} == changed(recorded,
                                                                                  "loosened")


def test_a_newer_schema_is_refused(recorded: dict[str, Any],
                                   capsys: pytest.CaptureFixture[str]) -> None:
    newer = recorded["tmp"] / "newer.jsonl"
    record = json.loads(recorded["log"].read_text().splitlines()[0])
    newer.write_text(json.dumps({**record, "v": 99}) + "\n")
    policy = config(recorded["tmp"], "b.toml", BASE)
    assert main(["replay", str(newer), "--config", str(policy)]) == 2
    assert "newer" in capsys.readouterr().err
