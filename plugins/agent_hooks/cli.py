"""``tooldeck hook AGENT`` and ``tooldeck serve``: the ``tooldeck.commands`` entry points.

``hook`` reads one hook event on stdin and prints the answer. It asks the warm server first
(one round trip on the user-only socket); when no server listens it starts one in the
background and, like on every other failure (unsafe socket, timeout, garbage answer),
computes the answer in this process from a freshly built deck. It never answers "allow" for
want of a server. Its exit code is 0 or 2 only (2: blocking, the reason on stderr), since
the agents read any other code as a non-blocking error and run the tool.

``serve`` runs the server in the foreground until idle for ``--idle-timeout`` seconds.
"""

from __future__ import annotations

import argparse
import sys

from tooldeck.plugins.agent_hooks.agents import AGENTS

__all__ = ["HookCommand", "ServeCommand", "hook_command", "serve_command"]

EXIT_OK, EXIT_BLOCK = 0, 2
IDLE_TIMEOUT_S = 1800.0


class HookCommand:
    """``tooldeck hook AGENT``: answer one hook event of a coding agent."""

    help = "answer a coding agent's tool hook event (JSON on stdin) with the policy's verdict"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare the agent and the server switches."""
        parser.add_argument("agent", choices=AGENTS, help="whose hook format to speak")
        parser.add_argument("--cold", action="store_true",
                            help="decide in this process; never talk to a server")
        parser.add_argument("--no-start", action="store_true",
                            help="do not start a server when none is running")

    def run(self, args: argparse.Namespace) -> int:
        """Print the answer; exit 0, or 2 with the reason on stderr (the call is refused)."""
        config = getattr(args, "config", None)
        try:
            text = sys.stdin.read()
            stdout, code, stderr = self._answer(args, text, config)
        except Exception as exc:  # any failure refuses the call, never lets it through
            stdout, code, stderr = "", EXIT_BLOCK, f"tooldeck hook failed: {exc!r}"
        if stdout:
            sys.stdout.write(stdout + "\n")
        if stderr:
            sys.stderr.write(stderr + "\n")
        return code

    @staticmethod
    def _answer(args: argparse.Namespace, text: str, config: str | None) -> tuple[str, int, str]:
        if not args.cold:
            from tooldeck.plugins.agent_hooks import client

            try:
                return client.ask_server(args.agent, text, config)
            except client.ServerAbsent:
                if not args.no_start:
                    client.start_server(config)
            except client.ServerUnavailable:
                pass  # a server that answers badly is not trusted: decide cold, below
        from tooldeck.plugins.agent_hooks.decide import cold_answer

        answer = cold_answer(args.agent, text, config)
        return answer.stdout, answer.exit_code, answer.stderr


class ServeCommand:
    """``tooldeck serve``: keep a deck warm for ``tooldeck hook``."""

    help = "answer tooldeck hook requests from a warm deck on a user-only Unix socket"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare ``--idle-timeout``."""
        parser.add_argument("--idle-timeout", type=float, default=IDLE_TIMEOUT_S, metavar="S",
                            help=f"exit after S seconds without a request "
                                 f"(default {IDLE_TIMEOUT_S:.0f})")

    def run(self, args: argparse.Namespace) -> int:
        """Serve until idle; 0 also when another server already runs, 2 when refused."""
        import asyncio

        from tooldeck.errors import ConfigError
        from tooldeck.plugins.agent_hooks.client import UnsafeSocket
        from tooldeck.plugins.agent_hooks.server import AlreadyRunning, refuse, serve

        def ready(path: str) -> None:
            print(f"tooldeck serve: listening on {path}", file=sys.stderr, flush=True)

        try:
            asyncio.run(serve(getattr(args, "config", None), idle_timeout=args.idle_timeout,
                              ready=ready))
        except UnsafeSocket as exc:
            return refuse(exc)
        except AlreadyRunning as exc:
            print(f"tooldeck serve: a server already listens on {exc}", file=sys.stderr)
        except ConfigError as exc:
            print(f"tooldeck: configuration error:\n{exc}", file=sys.stderr)
            return EXIT_BLOCK
        except OSError as exc:  # e.g. a socket path longer than the system allows
            print(f"tooldeck serve: cannot listen: {exc}", file=sys.stderr)
            return EXIT_BLOCK
        except (KeyboardInterrupt, asyncio.CancelledError):
            return EXIT_OK  # stopped by the user or a signal: a normal end
        return EXIT_OK


hook_command = HookCommand()
"""The ``tooldeck.commands`` entry point ``hook``."""

serve_command = ServeCommand()
"""The ``tooldeck.commands`` entry point ``serve``."""
