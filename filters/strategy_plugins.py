"""The built-in strategy types, each a plugin of its own.

Every built-in type is registered by its own entry point in group ``tooldeck``
(``filter_strip_noise``, ``filter_truncate``, …, ``filter_fallback``), through
``tooldeck_register_filters`` exactly as a third party registers one, so ``tooldeck plugins``
lists each and an operator can disable or replace one by name::

    [plugins]
    disable = ["filter_truncate"]       # rules using "truncate" are skipped, with a warning
    enable = ["acme_truncate"]          # a third party's type registered as "truncate"

Disabling ``filter_fallback`` turns off the engine's generic last stage. The strategy module is
imported only when the hook runs.
"""

from __future__ import annotations

from typing import Any

from tooldeck import hookimpl
from tooldeck.filters.builtin_types import BUILTIN_STRATEGY_HOMES, builtin_strategy_type

__all__ = [
    "StrategyTypePlugin",
    "dedup",
    "fallback",
    "git_diff",
    "git_status",
    "group_by_rule",
    "keep_matching",
    "plugin_name",
    "strip_annotated",
    "strip_noise",
    "test_summary",
    "truncate",
]


def plugin_name(type_name: str) -> str:
    """The plugin (entry point) name of a built-in strategy type.

    :param type_name: e.g. ``truncate``.
    :returns: e.g. ``filter_truncate``.
    """
    return f"filter_{type_name}"


class StrategyTypePlugin:
    """A plugin that registers one built-in strategy type.

    :param type_name: the type's name, a key of ``BUILTIN_STRATEGY_HOMES``.
    """

    def __init__(self, type_name: str) -> None:
        if type_name not in BUILTIN_STRATEGY_HOMES:
            raise ValueError(f"no built-in strategy type {type_name!r}")
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"StrategyTypePlugin({self.type_name!r})"

    @hookimpl
    def tooldeck_register_filters(self, register: Any) -> None:
        """Register this plugin's strategy type.

        :param register: the registration callback.
        """
        register(builtin_strategy_type(self.type_name))


strip_noise = StrategyTypePlugin("strip_noise")
truncate = StrategyTypePlugin("truncate")
keep_matching = StrategyTypePlugin("keep_matching")
strip_annotated = StrategyTypePlugin("strip_annotated")
test_summary = StrategyTypePlugin("test_summary")
group_by_rule = StrategyTypePlugin("group_by_rule")
git_status = StrategyTypePlugin("git_status")
git_diff = StrategyTypePlugin("git_diff")
dedup = StrategyTypePlugin("dedup")
fallback = StrategyTypePlugin("fallback")
