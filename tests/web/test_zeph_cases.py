"""Every SSRF and domain row of zeph-test-cases.md section 3 (static rows; the redirect,
status and body-size rows run against a real server in test_integration.py)."""

from __future__ import annotations

import ipaddress

import pytest
from pydantic import ValidationError

from tooldeck.egress.addresses import judge_address
from tooldeck.egress.domains import domain_match
from tooldeck.plugins.web.check import check_url
from tooldeck.plugins.web.settings import ScrapeSettings

DEFAULTS = ScrapeSettings()


def never(_ip: object) -> bool:
    return False


# --- 3.1 URL validation and SSRF ------------------------------------------------------

ALLOWED = [
    "https://example.com",
    "https://93.184.216.34/page",
    "https://example.com:8443/path",
    "https://[::ffff:93.184.216.34]",
]


@pytest.mark.parametrize("url", ALLOWED)
def test_zeph_allowed_urls(url: str) -> None:
    verdict = check_url(url, DEFAULTS)
    assert verdict.verdict == "allow", verdict.reason


BLOCKED = [
    ("http://example.com", "scheme", "scheme not allowed: http"),
    ("ftp://files.example.com", "scheme", "scheme not allowed: ftp"),
    ("file:///etc/passwd", "scheme", "scheme not allowed: file"),
    ("javascript:alert(1)", "scheme", "scheme not allowed: javascript"),
    ("data:text/html,<script>alert(1)</script>", "scheme", "scheme not allowed: data"),
    ("not a url", "invalid-url", "invalid URL"),
    ("", "invalid-url", "invalid URL"),
    ("example.com/path", "invalid-url", "invalid URL"),
    ("https://localhost/path", "private-hostname", "private/local host blocked: localhost"),
    ("https://localhost:9999", "private-hostname", "private/local host blocked: localhost"),
    ("https://127.0.0.1/path", "loopback", "127.0.0.1"),
    ("https://10.0.0.1", "private", "10.0.0.1"),
    ("https://172.16.0.1", "private", "172.16.0.1"),
    ("https://192.168.1.1", "private", "192.168.1.1"),
    ("https://[::1]", "loopback", "::1"),
    ("https://169.254.1.1", "link-local", "169.254.1.1"),
    ("https://0.0.0.0", "unspecified", "0.0.0.0"),
    ("https://255.255.255.255", "broadcast", "255.255.255.255"),
    ("https://[fe80::1]", "link-local", "fe80::1"),
    ("https://[fd12::1]", "private", "fd12::1"),
    ("https://[::ffff:127.0.0.1]", "embedded-ipv4", "127.0.0.1"),
    ("https://[::ffff:10.0.0.1]", "embedded-ipv4", "10.0.0.1"),
    ("https://[::ffff:169.254.0.1]", "embedded-ipv4", "169.254.0.1"),
    ("https://foo.localhost", "private-hostname", "foo.localhost"),
    ("https://service.internal", "private-hostname", "service.internal"),
    ("https://printer.local", "private-hostname", "printer.local"),
    ("https://metadata.internal", "private-hostname", "metadata.internal"),
]


@pytest.mark.parametrize(
    ("url", "rule", "text"), BLOCKED, ids=[row[0] or "empty" for row in BLOCKED]
)
def test_zeph_blocked_urls(url: str, rule: str, text: str) -> None:
    verdict = check_url(url, DEFAULTS)
    assert verdict.verdict == "deny"
    assert verdict.rule == rule
    assert text in verdict.reason
    assert f"rule '{rule}'" in verdict.reason


def test_documentation_prefix_is_refused_unlike_zeph() -> None:
    # Zeph lets 2001:db8::1 through; our issue blocks every non-global range, and
    # 2001:db8::/32 is the documentation prefix (never routed), so it is refused.
    verdict = check_url("https://[2001:db8::1]/", DEFAULTS)
    assert (verdict.verdict, verdict.rule) == ("deny", "private")


# --- 3.2 is_private_ip ----------------------------------------------------------------

PRIVATE_IPS = [
    "100.64.0.1",
    "100.127.255.255",
    "::ffff:100.64.0.1",
    "::ffff:0.0.0.0",
    "fc00::1",
    "fd12:3456:789a::1",
    "127.0.0.1",
    "10.1.2.3",
    "172.16.5.4",
    "192.168.0.1",
    "169.254.3.3",
    "0.0.0.0",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "febf::1",
]
PUBLIC_IPS = [
    "8.8.8.8",
    "1.1.1.1",
    "100.128.0.0",
    "2001:4860:4860::8888",
    "93.184.216.34",
    "::ffff:93.184.216.34",
]


@pytest.mark.parametrize("text", PRIVATE_IPS)
def test_zeph_private_ips(text: str) -> None:
    assert judge_address(ipaddress.ip_address(text), never) is not None


@pytest.mark.parametrize("text", PUBLIC_IPS)
def test_zeph_public_ips(text: str) -> None:
    assert judge_address(ipaddress.ip_address(text), never) is None


# --- 3.3 domain allow/deny ---------------------------------------------------------------

MATCHES = [
    ("example.com", "example.com", True),
    ("*.example.com", "docs.example.com", True),
    ("*.example.com", "example.com", False),
    ("*.example.com", "a.b.example.com", False),
    (".example.com", "docs.example.com", False),
    ("*.*.example.com", "a.b.example.com", False),
]


@pytest.mark.parametrize(("pattern", "host", "expected"), MATCHES)
def test_zeph_domain_match(pattern: str, host: str, expected: bool) -> None:
    assert domain_match(pattern, host) is expected


RUST = ScrapeSettings(allowed_domains=["docs.rs", "*.rust-lang.org"])


@pytest.mark.parametrize("url", ["https://docs.rs/serde", "https://doc.rust-lang.org/std"])
def test_zeph_allowlist_admits(url: str) -> None:
    assert check_url(url, RUST).verdict == "allow"


def test_zeph_allowlist_refuses_other_host() -> None:
    verdict = check_url("https://example.com/", RUST)
    assert (verdict.verdict, verdict.rule) == ("deny", "allowlist")
    assert "domain not in allowlist: example.com" in verdict.reason


def test_zeph_deny_beats_allow() -> None:
    both = ScrapeSettings(allowed_domains=["example.com"], denied_domains=["example.com"])
    verdict = check_url("https://example.com/", both)
    assert (verdict.verdict, verdict.rule) == ("deny", "denylist")
    assert "domain blocked by denylist: example.com" in verdict.reason


@pytest.mark.parametrize(
    ("url", "expected"), [("https://sub.evil.com/", "deny"), ("https://evil.com/", "allow")]
)
def test_zeph_denylist_wildcard(url: str, expected: str) -> None:
    assert check_url(url, ScrapeSettings(denied_domains=["*.evil.com"])).verdict == expected


def test_zeph_bare_ip_refused_under_allowlist() -> None:
    verdict = check_url("https://93.184.216.34/", RUST)
    assert (verdict.verdict, verdict.rule) == ("deny", "bare-ip-with-allowlist")
    assert "bare IP address not allowed when domain allowlist is active: 93.184.216.34" in (
        verdict.reason
    )


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("exa mple.com", 'invalid domain pattern "exa mple.com"'),
        ("example.com/path", 'invalid domain pattern "example.com/path"'),
        ("", "empty domain pattern is not allowed"),
    ],
)
@pytest.mark.parametrize("field", ["allowed_domains", "denied_domains"])
def test_zeph_pattern_validation(field: str, pattern: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        ScrapeSettings(**{field: [pattern]})
