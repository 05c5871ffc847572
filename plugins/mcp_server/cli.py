"""``tooldeck mcp serve [--transport stdio|http] [--config F]``: serve the deck over MCP.

stdio serves one client on stdin/stdout (what editors and agent CLIs launch). ``http``
serves streamable HTTP at ``http://HOST:PORT/mcp``; ``HOST`` defaults to ``127.0.0.1`` and any
non-loopback address needs a bearer token (``$TOOLDECK_MCP_TOKEN``, or ``--token``). Exit
codes: 0 after the client or the server stops, 2 for a configuration or usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

__all__ = ["McpCommand", "mcp_command"]

EXIT_OK, EXIT_CONFIG = 0, 2
TOKEN_ENV = "TOOLDECK_MCP_TOKEN"


class McpCommand:
    """``tooldeck mcp``: the Model Context Protocol server."""

    help = "serve the deck's tools to MCP clients (tooldeck mcp serve)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare ``serve`` and its transport options."""
        actions = parser.add_subparsers(dest="mcp_action", metavar="ACTION", required=True)
        serve = actions.add_parser("serve", help="serve the tools until the client disconnects")
        serve.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS,
                           help="configuration file (default: lookup order, see docs)")
        serve.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                           help="stdio (default) or streamable http")
        serve.add_argument("--host", default="127.0.0.1",
                           help="http: address to bind (default 127.0.0.1)")
        serve.add_argument("--port", type=int, default=8765,
                           help="http: port (default 8765; 0 picks a free one)")
        serve.add_argument("--token", default=None,
                           help=f"http: bearer token required from clients (default ${TOKEN_ENV}; "
                                "the variable keeps it out of the process list)")

    def run(self, args: argparse.Namespace) -> int:
        """Serve until the client disconnects (stdio) or the process is interrupted (http)."""
        import asyncio

        from tooldeck.deck import Deck
        from tooldeck.errors import ConfigError
        from tooldeck.plugins.mcp_server.http import (
            UnsafeBind,
            bind,
            check_bind,
            serve_http,
            url_of,
        )

        try:
            from tooldeck.plugins.mcp_server.server import DeckServer
        except ImportError as exc:
            print(f"tooldeck mcp: the MCP SDK is not installed ({exc}); "
                  "pip install 'tooldeck[mcp]'", file=sys.stderr)
            return EXIT_CONFIG

        token = args.token or os.environ.get(TOKEN_ENV) or None
        sock = None
        if args.transport == "http":
            try:
                check_bind(args.host, token)
                sock = bind(args.host, args.port)
            except (UnsafeBind, OSError) as exc:
                print(f"tooldeck mcp: cannot serve on {args.host}:{args.port}: {exc}",
                      file=sys.stderr)
                return EXIT_CONFIG
        try:
            deck = Deck.from_config(getattr(args, "config", None))
        except ConfigError as exc:
            if sock is not None:
                sock.close()
            print(f"tooldeck: configuration error:\n{exc}", file=sys.stderr)
            return EXIT_CONFIG

        async def serve() -> None:
            server = DeckServer(deck)
            try:
                if sock is not None:
                    print(f"tooldeck mcp: serving {url_of(sock, args.host)}", file=sys.stderr,
                          flush=True)
                    await serve_http(server, sock, args.host, token)
                else:
                    await server.serve_stdio()
            finally:
                await deck.aclose()

        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve())
        return EXIT_OK


mcp_command = McpCommand()
"""The ``tooldeck.commands`` entry point ``mcp``."""
