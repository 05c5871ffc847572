"""``[tools.filters]``: the engine's settings, validated by the ``filters`` plugin.

The defaults are those of :mod:`tooldeck.filters.defaults`, which the engine also uses when it
is built without settings.
"""

from __future__ import annotations

from pathlib import Path

import pydantic

from tooldeck.filters.defaults import (
    DEFAULT_ENABLED,
    DEFAULT_ON_FAILURE,
    DEFAULT_REDACT_SECRETS,
    DEFAULT_SECURITY_ENABLED,
    DEFAULT_TOOL_NAME,
    FailureMode,
)

__all__ = ["FailureMode", "FilterSettings", "SecuritySettings", "resolve_filters_path"]


class SecuritySettings(pydantic.BaseModel):
    """``[tools.filters.security]``.

    :param enabled: append the preserved security diagnostics.
    :param extra_patterns: more RE2 patterns to preserve.
    :param redact_secrets: detect secrets, warn about them and redact their values.
    """

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True, defer_build=True)

    enabled: bool = DEFAULT_SECURITY_ENABLED
    extra_patterns: list[str] = pydantic.Field(default_factory=list)
    redact_secrets: bool = DEFAULT_REDACT_SECRETS


class FilterSettings(pydantic.BaseModel):
    """``[tools.filters]``.

    :param enabled: master switch for rule filtering (sanitising and the security pass stay).
    :param filters_path: the user's ``filters.toml`` or its directory; unset = built-in rules.
    :param on_failure: see :class:`FailureMode`.
    :param tool_name: the name shown in the stats line.
    :param security: the security pass.
    """

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True, defer_build=True)

    enabled: bool = DEFAULT_ENABLED
    filters_path: Path | None = None
    on_failure: FailureMode = DEFAULT_ON_FAILURE
    tool_name: str = DEFAULT_TOOL_NAME
    security: SecuritySettings = pydantic.Field(default_factory=SecuritySettings)


def resolve_filters_path(settings: FilterSettings, config_path: Path | None) -> FilterSettings:
    """``settings`` with a relative ``filters_path`` made absolute against the config's folder.

    :param settings: the validated section.
    :param config_path: the configuration file, ``None`` for the embedded default.
    :returns: the settings to build the engine from.
    """
    path = settings.filters_path
    if path is None or path.is_absolute():
        return settings
    base = config_path.parent if config_path is not None else Path.cwd()
    return settings.model_copy(update={"filters_path": base / path.expanduser()})
