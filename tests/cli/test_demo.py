"""``tooldeck demo``, the README's first command: the whole story in under 60 lines."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tooldeck.cli import main
from tooldeck.cli.demo import _SECRET

pytestmark = pytest.mark.timeout(120)

TOOLDECK = shutil.which("tooldeck", path=str(Path(sys.executable).parent)) or "tooldeck"


def demo(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLDECK_")}
    return subprocess.run([TOOLDECK, "demo", *args], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=90)


def test_the_demo_tells_the_story_in_under_60_lines(in_tmp: Path) -> None:
    proc = demo(in_tmp)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert len(out.splitlines()) < 60, out
    assert "embedded default configuration" in out
    # a third-party-style plugin, installed as a distribution and enabled in TOML
    assert 'enable = ["demo_tickets"]' in out
    assert "demo_tickets enabled (distribution tooldeck-demo-tickets 1.0)" in out
    assert "OPS-1 filed: disk full on build-3" in out
    # a noisy command filtered, with the omission notice the model gets
    assert "401 lines of output → 9 for the model" in out
    assert '393 lines omitted, like "Collecting …"' in out
    # a secret redacted
    assert "token=[REDACTED:github-token]" in out and _SECRET not in out
    # an overlay dropped into the watched directory, enforced on the next call, no restart
    assert "./deploy.sh prod → deployed prod" in out
    assert "the deck reloaded it" in out
    assert "./deploy.sh prod → policy_blocked  [deny by shell overlay-rule (50-freeze.toml:2)]" \
        in out
    assert list(in_tmp.iterdir()) == [], "the demo works in its own temporary directory"


def test_the_demo_as_json(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--json"]) == 0
    out = capsys.readouterr().out
    report = json.loads(out)
    assert {p["name"] for p in report["plugins"]} >= {"core", "audit", "permissions",
                                                      "demo_tickets"}
    steps = {step["title"]: step["result"] for step in report["steps"]}
    assert steps["before overlay"]["ok"] and not steps["after overlay"]["ok"]
    assert steps["after overlay"]["decision"]["rule"] == "overlay-rule"
    assert steps["deny"]["decision"]["verdict"] == "deny"
    assert _SECRET not in out
    calls = [record for record in report["audit"] if record["kind"] == "tool_call"]
    assert len(calls) == len(report["steps"]) and all(record["v"] == 2 for record in calls)
    assert [r["kind"] for r in report["audit"]].count("policy.reloaded") == 1
