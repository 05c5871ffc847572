"""The core's own subcommands, the ones not published through entry points."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from typing import Any

from tooldeck.catalog import render
from tooldeck.cli import config_cmds, demo, policy_cmd, replay_cmd
from tooldeck.cli_api import (
    EXIT_CONFIG,
    EXIT_OK,
    EXIT_TOOL,
    emit,
    open_deck,
    result_json,
    save_raw,
)
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.models import Decision, ToolCall

__all__ = ["run"]


def run(args: argparse.Namespace, config: str | None, as_json: bool) -> int:
    """Run the core subcommand named by ``args.command``; returns the exit code."""
    if args.command == "plugins":
        return _plugins(config, as_json)
    if args.command == "tools":
        deck = open_deck(config)
        fmt = "json" if as_json and args.format == "prompt" else args.format
        print(render(deck.tools(), fmt, deck.runtime.settings.core.tafc))
        return EXIT_OK
    if args.command == "call":
        return _call(open_deck(config), args.tool, args.params, args.yes, as_json, args.raw)
    if args.command == "config":
        return config_cmds.run(args, config, as_json)
    if args.command == "audit":
        return config_cmds.audit_tail(config, args.n, as_json)
    if args.command == "policy":
        return policy_cmd.run(args.file, config, as_json)
    if args.command == "replay":
        return replay_cmd.run(args.audit, config, as_json)
    if args.command == "watch":
        return _watch(open_deck(config), as_json)
    if args.command == "demo":
        return demo.run(as_json)
    print(f"tooldeck: unknown command {args.command!r}", file=sys.stderr)
    return EXIT_CONFIG


def _plugins(config: str | None, as_json: bool) -> int:
    """List the plugins; when the configuration cannot run, list them anyway and say why.

    Diagnosis never refuses: a broken gate plugin makes every call refuse to run, and this is
    the command that shows which one.
    """
    try:
        infos = list(open_deck(config).runtime.plugins)
    except ConfigError as exc:
        from tooldeck.diagnose import diagnose_config

        print(f"tooldeck: the configuration cannot run calls:\n{exc}", file=sys.stderr)
        infos = diagnose_config(config)
    data = [
        {"name": p.name, "dist": p.dist, "version": p.version, "state": p.state, "why": p.why,
         "hooks": list(p.hooks), "essential": p.essential}
        for p in infos
    ]
    lines = []
    width = max((len(p.name) for p in infos), default=0)
    for p in infos:
        note = f"  ({p.why})" if p.why else ""
        hooks = ", ".join(h.removeprefix("tooldeck_") for h in p.hooks) or "-"
        lines.append(f"{p.name:<{width}} {p.state:<9} {p.dist} {p.version}{note}\n"
                     f"{'':<{width}} hooks: {hooks}")
    emit(data if as_json else None, "\n".join(lines))
    return EXIT_OK


def _ask_tty(call: ToolCall, decision: Decision) -> bool:
    shown = call.input_text() or json.dumps(dict(call.params))
    print(f"{call.tool_id}: {decision.reason}\n  {shown}", file=sys.stderr)
    try:
        answer = input("Run it? [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def _call(deck: Deck, tool: str, params_json: str, yes: bool, as_json: bool,
          raw: bool) -> int:
    try:
        params: Any = json.loads(params_json)
    except json.JSONDecodeError as exc:
        print(f"tooldeck: --params is not valid JSON: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if not isinstance(params, dict):
        print("tooldeck: --params must be a JSON object", file=sys.stderr)
        return EXIT_CONFIG
    confirm: Any = True if yes else (_ask_tty if sys.stdin.isatty() else None)

    async def run() -> Any:
        try:
            return await deck.call(ToolCall(tool, params, caller_id="cli"), confirm=confirm)
        finally:
            await deck.aclose()

    result = asyncio.run(run())
    raw_file = save_raw(result) if raw else None
    if as_json:
        emit(result_json(result, raw_file), "")
    else:
        print(result.text)
        if raw_file is not None:
            print(f"tooldeck: unfiltered output kept in {raw_file}", file=sys.stderr)
    return EXIT_OK if result.ok else EXIT_TOOL


def _watch(deck: Deck, as_json: bool) -> int:
    def report(ok: bool) -> None:
        runtime = deck.runtime
        message: dict[str, str | None]
        if ok:
            message = {"event": "reloaded", "digest": runtime.digest()}
            text = f"reloaded: policy {runtime.digest()}"
        else:
            message = {"event": "reload_failed", "reason": deck.last_reload_error}
            text = f"reload refused, keeping the last good policy:\n{deck.last_reload_error}"
        emit(message if as_json else None, text, stream=sys.stderr)

    dirs = ", ".join(map(str, deck.watched_dirs())) or "(nothing: no config file)"
    emit({"event": "watching", "dirs": [str(d) for d in deck.watched_dirs()],
          "digest": deck.runtime.digest()} if as_json else None,
         f"watching {dirs}; policy {deck.runtime.digest()} (Ctrl-C to stop)", stream=sys.stderr)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(deck.watch(on_reload=report))
    return EXIT_OK
