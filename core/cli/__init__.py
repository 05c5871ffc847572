"""The ``tooldeck`` command line.

Exit codes: 0 success, 1 a tool error (with ``--json`` the category is in the output),
2 a usage or configuration error. Every command accepts ``--json`` and ``--config FILE``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from collections.abc import Sequence
from typing import Any

from tooldeck import __version__
from tooldeck.catalog import FORMATS, render
from tooldeck.cli import config_cmds, demo
from tooldeck.cli.common import EXIT_CONFIG, EXIT_OK, EXIT_TOOL, emit, open_deck, result_json
from tooldeck.cli.extensions import CHECKS_GROUP, COMMANDS_GROUP, Command, load_commands
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.models import Decision, ToolCall

__all__ = ["build_parser", "main"]


def _common() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS,
                        help="configuration file (default: lookup order, see docs)")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="machine-readable output")
    return common


def build_parser(
    commands: dict[str, Command] | None = None, checks: dict[str, Command] | None = None
) -> argparse.ArgumentParser:
    """The argument parser for every ``tooldeck`` command.

    :param commands: extra top-level subcommands (default: the ``tooldeck.commands`` group).
    :param checks: kinds of ``tooldeck check`` (default: the ``tooldeck.checks`` group).
    """
    commands = load_commands(COMMANDS_GROUP) if commands is None else commands
    checks = load_commands(CHECKS_GROUP) if checks is None else checks
    common = _common()
    parser = argparse.ArgumentParser(
        prog="tooldeck", parents=[common],
        description="Typed, governed tools for LLM agents.",
    )
    parser.add_argument("--version", action="version", version=f"tooldeck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub.add_parser("plugins", parents=[common], help="list installed plugins and their state")

    tools = sub.add_parser("tools", parents=[common], help="print the tool catalog")
    tools.add_argument("--format", choices=FORMATS, default="prompt")

    call = sub.add_parser("call", parents=[common], help="run one tool call")
    call.add_argument("tool")
    call.add_argument("--params", default="{}", metavar="JSON", help="parameters as JSON")
    call.add_argument("--yes", action="store_true", help="approve an 'ask' without prompting")

    config = sub.add_parser("config", parents=[common], help="check or show configuration")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    check = config_sub.add_parser("check", parents=[common], help="validate a config file")
    check.add_argument("file", nargs="?", help="file to check (default: lookup order)")
    config_sub.add_parser("show", parents=[common],
                          help="effective configuration and where each value came from")

    audit = sub.add_parser("audit", parents=[common], help="read the audit log")
    audit_sub = audit.add_subparsers(dest="audit_command", metavar="ACTION", required=True)
    tail = audit_sub.add_parser("tail", parents=[common], help="print the last records")
    tail.add_argument("-n", type=int, default=10, metavar="N", help="how many (default 10)")

    sub.add_parser("watch", parents=[common],
                   help="run a deck in the foreground, hot-reloading its policy")
    sub.add_parser("demo", parents=[common],
                   help="a short guided run on the embedded default configuration")

    if checks:
        check_cmd = sub.add_parser("check", parents=[common],
                                   help="judge an input against the policy; nothing runs")
        kinds = check_cmd.add_subparsers(dest="check_kind", metavar="KIND", required=True)
        for name, command in checks.items():
            kind = kinds.add_parser(name, parents=[common], help=command.help)
            command.add_arguments(kind)
            kind.set_defaults(extension=command)
    for name, command in commands.items():
        extra = sub.add_parser(name, parents=[common], help=command.help)
        command.add_arguments(extra)
        extra.set_defaults(extension=command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (also used as the process exit status)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_CONFIG
    as_json = bool(getattr(args, "json", False))
    config = getattr(args, "config", None)
    try:
        extension = getattr(args, "extension", None)
        if extension is not None:
            return int(extension.run(args))
        if args.command == "plugins":
            return _plugins(open_deck(config), as_json)
        if args.command == "tools":
            deck = open_deck(config)
            fmt = "json" if as_json and args.format == "prompt" else args.format
            print(render(deck.tools(), fmt, deck.runtime.settings.core.tafc))
            return EXIT_OK
        if args.command == "call":
            return _call(open_deck(config), args.tool, args.params, args.yes, as_json)
        if args.command == "config":
            return config_cmds.run(args, config, as_json)
        if args.command == "audit":
            return config_cmds.audit_tail(config, args.n, as_json)
        if args.command == "watch":
            return _watch(open_deck(config), as_json)
        if args.command == "demo":
            return demo.run(as_json)
    except ConfigError as exc:
        emit({"error": "config", "message": str(exc)} if as_json else None,
             f"tooldeck: configuration error:\n{exc}", stream=sys.stderr)
        return EXIT_CONFIG
    parser.error(f"unknown command {args.command!r}")
    return EXIT_CONFIG  # pragma: no cover - parser.error exits


def _plugins(deck: Deck, as_json: bool) -> int:
    infos = deck.runtime.plugins
    data = [
        {"name": p.name, "dist": p.dist, "version": p.version, "state": p.state, "why": p.why,
         "hooks": list(p.hooks), "essential": p.essential}
        for p in infos
    ]
    lines = []
    for p in infos:
        note = f"  ({p.why})" if p.why else ""
        hooks = ", ".join(h.removeprefix("tooldeck_") for h in p.hooks) or "-"
        lines.append(f"{p.name:<14} {p.state:<9} {p.dist} {p.version}{note}\n"
                     f"{'':<14} hooks: {hooks}")
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


def _call(deck: Deck, tool: str, params_json: str, yes: bool, as_json: bool) -> int:
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
    emit(result_json(result) if as_json else None, result.text)
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
