"""The egress policy: the operator's settings, validated, and the parsed form the rules read.

The keys live in ``[tools.scrape]`` (the web plugin's section, where they have always been)
and are read by the core through the public settings API, so the policy is the same whether
or not the web plugin is enabled: :func:`policy_from_settings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs
import pydantic
from pydantic import BaseModel, ConfigDict, field_validator

from tooldeck.egress.allowlist import InternalAllowlist, parse_allow_internal
from tooldeck.egress.domains import validate_pattern
from tooldeck.errors import ConfigError

if TYPE_CHECKING:
    from tooldeck.config import Settings

__all__ = ["POLICY_SECTION", "EgressPolicy", "EgressSettings", "policy_from_settings"]

POLICY_SECTION = "tools.scrape"
"""The configuration section whose keys define the egress policy."""


class EgressSettings(BaseModel):
    """The egress keys of ``[tools.scrape]``, validated.

    :param allowed_domains: when non-empty, the only hosts that may be reached (patterns).
    :param denied_domains: hosts that may never be reached (patterns); deny beats allow.
    :param allow_internal: exact hosts, addresses and CIDR networks let past the SSRF rules.
    :param https_only: refuse ``http://`` URLs; when false, ``http`` is judged like ``https``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    allowed_domains: tuple[str, ...] = ()
    denied_domains: tuple[str, ...] = ()
    allow_internal: tuple[str, ...] = ()
    https_only: bool = True

    @field_validator("allowed_domains", "denied_domains")
    @classmethod
    def _check_patterns(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(validate_pattern(pattern) for pattern in patterns)

    @field_validator("allow_internal")
    @classmethod
    def _check_allow_internal(cls, entries: tuple[str, ...]) -> tuple[str, ...]:
        parse_allow_internal(entries)
        return entries


@attrs.frozen
class EgressPolicy:
    """What the egress rules need from the settings, parsed once.

    :param allowed_domains: validated allowlist patterns.
    :param denied_domains: validated denylist patterns.
    :param internal: the parsed ``allow_internal`` entries.
    :param https_only: whether ``http://`` URLs are refused.
    """

    allowed_domains: tuple[str, ...] = ()
    denied_domains: tuple[str, ...] = ()
    internal: InternalAllowlist = attrs.field(factory=InternalAllowlist)
    https_only: bool = True

    @classmethod
    def from_settings(cls, settings: EgressSettings) -> EgressPolicy:
        """Build the policy from validated settings.

        :param settings: the egress keys (an :class:`EgressSettings` or a subclass).
        :returns: the policy.
        """
        return cls(
            allowed_domains=settings.allowed_domains,
            denied_domains=settings.denied_domains,
            internal=parse_allow_internal(settings.allow_internal),
            https_only=settings.https_only,
        )

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> EgressPolicy:
        """Build the policy from a raw ``[tools.scrape]`` table, ignoring its other keys.

        :param table: the raw table.
        :returns: the policy.
        :raises ConfigError: when an egress key does not validate.
        """
        keys = {key: table[key] for key in EgressSettings.model_fields if key in table}
        try:
            return cls.from_settings(EgressSettings.model_validate(keys))
        except pydantic.ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ConfigError(
                f"[{POLICY_SECTION}] {where}: {first['msg']}", key=f"{POLICY_SECTION}.{where}"
            ) from None


def policy_from_settings(settings: Settings) -> EgressPolicy:
    """The egress policy of a configuration, whichever plugins are enabled.

    :param settings: the validated configuration.
    :returns: the policy built from the egress keys of ``[tools.scrape]`` (defaults when absent).
    :raises ConfigError: when an egress key does not validate.
    """
    return EgressPolicy.from_table(settings.table(POLICY_SECTION))
