"""``tooldeck demo``: a short guided run on the embedded default configuration.

It works in a fresh temporary directory (the default sandbox is the current directory), keeps
its audit log there, and shows: the plugins, the tools, an allowed call, a denied call with
its ``[tool_error]`` block, a call that asks for confirmation, and the audit records.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tooldeck.catalog import render
from tooldeck.cli_api import EXIT_OK, result_json
from tooldeck.config import embedded_default_text, parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall

__all__ = ["run"]

# (title, candidate calls: the first whose tool exists is shown, confirm)
_STEPS: list[tuple[str, list[tuple[str, dict[str, Any]]], bool | None]] = [
    ("An allowed call", [("list_directory", {"path": "."}), ("read", {"path": "notes.txt"})],
     None),
    ("A denied call", [("bash", {"command": "sudo rm -rf /"}),
                       ("read", {"path": "/etc/passwd"})], None),
    ("A call that asks (no one to confirm it)",
     [("delete_path", {"path": "notes.txt"}), ("bash", {"command": "rm notes.txt"})], None),
    ("The same call, confirmed", [("delete_path", {"path": "notes.txt"}),
                                  ("bash", {"command": "rm notes.txt"})], True),
]


def _heading(n: int, title: str) -> str:
    return f"\n== {n}. {title} " + "=" * max(0, 60 - len(title))


async def _tour(deck: Deck, audit: Path, as_json: bool) -> dict[str, Any]:
    runtime = deck.runtime
    report: dict[str, Any] = {
        "plugins": [{"name": p.name, "state": p.state} for p in runtime.plugins],
        "tools": [t.id for t in deck.tools()], "steps": [],
    }
    if not as_json:
        print(_heading(1, "Plugins (tooldeck plugins)"))
        width = max(len(p.name) for p in runtime.plugins)
        for p in runtime.plugins:
            print(f"  {p.name:<{width}} {p.state}")
        print(_heading(2, "Tools offered to the model (tooldeck tools)"))
        print(render(deck.tools(), "prompt") if deck.tools() else "  (no tools enabled)")
    for n, (title, candidates, confirm) in enumerate(_STEPS, start=3):
        chosen = next(((t, p) for t, p in candidates if t in runtime.tools), None)
        if not as_json:
            print(_heading(n, title))
        if chosen is None:
            if not as_json:
                print("  (no enabled tool can show this step)")
            continue
        tool, params = chosen
        result = await deck.call(ToolCall(tool, params, caller_id="demo"), confirm=confirm)
        report["steps"].append({"title": title, "tool": tool, "params": params,
                                "result": result_json(result)})
        if not as_json:
            print(f"  call: {tool} {json.dumps(params)}")
            verdict = result.decision.verdict.value if result.decision else "-"
            print(f"  decision: {verdict}" + (f" by {result.decision.gate}: "
                                              f"{result.decision.reason}"
                                              if result.decision else ""))
            print("  " + result.text.replace("\n", "\n  "))
    await deck.aclose()
    records = [json.loads(line) for line in audit.read_text().splitlines()] if audit.exists() \
        else []
    report["audit"] = records
    if not as_json:
        print(_heading(len(_STEPS) + 3, f"Audit log ({audit.name}, one JSON line per call)"))
        for rec in records:
            print(f"  {rec['tool']:<16} {rec['result']['type']:<8} {rec['command']}")
    return report


def run(as_json: bool) -> int:
    """Run the demo in a temporary directory; returns the exit code."""
    previous = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="tooldeck-demo-") as tmp:
        os.chdir(tmp)
        try:
            Path("notes.txt").write_text("tooldeck demo\nhello from a sandboxed file\n")
            audit = Path(tmp) / "audit.jsonl"
            doc = parse_document(embedded_default_text(), None, "embedded default")
            deck = Deck.from_config(doc, environ={**os.environ,
                                                  "TOOLDECK_TOOLS_AUDIT_PATH": str(audit)})
            if not as_json:
                print(f"tooldeck demo — embedded default configuration, sandbox {tmp}")
            report = asyncio.run(_tour(deck, audit, as_json))
        finally:
            os.chdir(previous)
    if as_json:
        print(json.dumps(report, indent=2, default=str))
    return EXIT_OK
