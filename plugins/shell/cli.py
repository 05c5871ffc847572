"""``tooldeck check bash "<command>"`` and ``tooldeck run [--yes] -- CMD [ARGS…]``.

``check bash`` runs nothing: it builds the deck from the configuration and asks its gates
exactly as a call would (:func:`tooldeck.judge.judge_call`: the same parameter validation,
the ``[tools] enabled`` switch and every gate's vote combined), then prints the verdict, its
provenance and the command words the analyzer saw. It exits 0 whatever the verdict (2 on a
configuration error). JSON keys: ``verdict``, ``reason``, ``gate``, ``rule``, ``source``
(a file, ``env``, ``default`` or ``builtin``), then ``pattern``, ``line`` and ``segment``
when known, ``policy`` (the digest of the policy generation that judged), ``segments``
(every command word the analyzer resolved, wrappers included, in order: ``env sudo id``
gives ``env``, ``sudo``, ``id``) and ``opaque``.

``run`` executes ``shlex.join(CMD ARGS…)`` through the whole pipeline (gates, confirmation,
executor, audit); stdout and stderr are printed to the matching streams and the exit code is
the command's (1 for a policy or tool error, 2 for a configuration error).
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
from collections.abc import Mapping
from typing import Any

__all__ = ["CheckBash", "RunCommand", "check_bash", "run_command"]



class _DeckCommand:
    """Shared by both commands: how a deck is opened.

    :param extra_plugins: plugins passed in by code (tests, embedding), as for
        :meth:`tooldeck.deck.Deck.from_config`.
    """

    def __init__(self, extra_plugins: Mapping[str, object] | None = None) -> None:
        self.extra_plugins = dict(extra_plugins or {})

    def _open(self, args: argparse.Namespace) -> Any:
        from tooldeck.deck import Deck

        return Deck.from_config(getattr(args, "config", None), extra_plugins=self.extra_plugins)


def _extra_wrappers(runtime: Any) -> tuple[str, ...]:
    from tooldeck.plugins.shell.executor import POLICY

    try:
        return tuple(runtime.stash_get(POLICY).settings.extra_wrappers)
    except KeyError:
        return ()


def _ask_tty(call: Any, decision: Any) -> bool:
    print(f"{decision.reason}\n  {call.params.get('command', '')}", file=sys.stderr)
    try:
        return input("Run it? [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False


class CheckBash(_DeckCommand):
    """``tooldeck check bash``: judge a command against the policy without running it."""

    help = "judge a shell command against the policy (nothing runs)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare the command argument."""
        parser.add_argument("shell_command", metavar="COMMAND", help="the command to judge")

    def judge(self, args: argparse.Namespace) -> dict[str, Any]:
        """The verdict as a dictionary (the ``--json`` output).

        Call it without a running event loop: the deck it opens is closed with
        ``asyncio.run``.

        :param args: parsed arguments (``shell_command``, ``config``).
        :returns: verdict, reason, provenance, policy, segments, opaque.
        :raises tooldeck.errors.ConfigError: the configuration cannot be used.
        """
        from tooldeck.judge import judge_call
        from tooldeck.shell_analysis import analyze

        deck = self._open(args)
        runtime = deck.runtime
        command: str = args.shell_command
        decision = judge_call(runtime, "bash", {"command": command}, caller_id="cli")
        analysis = analyze(command, extra_wrappers=_extra_wrappers(runtime))
        asyncio.run(deck.aclose())
        return {
            "verdict": decision.verdict.value,
            "reason": decision.reason,
            "rule": decision.rule,
            **decision.provenance(),
            "policy": runtime.digest(),
            "segments": [name for segment in analysis.segments
                         for name in (*segment.wrappers, segment.command) if name],
            "opaque": analysis.opaque,
        }

    def run(self, args: argparse.Namespace) -> int:
        """Print the verdict; exit 0 whatever it is."""
        from tooldeck.cli_api import EXIT_OK, config_error, emit
        from tooldeck.errors import ConfigError

        as_json = bool(getattr(args, "json", False))
        try:
            verdict = self.judge(args)
        except ConfigError as exc:
            return config_error(exc, as_json)
        rule = f" (rule {verdict['rule']})" if verdict["rule"] else ""
        text = (f"{verdict['verdict']}: {verdict['reason']}\n"
                f"  gate: {verdict['gate']}{rule}\n"
                f"  segments: {' | '.join(verdict['segments']) or '(none)'}"
                f"{'  [opaque]' if verdict['opaque'] else ''}")
        emit(verdict if as_json else None, text)
        return EXIT_OK


class RunCommand(_DeckCommand):
    """``tooldeck run``: execute a command through the full pipeline."""

    help = "run a shell command through the policy, e.g. tooldeck run -- ls -la"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare ``--yes`` and the command words."""
        parser.add_argument("--yes", action="store_true", help="approve an 'ask' at once")
        parser.add_argument("--raw", action="store_true",
                            help="print the command's untouched stdout and stderr instead of "
                                 "the filtered, redacted output (with --json: keep them in a "
                                 "file only you can read, named by raw_file)")
        parser.add_argument("argv", nargs=argparse.REMAINDER, metavar="-- CMD [ARGS…]")

    def run(self, args: argparse.Namespace) -> int:
        """Run it and print what the model would see; the exit code is the command's.

        Text mode prints the filtered, redacted output (``--raw``: the untouched streams).
        ``--json`` never inlines the unfiltered output.
        """
        from tooldeck.cli_api import (
            EXIT_CONFIG,
            EXIT_TOOL,
            config_error,
            emit,
            result_json,
            save_raw,
        )
        from tooldeck.errors import ConfigError
        from tooldeck.models import ToolCall

        as_json = bool(getattr(args, "json", False))
        argv = list(args.argv)
        if argv[:1] == ["--"]:
            argv = argv[1:]
        if not argv:
            print("tooldeck run: no command given (tooldeck run -- CMD [ARGS…])",
                  file=sys.stderr)
            return EXIT_CONFIG
        try:
            deck = self._open(args)
        except ConfigError as exc:
            return config_error(exc, as_json)
        confirm: Any = True if args.yes else (_ask_tty if sys.stdin.isatty() else None)

        async def call() -> Any:
            try:
                return await deck.call(ToolCall("bash", {"command": shlex.join(argv)},
                                                caller_id="cli"), confirm=confirm)
            finally:
                await deck.aclose()

        result = asyncio.run(call())
        if as_json:
            emit(result_json(result, save_raw(result) if args.raw else None), "")
        elif result.ok and args.raw:
            raw = result.output.raw_response or {}
            sys.stdout.write(raw.get("stdout", ""))
            sys.stderr.write(raw.get("stderr", ""))
        elif result.ok:
            print(result.text)
        else:
            print(result.text, file=sys.stderr)
        if not result.ok:
            return EXIT_TOOL
        return int(result.output.exit_code or 0)


check_bash = CheckBash()
"""The ``tooldeck.checks`` entry point ``bash``."""

run_command = RunCommand()
"""The ``tooldeck.commands`` entry point ``run``."""
