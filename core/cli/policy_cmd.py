"""``tooldeck policy test [FILE]``: load a policy and run every inline example it carries.

Loading a policy already checks its examples: each permission or overlay rule's ``match`` /
``not_match`` examples, every ``[[examples.calls]]`` (:mod:`tooldeck.policy_examples`), and
what plugins check of their own (the ``[[rules.tests]]`` of the user's filter rules, the
``[[tools.file.examples]]`` path examples), counted in :attr:`Runtime.examples_passed`.
This command does only that, on FILE (or ``--config``, or the lookup order), and says how
many passed, or which one failed and why. Nothing runs and nothing is audited.

Exit codes: 0 every example passed; 1 the policy is refused (a failing example, or any other
error, named).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from typing import Any

from tooldeck.cli_api import EXIT_OK, EXIT_TOOL, emit
from tooldeck.config import ExamplesConfig, Settings
from tooldeck.errors import ConfigError

__all__ = ["run"]


def _rule_examples(settings: Settings) -> int:
    """How many ``match``/``not_match`` examples the configuration's permission rules carry."""
    count = 0
    for rules in settings.table("tools.permissions").values():
        for rule in rules if isinstance(rules, (list, tuple)) else ():
            if isinstance(rule, Mapping):
                count += len(rule.get("match", ())) + len(rule.get("not_match", ()))
    return count


def run(file: str | None, config: str | None, as_json: bool) -> int:
    """Load the policy and report its examples; returns the exit code."""
    from tooldeck.deck import Deck

    try:
        deck = Deck.from_config(file or config,
                                environ={**os.environ, "TOOLDECK_TOOLS_AUDIT_ENABLED": "false"})
    except ConfigError as exc:
        emit({"ok": False, "error": str(exc)} if as_json else None,
             f"policy refused:\n{exc}")
        return EXIT_TOOL
    try:
        runtime = deck.runtime
        settings = runtime.settings
        report: dict[str, Any] = {
            "ok": True, "file": settings.document.label, "policy": runtime.digest(),
            "example_calls": len(settings.get(ExamplesConfig).calls),
            "rule_examples": _rule_examples(settings),
            "plugin_examples": dict(runtime.examples_passed),
            "overlays": [str(p) for p in runtime.policy_files],
        }
    finally:
        asyncio.run(deck.aclose())
    emit(report if as_json else None,
         f"policy {report['policy']} ({report['file']}): {report['example_calls']} example "
         f"calls and {report['rule_examples']} rule examples passed"
         + "".join(f", {n} {kind}" for kind, n in report["plugin_examples"].items() if n)
         + (f"; overlays: {', '.join(report['overlays'])}" if report["overlays"] else ""))
    return EXIT_OK
