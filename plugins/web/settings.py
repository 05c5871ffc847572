"""The ``[tools.scrape]`` settings model and the guard policy derived from it."""

from __future__ import annotations

import ssl
from pathlib import Path

import attrs
from pydantic import BaseModel, ConfigDict, Field, field_validator

from tooldeck.plugins.web.allowlist import InternalAllowlist, parse_allow_internal
from tooldeck.plugins.web.domains import validate_pattern

__all__ = ["GuardPolicy", "ScrapeSettings"]


class ScrapeSettings(BaseModel):
    """Settings of the web tools, read from ``[tools.scrape]``; unknown keys are errors.

    :param timeout: seconds a whole fetch may take, redirects included.
    :param max_body_bytes: the most body bytes kept, counted on the wire and decompressed.
    :param allowed_domains: when non-empty, the only hosts that may be fetched (patterns).
    :param denied_domains: hosts that may never be fetched (patterns); deny beats allow.
    :param allow_internal: exact hosts, addresses and CIDR networks let past the SSRF rules.
    :param ca_bundle: an absolute path (``~`` expanded) to a PEM file of CA certificates trusted
        in addition to the default store, for hosts behind an internal CA; checked on load.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    timeout: float = Field(default=15.0, gt=0)
    max_body_bytes: int = Field(default=1_048_576, gt=0)
    allowed_domains: tuple[str, ...] = ()
    denied_domains: tuple[str, ...] = ()
    allow_internal: tuple[str, ...] = ()
    ca_bundle: str | None = None

    @field_validator("allowed_domains", "denied_domains")
    @classmethod
    def _check_patterns(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(validate_pattern(pattern) for pattern in patterns)

    @field_validator("allow_internal")
    @classmethod
    def _check_allow_internal(cls, entries: tuple[str, ...]) -> tuple[str, ...]:
        parse_allow_internal(entries)
        return entries

    @field_validator("ca_bundle")
    @classmethod
    def _check_ca_bundle(cls, value: str | None) -> str | None:
        if value is None:
            return None
        path = Path(value).expanduser()
        if not path.is_absolute():
            raise ValueError(f"ca_bundle must be an absolute path, got {value!r}")
        try:
            ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(cafile=path)
        except (OSError, ssl.SSLError) as exc:
            raise ValueError(f"cannot load CA certificates from {path}: {exc}") from None
        return str(path)


@attrs.frozen
class GuardPolicy:
    """What the SSRF guard needs from the settings, parsed once.

    :param allowed_domains: validated allowlist patterns.
    :param denied_domains: validated denylist patterns.
    :param internal: the parsed ``allow_internal`` entries.
    """

    allowed_domains: tuple[str, ...] = ()
    denied_domains: tuple[str, ...] = ()
    internal: InternalAllowlist = attrs.field(factory=InternalAllowlist)

    @classmethod
    def from_settings(cls, settings: ScrapeSettings) -> GuardPolicy:
        """Build the policy from validated settings.

        :param settings: the ``[tools.scrape]`` settings.
        :returns: the guard policy.
        """
        return cls(
            allowed_domains=settings.allowed_domains,
            denied_domains=settings.denied_domains,
            internal=parse_allow_internal(settings.allow_internal),
        )
