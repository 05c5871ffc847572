"""The ``tooldeck`` command line.

Exit codes: 0 success, 1 a tool error (with ``--json`` the category is in the output),
2 a usage or configuration error. Every command accepts ``--json`` and ``--config FILE``.

Start-up is kept light: this module imports only the parser's needs, and a command imports
its machinery (pydantic, the runtime) when it runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tooldeck import __version__
from tooldeck.catalog import FORMATS
from tooldeck.cli.extensions import CHECKS_GROUP, COMMANDS_GROUP, Command, invoked, load_commands
from tooldeck.cli_api import EXIT_CONFIG, common_options
from tooldeck.errors import ConfigError

__all__ = ["build_parser", "main"]


def build_parser(
    commands: dict[str, Command] | None = None,
    checks: dict[str, Command] | None = None,
    *,
    argv: Sequence[str] = (),
) -> argparse.ArgumentParser:
    """The argument parser for every ``tooldeck`` command.

    :param commands: extra top-level subcommands (default: the ``tooldeck.commands`` group).
    :param checks: kinds of ``tooldeck check`` (default: the ``tooldeck.checks`` group).
    :param argv: the arguments about to be parsed: only the entry-point command they invoke
        is imported.
    """
    if commands is None:
        commands = load_commands(COMMANDS_GROUP, only=invoked(argv, COMMANDS_GROUP) or "")
    if checks is None:
        checks = load_commands(CHECKS_GROUP, only=invoked(argv, CHECKS_GROUP) or "")
    common = common_options()
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
    call.add_argument("--raw", action="store_true",
                      help="also keep the unfiltered output in a file only you can read "
                           "(its path: raw_file in --json, else on stderr)")

    config = sub.add_parser("config", parents=[common], help="check or show configuration")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    check = config_sub.add_parser("check", parents=[common], help="validate a config file")
    check.add_argument("file", nargs="?", help="file to check (default: lookup order)")
    trust = config_sub.add_parser(
        "trust", parents=[common],
        help="trust a project's tooldeck.toml with its current content (until it changes)")
    trust.add_argument("file", nargs="?", default="tooldeck.toml",
                       help="the file (default: ./tooldeck.toml)")
    config_sub.add_parser("show", parents=[common],
                          help="effective configuration and where each value came from")

    audit = sub.add_parser("audit", parents=[common], help="read the audit log")
    audit_sub = audit.add_subparsers(dest="audit_command", metavar="ACTION", required=True)
    tail = audit_sub.add_parser("tail", parents=[common], help="print the last records")
    tail.add_argument("-n", type=int, default=10, metavar="N", help="how many (default 10)")

    policy = sub.add_parser("policy", parents=[common], help="test a policy")
    policy_sub = policy.add_subparsers(dest="policy_command", metavar="ACTION", required=True)
    policy_test = policy_sub.add_parser(
        "test", parents=[common],
        help="load a policy and run its inline examples (rules' match/not_match, "
             "[[examples.calls]]); nothing runs")
    policy_test.add_argument("file", nargs="?", help="the policy (default: --config, or the "
                             "lookup order)")

    replay = sub.add_parser(
        "replay", parents=[common],
        help="re-judge an audit log's calls under a policy (--config) and print the decisions "
             "that change; nothing runs; exit 1 when any call would be loosened")
    replay.add_argument("audit", metavar="AUDIT.jsonl", help="the audit log to replay")

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


EXIT_BROKEN_PIPE = 141
"""The exit status when the reader of our output went away (``tooldeck … | head``): the
status a shell gives a process killed by ``SIGPIPE``, reached without a traceback."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (also used as the process exit status).

    A closed standard output (``tooldeck demo | head``) ends the command quietly with
    :data:`EXIT_BROKEN_PIPE`.
    """
    try:
        return _main(argv)
    except BrokenPipeError:
        # Python flushes stdout once more at exit; point it at /dev/null so that flush
        # cannot fail and print "Exception ignored … BrokenPipeError".
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE


def _main(argv: Sequence[str] | None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv=arguments)
    args = parser.parse_args(arguments)
    if args.command is None:
        parser.print_help()
        return EXIT_CONFIG
    as_json = bool(getattr(args, "json", False))
    config = getattr(args, "config", None)
    try:
        extension = getattr(args, "extension", None)
        if extension is not None:
            return int(extension.run(args))
        from tooldeck.cli import commands

        return commands.run(args, config, as_json)
    except ConfigError as exc:
        if as_json:
            import json

            print(json.dumps({"error": "config", "message": str(exc)}, indent=2))
        print(f"tooldeck: configuration error:\n{exc}", file=sys.stderr)
        return EXIT_CONFIG
