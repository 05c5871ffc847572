"""Subcommands that live outside the core, found through entry points.

The core may not import ``tooldeck.plugins`` or ``tooldeck.filters``, yet ``tooldeck check
bash`` belongs with the shell plugin and ``tooldeck filter`` with the filter engine. They are
published as entry points instead:

- group ``tooldeck.commands``: top-level subcommands (``filter``, ``run``);
- group ``tooldeck.checks``: kinds of ``tooldeck check KIND`` (``bash``, ``path``, ``url``).

Each entry point names an object with a ``help`` string, ``add_arguments(parser)`` and
``run(args) -> int`` (the exit code): a :class:`tooldeck.cli_api.Command`. Such a command
uses :mod:`tooldeck.cli_api`, the documented extension API; this package is private to the
core. Only tooldeck's own distribution may add subcommands:
an installed third-party package must not run code at every CLI start-up without the
operator enabling it, and plugin enablement lives in the configuration the command has not
read yet. Keep command modules light to import; import heavy things inside ``run``.
"""

from __future__ import annotations

import argparse
import configparser
import importlib
import os
import sys
from collections.abc import Sequence

from tooldeck.cli_api import Command

__all__ = ["CHECKS_GROUP", "COMMANDS_GROUP", "Command", "invoked", "load_commands"]

COMMANDS_GROUP = "tooldeck.commands"
CHECKS_GROUP = "tooldeck.checks"
_OWN_DIST = "tooldeck"


class _Unavailable:
    """Stands in for a command whose module failed to import; says why when invoked."""

    def __init__(self, name: str, why: str) -> None:
        self.help = f"(unavailable: {why})"
        self._message = f"tooldeck: command {name!r} is unavailable: {why}"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("rest", nargs=argparse.REMAINDER)

    def run(self, args: argparse.Namespace) -> int:
        import sys

        print(self._message, file=sys.stderr)
        return 2


class _NotLoaded:
    """Lists a command in ``--help`` without importing it; only the invoked one is loaded."""

    def __init__(self, name: str) -> None:
        self.help = f"(see: tooldeck {name} --help)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("rest", nargs=argparse.REMAINDER)

    def run(self, args: argparse.Namespace) -> int:  # pragma: no cover - never chosen
        return 2


def _own_entry_points() -> dict[str, dict[str, str]] | None:
    """Read tooldeck's own entry points by group straight from its ``entry_points.txt``.

    ``importlib.metadata`` costs more to import (it pulls in ``email`` and ``socket``) than
    the ``tooldeck filter`` command may spend starting up in total, and only tooldeck's own
    distribution may add commands, so its ``.dist-info`` is looked up on ``sys.path`` in
    import order. ``None`` when it is not found that way (then the standard lookup runs).
    """
    for base in sys.path:
        try:
            names = os.listdir(base or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(f"{_OWN_DIST}-") and name.endswith(".dist-info"):
                parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
                parser.optionxform = str  # type: ignore[assignment,method-assign]
                if not parser.read(os.path.join(base or ".", name, "entry_points.txt")):
                    return None
                return {group: dict(parser.items(group)) for group in parser.sections()}
    return None


def _entry_points(group: str) -> dict[str, str]:
    own = _own_entry_points()
    if own is not None:
        return own.get(group, {})
    from importlib import metadata

    return {ep.name: ep.value for ep in metadata.entry_points(group=group)
            if ep.dist is not None and ep.dist.metadata["Name"] == _OWN_DIST}


def _load(value: str) -> object:
    module_name, _, attribute = value.partition(":")
    obj: object = importlib.import_module(module_name.strip())
    for part in filter(None, attribute.strip().split(".")):
        obj = getattr(obj, part)
    return obj


def load_commands(group: str, *, only: str | None = None) -> dict[str, Command]:
    """The commands of ``group`` shipped by tooldeck itself, by name, sorted.

    :param only: import just this command; the others are listed without being imported
        (importing a plugin's command module can cost more than the command itself).
        ``None`` imports them all.
    """
    found: dict[str, Command] = {}
    for name, value in _entry_points(group).items():
        if only is not None and name != only:
            found[name] = _NotLoaded(name)
            continue
        try:
            command = _load(value)
        except Exception as exc:
            found[name] = _Unavailable(name, f"{type(exc).__name__}: {exc}")
            continue
        found[name] = (command if isinstance(command, Command)
                       else _Unavailable(name, "entry point is not a command object"))
    return dict(sorted(found.items()))


def invoked(argv: Sequence[str], group: str) -> str | None:
    """The command of ``group`` that ``argv`` invokes, found without parsing it.

    For ``tooldeck.checks`` that is the word after ``check``; for ``tooldeck.commands`` the
    first word that is not an option (or the value of ``--config``). A name that is no
    command only means nothing gets imported ahead of parsing.
    """
    words = [w for i, w in enumerate(argv)
             if not w.startswith("-") and (i == 0 or argv[i - 1] != "--config")]
    if group == CHECKS_GROUP:
        return words[1] if len(words) > 1 and words[0] == "check" else None
    return words[0] if words else None
