"""``tooldeck demo``: what tooldeck does for an agent, in one short run (under 60 lines).

It works in a fresh temporary directory: a ``tooldeck.toml`` there (the embedded default plus
a policy directory, an audit log and one third-party plugin), watched for changes as a
long-running agent's deck is. It shows:

1. a third-party-style plugin, installed as a distribution and enabled in TOML;
2. a noisy command's output filtered, with the omission notice the model sees;
3. a secret in a command's output redacted;
4. a shell policy overlay dropped into the watched directory and enforced on the next call,
   without a restart;
5. allow, ask and deny, each naming the rule that decided;
6. the audit log: one line per call, with the decision's provenance.

``--json`` prints the same as one object: ``plugins``, ``steps`` (each with its title, tool,
params and result) and ``audit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tooldeck.cli.demo_plugin import NAME, install
from tooldeck.cli_api import EXIT_OK, result_json
from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck, ToolResult
from tooldeck.models import ToolCall

__all__ = ["run"]

_CONFIG = f"""
[plugins]
enable = ["{NAME}"]

[plugins.{NAME}]
project = "OPS"

[[tools.permissions.ticket]]
pattern = "*"
action = "allow"

[tools.shell]
policy_dir = "policy.d"

[tools.audit]
path = "audit.jsonl"
"""

_NOISY = ('for i in $(seq 1 200); do echo "Collecting package-$i"; '
          'echo "  Downloading package-$i-1.0.tar.gz (12 kB)"; done; '
          'echo "Successfully installed 200 packages"')

_OVERLAY = ('# dropped in while the deck runs: no deploys this week\n'
            '[[tools.permissions.bash]]\npattern = "*deploy.sh*"\naction = "deny"\n')

_SECRET = "ghp_" + "Zy9Xw8Vu" * 4 + "t7S6"  # a GitHub token's shape, not a real one

_RELOAD_WAIT_S = 30.0


class _Tour:
    """Runs the steps on one deck, printing (or collecting, for ``--json``) as it goes."""

    def __init__(self, deck: Deck, as_json: bool) -> None:
        self.deck = deck
        self.as_json = as_json
        self.steps: list[dict[str, Any]] = []
        self.section = 0

    def say(self, text: str) -> None:
        if not self.as_json:
            print(text)

    def heading(self, title: str) -> None:
        self.section += 1
        self.say(f"\n== {self.section}. {title}")

    async def call(self, title: str, tool: str, params: dict[str, Any],
                   confirm: bool | None = None) -> ToolResult:
        result = await self.deck.call(ToolCall(tool, params, caller_id="demo"), confirm=confirm)
        self.steps.append({"title": title, "tool": tool, "params": params,
                           "result": result_json(result)})
        return result

    def verdict(self, result: ToolResult) -> str:
        decision = result.decision
        if decision is None:
            return "-"
        where = decision.provenance()
        rule = f" {where['rule']}" if "rule" in where else ""
        line = f":{where['line']}" if "line" in where else ""
        source = Path(str(where["source"])).name
        return f"{decision.verdict.value} by {decision.gate}{rule} ({source}{line})"


def _shown(text: str, head: int = 2, tail: int = 2) -> list[str]:
    """The first and last lines of ``text`` and the omission notice between them."""
    lines = text.splitlines()
    notice = [line for line in lines if "omitted" in line]
    if len(lines) <= head + tail + 1:
        return lines
    return [*lines[:head], *notice[:1], *lines[-tail:]]


async def _plugin(tour: _Tour) -> None:
    tour.heading(f"A third-party plugin, enabled in TOML: [plugins] enable = [\"{NAME}\"]")
    info = next(p for p in tour.deck.runtime.plugins if p.name == NAME)
    tour.say(f"  {info.name} {info.state} (distribution {info.dist} {info.version})")
    result = await tour.call("plugin", "ticket", {"title": "disk full on build-3"})
    tour.say(f"  ticket → {result.text}")


async def _noisy(tour: _Tour) -> None:
    tour.heading("A noisy command, filtered before the model sees it")
    result = await tour.call("filtered", "bash", {"command": _NOISY})
    stats = result.output.filter_stats if result.output is not None else None
    if stats is not None:
        tour.say(f"  {stats.raw_lines} lines of output → {stats.filtered_lines} for the model "
                 f"({stats.savings_pct:.0f}% fewer characters):")
    for line in _shown(result.text):
        tour.say(f"    {line}")


async def _secret(tour: _Tour) -> None:
    tour.heading("A secret in the output, redacted")
    Path("deploy.conf").write_text(f"region=eu-west-1\ntoken={_SECRET}\n")
    result = await tour.call("redacted", "bash", {"command": "cat deploy.conf"})
    for line in result.text.splitlines():
        tour.say(f"  {line}")


async def _overlay(tour: _Tour) -> None:
    tour.heading("A policy overlay dropped into the watched policy.d/, no restart")
    script = Path("deploy.sh")
    script.write_text("#!/bin/sh\necho \"deployed $1\"\n")
    script.chmod(0o755)
    before = await tour.call("before overlay", "bash", {"command": "./deploy.sh prod"})
    tour.say(f"  ./deploy.sh prod → {before.text.strip()}  [{tour.verdict(before)}]")
    reloaded, seen = asyncio.Event(), asyncio.Event()

    def on_reload(ok: bool) -> None:
        seen.set()
        if ok:
            reloaded.set()

    watcher = asyncio.create_task(tour.deck.watch(on_reload=on_reload))
    overlay = Path("policy.d") / "50-freeze.toml"
    try:
        loop = asyncio.get_running_loop()
        deadline, pause = loop.time() + _RELOAD_WAIT_S, 0.5
        # written atomically; written again, less and less often, only while the watcher
        # (still starting up) has reacted to nothing: a rewrite during a reload would only
        # restart it
        while not reloaded.is_set() and loop.time() < deadline:
            if not seen.is_set():
                staging = overlay.with_suffix(".tmp")
                staging.write_text(_OVERLAY)
                os.replace(staging, overlay)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(reloaded.wait(), pause)
            pause = min(pause * 2, 8.0)
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
    tour.say(f"  dropped {overlay} (deny \"*deploy.sh*\"): "
             + ("the deck reloaded it" if reloaded.is_set()
                else "the deck did not reload in time on this machine"))
    after = await tour.call("after overlay", "bash", {"command": "./deploy.sh prod"})
    tour.say(f"  ./deploy.sh prod → {after.error.category.label if after.error else 'ran'}"
             f"  [{tour.verdict(after)}]")


async def _verdicts(tour: _Tour) -> None:
    tour.heading("Allow, ask, deny: each names the rule that decided")
    for title, command in (("allow", "ls"), ("ask (nobody to confirm)", "rm notes.txt"),
                           ("deny", "sudo rm -rf /")):
        result = await tour.call(title, "bash", {"command": command})
        tour.say(f"  {command:<14} {tour.verdict(result)}")


def _audit(tour: _Tour, audit: Path) -> list[dict[str, Any]]:
    records = ([json.loads(line) for line in audit.read_text().splitlines()]
               if audit.exists() else [])
    tour.heading(f"The audit log ({audit.name}): one JSON line per call, secrets redacted")
    for rec in records[-3:]:
        decision = rec.get("decision", {})
        shown = {k: decision[k] for k in ("verdict", "gate", "rule") if k in decision}
        tour.say(f"  {rec['tool']:<6} {rec['result']['type']:<8} {json.dumps(shown)}")
    tour.say(f"  ({len(records)} records; tooldeck replay {audit.name} --config NEW.toml shows "
             "what a policy change would have decided)")
    return records


@contextlib.contextmanager
def _installed_plugin(site: Path) -> Iterator[None]:
    """The demo plugin importable and discoverable for the duration of the demo."""
    site.mkdir()
    install(site)
    sys.path.insert(0, str(site))
    try:
        yield
    finally:
        sys.path.remove(str(site))
        sys.modules.pop(NAME, None)


async def _run_tour(tour: _Tour, audit: Path) -> dict[str, Any]:
    try:
        await _plugin(tour)
        await _noisy(tour)
        await _secret(tour)
        await _overlay(tour)
        await _verdicts(tour)
    finally:
        await tour.deck.aclose()
    records = _audit(tour, audit)
    return {"plugins": [{"name": p.name, "state": p.state} for p in tour.deck.runtime.plugins],
            "steps": tour.steps, "audit": records}


def run(as_json: bool) -> int:
    """Run the demo in a temporary directory; returns the exit code."""
    previous = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="tooldeck-demo-") as tmp:
        os.chdir(tmp)
        try:
            root = Path(tmp)
            (root / "project").mkdir()
            (root / "project" / "notes.txt").write_text("tooldeck demo\n")
            (root / "project" / "policy.d").mkdir()
            config = root / "project" / "tooldeck.toml"
            config.write_text(embedded_default_text() + _CONFIG)
            os.chdir(root / "project")
            with _installed_plugin(root / "site"):
                deck = Deck.from_config(config, environ={})
                if not as_json:
                    print(f"tooldeck demo — embedded default configuration plus {config.name} "
                          f"in {tmp}")
                report = asyncio.run(_run_tour(_Tour(deck, as_json), root / "project" /
                                               "audit.jsonl"))
        finally:
            os.chdir(previous)
    if as_json:
        print(json.dumps(report, indent=2, default=str))
    return EXIT_OK
