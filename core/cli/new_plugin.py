"""``tooldeck new-plugin NAME --kind executor|gate|strategy [--dir D]``: start a plugin.

Writes an installable distribution ``tooldeck-<name>/`` into ``D`` (default: the current
directory): ``pyproject.toml`` with the entry point (and, for a gate, its ``tooldeck.gates``
entry), the package ``src/tooldeck_<name>/``, a test using the ``tooldeck.testing`` fixtures,
and a README. ``pip install -e ".[test]" && pytest`` in it passes as generated.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

__all__ = ["NAME_PATTERN", "NewPlugin", "new_plugin_command", "write_plugin"]

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,39}")
"""A plugin name: a lowercase Python identifier (it names the entry point and the package)."""


def write_plugin(name: str, kind: str, directory: Path) -> Path:
    """Write the distribution of a new plugin.

    :param name: the plugin name (:data:`NAME_PATTERN`).
    :param kind: ``executor``, ``gate`` or ``strategy``.
    :param directory: where the distribution's folder is created.
    :returns: the new folder, ``directory / "tooldeck-<name>"``.
    :raises ValueError: an invalid name or kind.
    :raises FileExistsError: the folder already exists (nothing is overwritten).
    """
    from tooldeck.cli.plugin_templates import KINDS, files_for

    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"invalid plugin name {name!r}: use lowercase letters, digits and _, "
                         "starting with a letter (at most 40 characters)")
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (expected one of: {', '.join(KINDS)})")
    target = directory / f"tooldeck-{name.replace('_', '-')}"
    target.mkdir(parents=True)
    for relative, text in files_for(name, kind).items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return target


class NewPlugin:
    """The ``tooldeck new-plugin`` command (entry point group ``tooldeck.commands``)."""

    help = "write a new plugin distribution (executor, gate or strategy) to start from"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """``NAME --kind KIND [--dir D]``.

        :param parser: the subcommand's parser.
        """
        parser.add_argument("name", help="plugin name, e.g. sqlite_query")
        parser.add_argument("--kind", required=True, choices=("executor", "gate", "strategy"))
        parser.add_argument("--dir", default=".", metavar="D",
                            help="where to create tooldeck-<name>/ (default: .)")

    def run(self, args: argparse.Namespace) -> int:
        """Write the distribution; exit 2 for a bad name or an existing folder.

        :param args: the parsed arguments.
        :returns: the exit code.
        """
        try:
            target = write_plugin(args.name, args.kind, Path(args.dir))
        except (ValueError, OSError) as exc:
            print(f"tooldeck new-plugin: {exc}", file=sys.stderr)
            return 2
        if getattr(args, "json", False):
            print(json.dumps({"path": str(target), "name": args.name, "kind": args.kind}))
        else:
            print(f"wrote {target}\nnext: cd {target} && pip install -e '.[test]' && pytest")
        return 0


new_plugin_command = NewPlugin()
"""The object published in entry-point group ``tooldeck.commands`` as ``new-plugin``."""
