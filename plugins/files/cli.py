"""``tooldeck check path``: judge a path against the file sandbox; nothing is touched."""

from __future__ import annotations

import argparse
import json
from typing import Any, Literal, cast

__all__ = ["check_path_command"]


class CheckPath:
    """Resolve a path as the file tools would and say whether it is allowed."""

    help = "judge a path against the file sandbox (nothing is touched)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """``PATH [--root DIR …] [--op read|write|delete]``."""
        parser.add_argument("path")
        parser.add_argument("--root", action="append", default=None, metavar="DIR",
                            help="sandbox root (repeatable; default: [tools.file] allowed_paths)")
        parser.add_argument("--op", choices=("read", "write", "delete"), default="read")

    def run(self, args: argparse.Namespace) -> int:
        """Print ``verdict``, ``resolved`` and ``reason``; exit 0 whatever the verdict.

        ``--json`` adds ``source`` (where the sandbox roots came from: ``--root``, the file
        of ``[tools.file] allowed_paths``, ``env`` or ``default``) and ``policy`` (the digest
        of the policy generation that judged).
        """
        from tooldeck.cli_api import EXIT_OK, config_error, open_deck
        from tooldeck.errors import ConfigError, ToolError
        from tooldeck.paths import PathSandbox
        from tooldeck.plugins.files.settings import FileSettings

        try:
            runtime = open_deck(getattr(args, "config", None)).runtime
            settings = runtime.settings
            file_settings = settings.get(FileSettings)
            roots = args.root if args.root else file_settings.allowed_paths
            sandbox = PathSandbox(roots, deny_read=file_settings.deny_read,
                                  allow_read=file_settings.allow_read)
        except ConfigError as exc:
            return config_error(exc, bool(getattr(args, "json", False)))
        op = cast(Literal["read", "write", "delete"], args.op)
        report: dict[str, Any]
        try:
            resolved = sandbox.resolve(args.path, op=op)
            report = {"verdict": "allow", "resolved": str(resolved),
                      "reason": f"{op} allowed inside {sandbox.root_of(resolved)}"}
        except ToolError as exc:
            report = {"verdict": "deny", "resolved": None, "reason": exc.message,
                      "category": exc.category.label}
        report["source"] = ("--root" if args.root
                            else settings.origin("tools.file.allowed_paths"))
        report["policy"] = runtime.digest()
        if getattr(args, "json", False):
            print(json.dumps(report, indent=2))
        else:
            where = f" → {report['resolved']}" if report["resolved"] else ""
            print(f"{report['verdict']}{where}: {report['reason']}")
        return EXIT_OK


check_path_command = CheckPath()
"""The object published in entry-point group ``tooldeck.checks`` as ``path``."""
