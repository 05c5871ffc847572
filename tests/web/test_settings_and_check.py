"""ScrapeSettings validation, the allow_internal list at layers 1 and 2, and check_url."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable, Sequence

import pytest
from pydantic import ValidationError

from tooldeck.egress.policy import EgressPolicy
from tooldeck.plugins.web.check import UrlVerdict, check_url, check_url_async
from tooldeck.plugins.web.settings import ScrapeSettings


def answers(table: dict[str, Sequence[str]]) -> Callable[[str, int], Awaitable[Sequence[str]]]:
    async def resolve(host: str, port: int) -> Sequence[str]:
        assert port == 443
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return table[host]

    return resolve


# --- settings -----------------------------------------------------------------------------


def test_defaults() -> None:
    settings = ScrapeSettings()
    assert settings.timeout == 15
    assert settings.max_body_bytes == 1_048_576
    assert settings.allowed_domains == settings.denied_domains == settings.allow_internal == ()


def test_unknown_keys_are_refused() -> None:
    with pytest.raises(ValidationError, match="max_body"):
        ScrapeSettings(max_body=5)  # type: ignore[call-arg]


@pytest.mark.parametrize("field", ["timeout", "max_body_bytes"])
@pytest.mark.parametrize("value", [0, -1])
def test_limits_must_be_positive(field: str, value: int) -> None:
    with pytest.raises(ValidationError):
        ScrapeSettings(**{field: value})


def test_patterns_are_lower_cased_so_an_uppercase_deny_still_matches() -> None:
    settings = ScrapeSettings(denied_domains=["Evil.COM", "*.Bad.org"])
    assert settings.denied_domains == ("evil.com", "*.bad.org")
    assert check_url("https://EVIL.com/", settings).rule == "denylist"
    assert check_url("https://x.bad.org/", settings).rule == "denylist"


@pytest.mark.parametrize(
    "entry", ["127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8", "wiki.corp.internal", "intranet"]
)
def test_allow_internal_accepts_exact_entries(entry: str) -> None:
    assert ScrapeSettings(allow_internal=[entry]).allow_internal == (entry,)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("*.corp.internal", "no wildcards"),
        ("0.0.0.0/0", "would admit every address"),
        ("::/0", "would admit every address"),
        ("10.0.0.1/8", "invalid allow_internal network"),
        ("2130706433", "no wildcards"),
        ("http://10.0.0.1", "invalid allow_internal"),
        ("", "invalid allow_internal entry"),
    ],
)
def test_allow_internal_rejects_inexact_entries(entry: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        ScrapeSettings(allow_internal=[entry])


def test_guard_policy_parses_allow_internal() -> None:
    policy = EgressPolicy.from_settings(ScrapeSettings(allow_internal=["10.0.0.0/8", "Wiki.Corp"]))
    assert policy.internal.hosts == frozenset({"wiki.corp"})
    assert [str(net) for net in policy.internal.networks] == ["10.0.0.0/8"]


# --- allow_internal at layer 1 ------------------------------------------------------------

INTERNAL = ScrapeSettings(
    allow_internal=["10.0.0.0/8", "printer.local", "127.0.0.1", "169.254.0.0/16", "intranet"]
)


@pytest.mark.parametrize(
    "url",
    [
        "https://10.1.2.3/",
        "https://printer.local/",
        "https://127.0.0.1:8443/",
        "https://[::ffff:10.9.9.9]/",
        "https://intranet/",
    ],
)
def test_allow_internal_admits_listed_targets(url: str) -> None:
    assert check_url(url, INTERNAL).verdict == "allow"


@pytest.mark.parametrize(
    ("url", "rule"),
    [
        ("https://127.0.0.2/", "loopback"),
        ("https://other.local/", "private-hostname"),
        ("https://169.254.169.254/", "cloud-metadata"),
        ("https://[::ffff:169.254.169.254]/", "embedded-ipv4"),
        ("https://0x7f000001/", "non-canonical-ip"),
        ("https://localhost/", "private-hostname"),
    ],
)
def test_allow_internal_admits_nothing_else(url: str, rule: str) -> None:
    verdict = check_url(url, INTERNAL)
    assert (verdict.verdict, verdict.rule) == ("deny", rule)


# --- check_url with resolution (layer 2) ----------------------------------------------------

DNS = answers(
    {
        "good.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
        "mixed.example": ["93.184.216.34", "10.0.0.7"],
        "meta.example": ["169.254.169.254"],
        "odd.example": ["not-an-address"],
        "empty.example": [],
        "wiki.acme-intra.net": ["10.20.30.40"],
    }
)


def test_static_only_verdict_has_no_addresses() -> None:
    verdict = check_url("https://good.example/a?b", ScrapeSettings())
    assert verdict == UrlVerdict(
        verdict="allow",
        reason="passes every static rule (not resolved)",
        url="https://good.example/a?b",
    )


def test_resolved_verdict_lists_every_address() -> None:
    verdict = check_url("https://good.example/", ScrapeSettings(), resolve=True, resolver=DNS)
    assert verdict.verdict == "allow"
    assert verdict.addresses == ("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946")


@pytest.mark.parametrize(
    ("host", "rule", "text"),
    [
        ("mixed.example", "private", "mixed.example resolves to private-use address 10.0.0.7"),
        ("meta.example", "cloud-metadata", "cloud metadata endpoint 169.254.169.254"),
        ("odd.example", "dns-answer", "not an IP address"),
        ("empty.example", None, "returned no address"),
        ("missing.example", None, "DNS resolution failed for missing.example"),
    ],
)
def test_resolved_verdict_denies(host: str, rule: str | None, text: str) -> None:
    verdict = check_url(f"https://{host}/", ScrapeSettings(), resolve=True, resolver=DNS)
    assert (verdict.verdict, verdict.rule) == ("deny", rule)
    assert text in verdict.reason


def test_allow_internal_host_name_admits_its_answer() -> None:
    # a public-looking name that resolves to a private address (``wiki.corp`` is private by its
    # name alone, RFC 6762: see test_adversarial_urls)
    url = "https://wiki.acme-intra.net/"
    denied = check_url(url, ScrapeSettings(), resolve=True, resolver=DNS)
    admitted = check_url(
        url,
        ScrapeSettings(allow_internal=["wiki.acme-intra.net"]),
        resolve=True,
        resolver=DNS,
    )
    assert (denied.verdict, denied.rule) == ("deny", "private")
    assert admitted.addresses == ("10.20.30.40",)


def test_ip_literal_needs_no_resolution() -> None:
    verdict = check_url("https://93.184.216.34/", ScrapeSettings(), resolve=True, resolver=DNS)
    assert verdict.addresses == ("93.184.216.34",)


def test_static_denial_never_consults_the_resolver() -> None:
    calls: list[str] = []

    async def counting(host: str, port: int) -> Sequence[str]:
        calls.append(host)
        return ["93.184.216.34"]

    verdict = check_url("https://printer.local/", ScrapeSettings(), resolve=True, resolver=counting)
    assert verdict.verdict == "deny"
    assert calls == []


def test_async_variant_inside_a_running_loop() -> None:
    async def go() -> UrlVerdict:
        return await check_url_async(
            "https://good.example/", ScrapeSettings(), resolve=True, resolver=DNS
        )

    assert asyncio.run(go()).verdict == "allow"
