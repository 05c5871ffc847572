"""The CLI extension API: what a ``tooldeck.commands`` or ``tooldeck.checks`` command may use.

A plugin adds a subcommand by publishing, in one of those entry-point groups, an object that
satisfies :class:`Command` (see :mod:`tooldeck.cli` for how the groups are loaded). This
module is everything such a command needs from the core's command line, and the only part
of it a plugin may import: exit codes, printing text or JSON, opening a deck the way every
command does, a call result as JSON, keeping a call's raw output. ``tooldeck.cli`` itself is
the core's private implementation; an import-linter contract (``pyproject.toml``) forbids
plugins and filters from importing it.

Everything here is light to import: the deck and its machinery are imported inside the
functions that need them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tooldeck.deck import Deck, ToolResult

__all__ = [
    "EXIT_CONFIG", "EXIT_OK", "EXIT_TOOL", "Command", "common_options", "config_error", "emit",
    "open_deck", "operator_name", "result_json", "save_raw", "utc_stamp",
]

EXIT_OK = 0
EXIT_TOOL = 1
EXIT_CONFIG = 2
"""Exit codes: 0 success, 1 a tool error (or a verdict a command reports as failure), 2 a
usage or configuration error."""


@runtime_checkable
class Command(Protocol):
    """A subcommand contributed through an entry point."""

    help: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare the subcommand's own arguments."""

    def run(self, args: argparse.Namespace) -> int:
        """Run it and return the exit code (0 ok, 1 tool error, 2 usage or config error)."""


def common_options() -> argparse.ArgumentParser:
    """The ``--config`` and ``--json`` options every command accepts, as a parent parser.

    Give it as ``parents=[common_options()]`` to a command's own sub-parsers, so that the
    options may also follow the action (``tooldeck trust list --json``).
    """
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS,
                        help="configuration file (default: lookup order, see docs)")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="machine-readable output")
    return common


def operator_name() -> str:
    """Who runs this command, for audit records: ``cli:<user>``, or ``cli`` when unknown."""
    import getpass

    try:
        return f"cli:{getpass.getuser()}"
    except Exception:  # no user name in this environment: still say where it came from
        return "cli"


def utc_stamp(at: float) -> str:
    """A Unix time as ISO 8601 UTC to the second: ``2026-11-25T18:00:00Z``."""
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


def emit(data: Any, text: str, *, stream: IO[str] | None = None) -> None:
    """Print ``data`` as JSON when it is not ``None``, else ``text``."""
    out = stream if stream is not None else sys.stdout
    if data is not None:
        print(json.dumps(data, indent=2, ensure_ascii=False, default=str), file=out)
    else:
        print(text, file=out)


def config_error(exc: Exception, as_json: bool) -> int:
    """Report a configuration error the way every command does; returns :data:`EXIT_CONFIG`.

    :param exc: the error (its text names the file and key).
    :param as_json: print ``{"error": "config", "message": …}`` as JSON instead of the text.
    """
    emit({"error": "config", "message": str(exc)} if as_json else None,
         f"tooldeck: configuration error:\n{exc}", stream=sys.stderr)
    return EXIT_CONFIG


def open_deck(config: str | None) -> Deck:
    """A deck from ``--config`` or the lookup order; broken plugins are named on stderr.

    :raises tooldeck.errors.ConfigError: the configuration cannot be used.
    """
    from tooldeck.deck import Deck

    deck = Deck.from_config(config)
    for warning in deck.runtime.warnings:
        if warning.startswith(("plugin ", "untrusted ")):  # named once per command
            print(f"tooldeck: warning: {warning}", file=sys.stderr)
    return deck


def save_raw(result: ToolResult) -> Path | None:
    """Keep a call's unfiltered, unredacted output in a file only its owner can read.

    The file is ``<data dir>/raw/<call id>.json`` (mode 0600, its folder 0700) holding the
    tool's ``raw_response``. JSON output never carries that data itself: a program that
    parses ``--json`` and logs it would leak the secrets redaction took out.

    :returns: the file's path, or ``None`` when the call produced no output.
    """
    if result.output is None or not result.output.raw_response:
        return None
    from tooldeck.dirs import data_dir

    folder = data_dir() / "raw"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    path = folder / f"{result.call.call_id}.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as out:
        json.dump(dict(result.output.raw_response), out, ensure_ascii=False, default=str)
    return path


def result_json(result: ToolResult, raw_file: Path | None = None) -> dict[str, Any]:
    """A call result as the ``--json`` output of ``tooldeck call`` and ``tooldeck run``.

    ``text`` is what the model would be given: filtered and redacted. The unfiltered output
    is never inlined; ``raw_file`` names the file :func:`save_raw` wrote, when asked to.
    """
    decision = result.decision
    exit_code = (result.output.exit_code if result.output is not None
                 else result.error.exit_code if result.error is not None else None)
    return {
        "ok": result.ok,
        "text": result.text,
        "category": result.error.category.label if result.error else None,
        "retryable": result.error.retryable if result.error else None,
        "decision": None if decision is None else {
            "verdict": decision.verdict.value, "reason": decision.reason,
            **decision.provenance(),
        },
        "approved_by": result.approved_by,
        "approval_id": result.approval_id,
        "exit_code": exit_code,
        "raw_file": str(raw_file) if raw_file is not None else None,
        "duration_ms": round(result.duration_ms, 3),
    }
