"""The ``[tools.scrape]`` settings model: the egress keys plus the web tools' own."""

from __future__ import annotations

import ssl
from pathlib import Path

from pydantic import ConfigDict, Field, field_validator

from tooldeck.egress.policy import EgressSettings
from tooldeck.plugins.web.url_examples import UrlExample

__all__ = ["ScrapeSettings"]


class ScrapeSettings(EgressSettings):
    """Settings of the web tools, read from ``[tools.scrape]``; unknown keys are errors.

    The egress keys (``allowed_domains``, ``denied_domains``, ``allow_internal``,
    ``https_only``) come from :class:`tooldeck.egress.EgressSettings`: they are the one egress
    policy, which the core applies to every way out, not only to this plugin's tools.

    :param timeout: seconds a whole fetch may take, redirects included.
    :param max_body_bytes: the most body bytes kept, counted on the wire and decompressed.
    :param ca_bundle: an absolute path (``~`` expanded) to a PEM file of CA certificates trusted
        in addition to the default store, for hosts behind an internal CA; checked on load.
    :param examples: URLs the egress rules must allow or deny (:mod:`.url_examples`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    timeout: float = Field(default=15.0, gt=0)
    max_body_bytes: int = Field(default=1_048_576, gt=0)
    ca_bundle: str | None = None
    examples: tuple[UrlExample, ...] = Field(
        default=(), description="URLs the domain lists must allow or deny; checked on every "
        "load and reload ([[tools.scrape.examples]]).")

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
