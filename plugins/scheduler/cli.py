"""``tooldeck scheduler run|list``: the ``tooldeck.commands`` entry point of the scheduler.

``run`` builds a deck from the configuration and fires scheduled tasks through it until
interrupted (``--once``: fire what is due now and exit). ``list`` prints every scope's tasks.
"""

from __future__ import annotations

import argparse
import json
import sys

__all__ = ["SchedulerCommand", "scheduler_command"]

EXIT_OK, EXIT_CONFIG = 0, 2


class SchedulerCommand:
    """``tooldeck scheduler``: run or list scheduled tasks."""

    help = "fire scheduled tool calls (run) or list them (list)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare the action and ``--once``."""
        parser.add_argument("action", choices=("run", "list"), help="what to do")
        parser.add_argument("--once", action="store_true",
                            help="run: fire the tasks due now, then exit")

    def run(self, args: argparse.Namespace) -> int:
        """Run the scheduler, or print the tasks; exit 2 on a configuration error."""
        import asyncio

        from tooldeck.deck import Deck
        from tooldeck.errors import ConfigError

        try:
            deck = Deck.from_config(getattr(args, "config", None))
        except ConfigError as exc:
            print(f"tooldeck: configuration error:\n{exc}", file=sys.stderr)
            return EXIT_CONFIG
        try:
            return asyncio.run(self._act(deck, args))
        except KeyboardInterrupt:
            return EXIT_OK
        finally:
            deck.close()

    @staticmethod
    async def _act(deck: object, args: argparse.Namespace) -> int:
        import asyncio

        from tooldeck.plugins.scheduler.runner import TaskRunner

        runner = TaskRunner(deck)  # type: ignore[arg-type]
        try:
            if args.action == "list":
                tasks = runner.store.tasks()
                if getattr(args, "json", False):
                    print(json.dumps([{"scope": t.scope, "name": t.name, "tool": t.tool,
                                       "cron": t.cron, "next_run": t.next_run,
                                       "runs": t.runs} for t in tasks], indent=2))
                for task in tasks if not getattr(args, "json", False) else ():
                    print(f"{task.scope}\t{task.name}\t{task.tool}\t{task.cron or 'once'}\t"
                          f"{task.next_run:.0f}\t{task.runs}")
                return EXIT_OK
            if args.once:
                for task, result in await runner.run_due():
                    status = "ok" if result.ok else f"failed: {result.text.splitlines()[0]}"
                    print(f"{task.name}: {task.tool} {status}")
                return EXIT_OK
            await runner.run(asyncio.Event())
            return EXIT_OK
        finally:
            runner.close()


scheduler_command = SchedulerCommand()
