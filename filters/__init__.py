"""The declarative output filter engine and its strategy plugins.

Importing this package is cheap: the public names below are loaded on first use.

- :class:`FilterEngine` (``FilterEngine.from_settings(...).apply(command, output, exit_code)``)
  and its :class:`FilterResult`, :class:`FilterSettings`;
- :class:`Strategy` (base of every strategy type), :class:`StrategyRegistry` and
  :func:`default_strategy_registry`;
- :func:`parse_rules`, :func:`load_rules`, :func:`builtin_rules`, :func:`verify_rules`;
- :func:`sanitize_output`, :class:`FilterConfidence`, :class:`FilterMetrics`.

The built-in plugin that wires the engine into the call pipeline is
:mod:`tooldeck.filters.plugin` (entry point ``filters``); the ``tooldeck filter`` command is
:mod:`tooldeck.filters.cli`. Secrets are found and redacted by the core's :mod:`tooldeck.secrets`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tooldeck.filters.command import last_command
    from tooldeck.filters.confidence import FilterConfidence
    from tooldeck.filters.defaults import FailureMode
    from tooldeck.filters.engine import FilterEngine, FilterResult, FilterWarning
    from tooldeck.filters.metrics import FilterMetrics
    from tooldeck.filters.must_keep import MustKeepClassifier, must_keep_classifier
    from tooldeck.filters.patterns import PatternError
    from tooldeck.filters.registry import default_strategy_registry
    from tooldeck.filters.rules import LoadedRules, Rule, builtin_rules, load_rules, parse_rules
    from tooldeck.filters.sanitize import sanitize_output
    from tooldeck.filters.settings import FilterSettings, SecuritySettings
    from tooldeck.filters.strategy import (
        Reduction,
        StageResult,
        Strategy,
        StrategyParams,
        StrategyRegistry,
    )
    from tooldeck.filters.verify import RuleTestFailure, verify_rules

__all__ = [
    "FailureMode",
    "FilterConfidence",
    "FilterEngine",
    "FilterMetrics",
    "FilterResult",
    "FilterSettings",
    "FilterWarning",
    "LoadedRules",
    "MustKeepClassifier",
    "PatternError",
    "Reduction",
    "Rule",
    "RuleTestFailure",
    "SecuritySettings",
    "StageResult",
    "Strategy",
    "StrategyParams",
    "StrategyRegistry",
    "builtin_rules",
    "default_strategy_registry",
    "last_command",
    "load_rules",
    "must_keep_classifier",
    "parse_rules",
    "sanitize_output",
    "verify_rules",
]

_HOMES = {
    "last_command": "command",
    "FilterConfidence": "confidence",
    "FailureMode": "defaults",
    "FilterEngine": "engine",
    "FilterResult": "engine",
    "FilterSettings": "settings",
    "FilterWarning": "engine",
    "SecuritySettings": "settings",
    "FilterMetrics": "metrics",
    "MustKeepClassifier": "must_keep",
    "must_keep_classifier": "must_keep",
    "PatternError": "patterns",
    "default_strategy_registry": "registry",
    "LoadedRules": "rules",
    "Rule": "rules",
    "builtin_rules": "rules",
    "load_rules": "rules",
    "parse_rules": "rules",
    "sanitize_output": "sanitize",
    "Reduction": "strategy",
    "StageResult": "strategy",
    "Strategy": "strategy",
    "StrategyParams": "strategy",
    "StrategyRegistry": "strategy",
    "RuleTestFailure": "verify",
    "verify_rules": "verify",
}


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first access.

    :param name: the attribute.
    :returns: the object.
    :raises AttributeError: for names that are not public.
    """
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tooldeck.filters' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"tooldeck.filters.{home}"), name)
    globals()[name] = value
    return value
