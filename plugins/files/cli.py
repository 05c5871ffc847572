"""``tooldeck check path``: judge a path against the file sandbox; nothing is touched."""

from __future__ import annotations

import argparse
import json
from typing import Any, Literal, cast

__all__ = ["check_path_command"]


class CheckPath:
    """Resolve a path as the file tools would and say whether it is allowed.

    It asks the core's path service (:class:`tooldeck.services.PathService`), the one the
    file tools and plugins use, so it judges exactly the path ``read`` would open.
    """

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
        from tooldeck.errors import ConfigError
        from tooldeck.services import PathService

        try:
            runtime = open_deck(getattr(args, "config", None)).runtime
            settings = runtime.settings
            paths = PathService.from_settings(settings, roots=args.root)
        except ConfigError as exc:
            return config_error(exc, bool(getattr(args, "json", False)))
        check = paths.check(args.path, cast(Literal["read", "write", "delete"], args.op))
        report: dict[str, Any] = {
            "verdict": check.verdict,
            "resolved": None if check.resolved is None else str(check.resolved),
            "reason": check.reason,
        }
        if check.category is not None:
            report["category"] = check.category
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
