"""Replay realistic agent sessions through the default config against a direct replay.

For each project (a checkout of a public repository) two copies are made and ``git init``-ed:
one is worked on through a deck built from the embedded default configuration, the other by
running the same commands directly with ``bash -c … 2>&1``. The sessions are in
``bench/sessions.py``; ``starlette`` is held back (never used to tune a rule).

Printed per project: calls; how the policy judged them (every call is benign work, so each
ask is friction and each deny a defect); lines of file views (``cat``, ``head``, ``tail``,
``sed -n``, ``nl``, ``git show REV:PATH``) that came back altered; outputs replaced by an error
block although the command ran; facts lost (lines of the direct output that name an error, a
warning, a test outcome, a count or a ``file:line``, and every line of short outputs, missing
from what the model got). The direct output is compared once redacted by the secret service
the deck applies (file views are exact but for redaction), with durations masked (``0.04s``:
two runs of a test suite do not take the same time).

    mkdir -p checkouts && cd checkouts
    git clone https://github.com/pallets/flask     # and psf/requests, encode/starlette,
    git clone https://github.com/tj/commander.js commander   # gorilla/mux
    (cd commander && npm ci)
    pip download --no-binary :all: --no-deps click==8.1.7 && tar xzf click-8.1.7.tar.gz
    npm pack minimist@1.2.8 && tar xzf minimist-1.2.8.tgz && mv package minimist \
        && (cd minimist && npm install)
    cd ..
    python bench/session.py flask=checkouts/flask requests=checkouts/requests \
        mux=checkouts/mux starlette=checkouts/starlette commander=checkouts/commander \
        click=checkouts/click-8.1.7 minimist=checkouts/minimist [--show N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessions import HELD_BACK, SESSIONS, Call  # type: ignore[import-not-found]

from tooldeck.config import embedded_default_text, parse_document
from tooldeck.deck import Deck, ToolResult
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.secrets import find_secrets, redact_found

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
FACT = re.compile(r"(?i)\b(error|warning|failed|failure|passed|skipped|traceback|exception|"
                  r"FAIL|ok\s+\S+|no such file)\b|\w+\.(py|go):\d+")
VIEWS = frozenset({"cat", "head", "tail", "nl", "less"})
GIT_ENV = {"GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
           "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com",
           # fixed dates: both copies get the same commit hashes
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}


UNTRACKED = ".venv/\nnode_modules/\n.nyc_output/\ncoverage/\n"
"""What neither copy tracks: installed dependencies and coverage data, whose file names
differ from run to run (nyc's hashed cache), as a project's own ``.gitignore`` would say."""


def prepare(source: Path, target: Path, python: bool) -> None:
    shutil.copytree(source, target, symlinks=True)
    env = {**os.environ, **GIT_ENV}
    subprocess.run(["git", "init", "-q"], cwd=target, env=env, check=True, capture_output=True)
    (target / ".git" / "info" / "exclude").write_text(UNTRACKED)
    for command in (["git", "config", "user.name", "Bench"],
                    ["git", "config", "user.email", "bench@example.com"], ["git", "add", "-A"],
                    ["git", "commit", "-q", "--allow-empty", "-m", "import"]):
        subprocess.run(command, cwd=target, env=env, check=True, capture_output=True)
    if python:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", ".venv"], cwd=target,
                       check=True)


def direct(call: Call, root: Path) -> str | None:
    params = call["params"]
    if call["tool"] == "bash":
        proc = subprocess.run(["bash", "-c", params["command"]], cwd=root, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              env={**os.environ, **GIT_ENV}, timeout=300, errors="replace")
        return proc.stdout
    if call["tool"] == "edit":
        path = root / params["path"]
        path.write_text(path.read_text().replace(params["old_string"], params["new_string"], 1))
    return None


def is_view(command: str) -> bool:
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if not words or any(w in ("|", "&&", ";", ">", "2>&1") for w in words):
        return False
    if words[0] in VIEWS or (words[0] == "sed" and "-n" in words):
        return True
    return words[:2] == ["git", "show"] and any(":" in w for w in words[2:])


def model_text(result: ToolResult) -> str:
    text = result.text
    lines = [line.removeprefix("[stderr] ") for line in text.splitlines()]
    return "\n".join(line for line in lines
                     if not line.startswith(("[unfiltered output:", "[filtered:")))


TIMING = re.compile(r"\b\d+(?:\.\d+)?(?:ms|s)\b|(?<=duration_ms)(?::? )\d+(?:\.\d+)?"
                    r"|\d{4}-\d\d-\d\dT[\d_:.]+Z"
                    r"|\b[A-Z][a-z]{2} +\d{1,2} +\d\d:\d\d\b")


def timing_free(text: str) -> str:
    """``text`` with durations and time stamps masked: two runs of one test suite do not take
    the same time (``0.04s``, ``12ms``, node's test runner's ``duration_ms: 8.85``, npm's log
    name ``2026-11-29T01_48_20_676Z-debug-0.log``, and ``ls -l``'s ``Nov 29 05:58``: the
    two copies are made a few seconds apart, sometimes across a minute)."""
    return TIMING.sub("<t>", text)


def facts(text: str) -> list[str]:
    lines = [ANSI.sub("", line).rstrip() for line in text.splitlines()]
    lines = [line for line in lines if line.strip()]
    return lines if len(lines) <= 20 else [line for line in lines if FACT.search(line)]


async def replay(name: str, source: Path, show: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    python = (source / "pyproject.toml").exists() or (source / "setup.py").exists()
    with tempfile.TemporaryDirectory() as tmp:
        via_deck, plain = Path(tmp) / "deck" / name, Path(tmp) / "bare" / name
        prepare(source, via_deck, python)
        prepare(source, plain, python)
        os.environ.update(GIT_ENV)
        previous = Path.cwd()
        os.chdir(via_deck)
        text = (embedded_default_text() + f'\n[tools.audit]\npath = "{Path(tmp) / "a.jsonl"}"\n'
                f'[tools.overflow]\npath = "{Path(tmp) / "o.sqlite3"}"\n')
        deck = Deck.from_config(parse_document(text, Path(tmp) / "tooldeck.toml", "bench"))
        try:
            for turn, call in enumerate(SESSIONS[name]()):
                counts["calls"] += 1
                tool_call = ToolCall(call["tool"], call["params"], turn=turn, caller_id="agent")
                result = await deck.call(tool_call)
                category = result.error.category if result.error else None
                verdict = ("deny" if category is ErrorCategory.POLICY_BLOCKED else
                           "ask" if category is ErrorCategory.CONFIRMATION_REQUIRED else "allow")
                counts[verdict] += 1
                if verdict != "allow" and show:
                    print(f"  [{name}] {verdict}: {call['params']} -> {result.error}")
                if verdict == "ask":
                    result = await deck.call(tool_call, confirm=True)
                expected = direct(call, plain)
                if expected is None or verdict == "deny":
                    continue
                # the model never sees a secret, in a file view or elsewhere: the direct
                # output is compared once redacted by the same service the deck uses
                expected = expected.replace(str(plain), str(via_deck))
                expected = redact_found(expected, expected, find_secrets(expected))
                if result.error is not None:
                    counts["error_blocks"] += 1
                    if show:
                        print(f"  [{name}] error block: {call['params']} -> {result.error}")
                    continue
                got = model_text(result)
                if is_view(call["params"]["command"]):
                    counts["views"] += 1
                    want = expected.rstrip("\n").splitlines()
                    have = got.rstrip("\n").splitlines()
                    altered = sum(1 for a, b in zip(want, have, strict=False) if a != b) + abs(
                        len(want) - len(have))
                    counts["altered_view_lines"] += altered
                    if altered and show:
                        print(f"  [{name}] altered view: {call['params']['command']}")
                stable = timing_free(got)
                lost = [f for f in facts(expected) if timing_free(f) not in stable]
                counts["facts"] += len(facts(expected))
                counts["facts_lost"] += len(lost)
                if lost and show:
                    print(f"  [{name}] lost {len(lost)} in {call['params']['command'][:60]!r}:"
                          f" {lost[:2]}")
        finally:
            await deck.aclose()
            os.chdir(previous)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="+", metavar="NAME=DIR",
                        help=f"sessions: {', '.join(SESSIONS)}")
    parser.add_argument("--show", type=int, default=0, help="print each problem (1) or not")
    args = parser.parse_args()
    print(f"{'project':12} {'half':9} {'calls':>5} {'allow':>5} {'ask':>4} {'deny':>4} "
          f"{'asks/100':>8} {'views':>5} {'altered':>7} {'errblk':>6} {'facts':>5} "
          f"{'lost':>4}")
    for spec in args.projects:
        name, _, directory = spec.partition("=")
        counts = asyncio.run(replay(name, Path(directory).resolve(), args.show))
        half = "held-back" if name in HELD_BACK else "tune"
        print(f"{name:12} {half:9} {counts['calls']:5} {counts['allow']:5} {counts['ask']:4} "
              f"{counts['deny']:4} {100 * counts['ask'] / max(1, counts['calls']):8.1f} "
              f"{counts['views']:5} {counts['altered_view_lines']:7} {counts['error_blocks']:6} "
              f"{counts['facts']:5} {counts['facts_lost']:4}")


if __name__ == "__main__":
    main()
