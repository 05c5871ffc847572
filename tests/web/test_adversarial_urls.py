"""Adversarial URLs against layer 1: one case per encoding or parsing trick, id = the trick."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.egress.addresses import judge_address
from tooldeck.plugins.web.check import check_url
from tooldeck.plugins.web.settings import ScrapeSettings

DEFAULTS = ScrapeSettings()

BLOCKED: list[tuple[str, str, str]] = [
    # scheme and shape
    ("scheme-uppercase-http", "HTTP://example.com/", "scheme"),
    ("scheme-gopher", "gopher://127.0.0.1:70/_stats", "scheme"),
    ("scheme-websocket", "wss://example.com/", "scheme"),
    ("scheme-dict", "dict://127.0.0.1:11211/", "scheme"),
    ("leading-space", " https://example.com/", "invalid-url"),
    ("scheme-relative", "//127.0.0.1/", "invalid-url"),
    ("https-without-slashes", "https:127.0.0.1", "invalid-url"),
    ("https-triple-slash", "https:///127.0.0.1/", "invalid-url"),
    # IPv4 spellings
    ("ipv4-decimal-integer", "https://2130706433/", "loopback"),
    ("ipv4-octal-dotted", "https://0177.0.0.1/", "loopback"),
    ("ipv4-octal-padded", "https://00000177.0.0.1/", "loopback"),
    ("ipv4-hex-dotted", "https://0x7f.0x0.0x0.0x1/", "loopback"),
    ("ipv4-hex-integer", "https://0x7f000001/", "loopback"),
    ("ipv4-hex-short", "https://0x7f.1/", "loopback"),
    ("ipv4-uppercase-hex", "https://0X7F.1/", "loopback"),
    ("ipv4-two-part", "https://127.1/", "loopback"),
    ("ipv4-three-part", "https://127.0.1/", "loopback"),
    ("ipv4-mixed-radix", "https://0177.0x0.1/", "loopback"),
    ("ipv4-decimal-private", "https://167772161/", "private"),
    ("ipv4-hex-metadata", "https://0xa9fea9fe/", "cloud-metadata"),
    ("ipv4-decimal-metadata", "https://2852039166/", "cloud-metadata"),
    ("ipv4-octal-metadata", "https://0251.0376.0251.0376/", "cloud-metadata"),
    ("ipv4-zero-shorthand", "https://0/", "unspecified"),
    ("ipv4-trailing-dot", "https://127.0.0.1./", "loopback"),
    ("ipv4-octet-out-of-range", "https://127.0.0.256/", "ambiguous-numeric-host"),
    ("ipv4-five-parts", "https://1.2.3.4.5/", "ambiguous-numeric-host"),
    ("ipv4-bad-octal-digit", "https://08.0.0.1/", "ambiguous-numeric-host"),
    ("name-ending-in-hex", "https://example.0x7f/", "ambiguous-numeric-host"),
    ("ipv4-integer-overflow", "https://4294967296/", "ambiguous-numeric-host"),
    ("public-ipv4-as-integer", "https://134744072/", "non-canonical-ip"),
    ("public-ipv4-octal-octet", "https://010.8.8.8/", "non-canonical-ip"),
    # Unicode and IDNA
    (
        "fullwidth-digits-and-dots",
        "https://\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11/",
        "loopback",
    ),
    ("ideographic-full-stops", "https://127\u30020\u30020\u30021/", "loopback"),
    ("halfwidth-ideographic-stops", "https://127\uff610\uff610\uff611/", "loopback"),
    ("mathematical-bold-digits", "https://\U0001d7cf\U0001d7d0\U0001d7d5.0.0.1/", "loopback"),
    ("circled-digits", "https://\u2460\u2461\u2466.0.0.1/", "loopback"),
    (
        "fullwidth-localhost",
        "https://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/",
        "private-hostname",
    ),
    (
        "fullwidth-local-suffix",
        "https://printer.\uff4c\uff4f\uff43\uff41\uff4c/",
        "private-hostname",
    ),
    (
        "fullwidth-letters-public",
        "https://\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.com/",
        "parser-disagreement",
    ),
    ("zero-width-space", "https://local\u200bhost/", "forbidden-character"),
    ("soft-hyphen", "https://local\u00adhost/", "forbidden-character"),
    ("right-to-left-override", "https://\u202eexample.com/", "forbidden-character"),
    # percent-encoding in the host
    ("percent-encoded-ip", "https://%31%32%37.0.0.1/", "host-encoding"),
    ("percent-encoded-dot", "https://127%2E0.0.1/", "host-encoding"),
    ("percent-encoded-localhost", "https://%6c%6f%63%61%6c%68%6f%73%74/", "host-encoding"),
    ("percent-encoded-at", "https://good.com%40127.0.0.1/", "host-encoding"),
    # userinfo
    ("userinfo-before-ip", "https://good.com@127.0.0.1/", "userinfo"),
    ("ip-as-userinfo", "https://127.0.0.1@good.com/", "userinfo"),
    ("userinfo-with-password", "https://user:pass@example.com/", "userinfo"),
    ("userinfo-double-at", "https://a@b@127.0.0.1/", "userinfo"),
    ("userinfo-with-port", "https://good.com:443@127.0.0.1/", "userinfo"),
    ("userinfo-empty", "https://@127.0.0.1/", "userinfo"),
    # backslashes, whitespace, control characters
    ("backslash-before-at", "https://good.com\\@127.0.0.1/", "forbidden-character"),
    ("backslash-as-slashes", "https:\\\\127.0.0.1\\", "forbidden-character"),
    ("backslash-in-path", "https://example.com\\..\\admin", "forbidden-character"),
    ("tab-in-host", "https://127.0.0.1\t/", "forbidden-character"),
    ("header-injection-newline", "https://example.com/\r\nHost: 127.0.0.1", "forbidden-character"),
    ("nul-byte", "https://example.com\x00.127.0.0.1/", "forbidden-character"),
    ("space-in-host", "https://exa mple.com/", "forbidden-character"),
    ("no-break-space", "https://example.com\u00a0/", "forbidden-character"),
    # trailing dots and labels
    ("localhost-trailing-dot", "https://localhost./", "private-hostname"),
    ("localhost-two-trailing-dots", "https://localhost../", "host-encoding"),
    ("internal-trailing-dot", "https://metadata.google.internal./", "private-hostname"),
    ("empty-middle-label", "https://example..com/", "host-encoding"),
    ("uppercase-localhost", "https://LOCALHOST/", "private-hostname"),
    ("nested-localhost", "https://a.b.localhost/", "private-hostname"),
    ("home-arpa", "https://router.home.arpa/", "private-hostname"),
    # Kubernetes' cluster names and RFC 6762 appendix G's private top-level names
    ("k8s-service", "https://kubernetes.default.svc/api", "private-hostname"),
    ("k8s-search-domain", "https://kubernetes.default/api", "private-hostname"),
    ("k8s-system-namespace", "https://tiller-deploy.kube-system:44134/", "private-hostname"),
    ("k8s-public-namespace", "https://cluster-info.kube-public/", "private-hostname"),
    ("rfc6762-lan", "https://nas.lan/", "private-hostname"),
    ("rfc6762-corp", "https://wiki.corp/", "private-hostname"),
    ("rfc6762-localdomain", "https://db.localdomain:5432/", "private-hostname"),
    ("single-label-intranet", "https://intranet/", "single-label-host"),
    ("single-label-metadata", "https://metadata/", "single-label-host"),
    ("bang-in-host", "https://exa!mple.com/", "host-encoding"),
    ("wildcard-in-host", "https://*.example.com/", "host-encoding"),
    # IPv6 spellings and embedded IPv4
    ("ipv6-loopback-expanded", "https://[0:0:0:0:0:0:0:1]/", "loopback"),
    ("ipv6-loopback-leading-zeros", "https://[0000::0001]/", "loopback"),
    ("ipv6-unspecified", "https://[::]/", "unspecified"),
    ("ipv4-mapped-hex", "https://[::ffff:7f00:1]/", "embedded-ipv4"),
    ("ipv4-mapped-metadata", "https://[::ffff:169.254.169.254]/", "embedded-ipv4"),
    ("ipv4-mapped-cgnat", "https://[::ffff:100.64.0.1]/", "embedded-ipv4"),
    ("ipv4-compatible-loopback", "https://[::127.0.0.1]/", "embedded-ipv4"),
    ("ipv4-compatible-public", "https://[::8.8.8.8]/", "reserved"),
    ("ipv4-translated", "https://[::ffff:0:127.0.0.1]/", "embedded-ipv4"),
    ("6to4-loopback", "https://[2002:7f00:1::]/", "embedded-ipv4"),
    ("6to4-private", "https://[2002:c0a8:101::1]/", "embedded-ipv4"),
    ("6to4-metadata", "https://[2002:a9fe:a9fe::1]/", "embedded-ipv4"),
    ("nat64-loopback", "https://[64:ff9b::127.0.0.1]/", "embedded-ipv4"),
    ("nat64-metadata-hex", "https://[64:ff9b::a9fe:a9fe]/", "embedded-ipv4"),
    ("teredo-private-client", "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", "embedded-ipv4"),
    ("teredo-loopback-server", "https://[2001:0:7f00:1::]/", "embedded-ipv4"),
    ("zone-id-percent-encoded", "https://[fe80::1%25eth0]/", "zone-id"),
    ("zone-id-raw", "https://[fe80::1%eth0]/", "zone-id"),
    ("zone-id-on-global-address", "https://[2001:4860::8888%251]/", "zone-id"),
    ("ipv6-link-local-uppercase", "https://[FE80::1]/", "link-local"),
    ("ipv6-site-local", "https://[fec0::1]/", "site-local"),
    ("ipv6-multicast", "https://[ff02::1]/", "multicast"),
    ("ipv6-unique-local", "https://[fc00::1]/", "private"),
    ("ipv6-aws-metadata", "https://[fd00:ec2::254]/", "cloud-metadata"),
    ("ipv6-unbracketed", "https://::1/", "invalid-url"),
    ("ipv6-unclosed-bracket", "https://[::1/", "invalid-url"),
    ("ipv6-future-literal", "https://[v1.fe80::1]/", "invalid-url"),
    ("bracketed-ipv4", "https://[127.0.0.1]/", "invalid-url"),
    ("bracket-then-junk", "https://[::1]evil.com/", "invalid-url"),
    # special IPv4 ranges
    ("cgnat-shared-address", "https://100.64.0.1/", "shared-address"),
    ("alibaba-metadata", "https://100.100.100.200/", "cloud-metadata"),
    ("aws-metadata", "https://169.254.169.254/latest/meta-data/", "cloud-metadata"),
    ("ecs-task-metadata", "https://169.254.170.2/v2/credentials", "cloud-metadata"),
    ("azure-wire-server", "https://168.63.129.16/", "cloud-metadata"),
    ("ipv4-multicast", "https://224.0.0.1/", "multicast"),
    ("ipv4-class-e-reserved", "https://240.0.0.1/", "reserved"),
    ("this-network", "https://0.1.2.3/", "private"),
    ("benchmarking-range", "https://198.18.0.1/", "private"),
    ("documentation-range", "https://192.0.2.1/", "private"),
    ("loopback-high", "https://127.255.255.254/", "loopback"),
    # ports
    ("port-non-numeric", "https://example.com:abc/", "port"),
    ("port-too-large", "https://example.com:65536/", "port"),
    ("port-zero", "https://example.com:0/", "port"),
    ("port-fullwidth-digits", "https://example.com:\uff14\uff14\uff13/", "port"),
    ("port-twice", "https://example.com:443:80/", "port"),
    ("port-negative", "https://example.com:-1/", "port"),
]

ALLOWED: list[tuple[str, str, str]] = [
    ("scheme-mixed-case-https", "HtTpS://example.com/", "https://example.com/"),
    ("punycode-host", "https://xn--bcher-kva.de/", "https://xn--bcher-kva.de/"),
    ("unicode-host-idna", "https://b\u00fccher.de/", "https://xn--bcher-kva.de/"),
    ("at-in-fragment", "https://example.com/#@127.0.0.1", "https://example.com/#@127.0.0.1"),
    ("at-in-query", "https://example.com/?u=@127.0.0.1", "https://example.com/?u=@127.0.0.1"),
    ("public-ipv6", "https://[2001:4860:4860::8888]/", "https://[2001:4860:4860::8888]/"),
    ("nat64-public", "https://[64:ff9b::8.8.8.8]/", "https://[64:ff9b::808:808]/"),
    ("fqdn-trailing-dot", "https://example.com./", "https://example.com/"),
    ("localhost-as-subdomain", "https://localhost.example.com/", "https://localhost.example.com/"),
    ("uppercase-host", "https://EXAMPLE.COM/Path", "https://example.com/Path"),
    ("default-port-dropped", "https://example.com:443/", "https://example.com/"),
    ("empty-port", "https://example.com:/", "https://example.com/"),
]


@pytest.mark.parametrize(("url", "rule"), [c[1:] for c in BLOCKED], ids=[c[0] for c in BLOCKED])
def test_trick_is_blocked_by_its_rule(url: str, rule: str) -> None:
    verdict = check_url(url, DEFAULTS)
    assert verdict.verdict == "deny", f"{url!r} was allowed"
    assert verdict.rule == rule, verdict.reason
    assert f"rule '{rule}'" in verdict.reason


@pytest.mark.parametrize(("url", "final"), [c[1:] for c in ALLOWED], ids=[c[0] for c in ALLOWED])
def test_lookalike_is_allowed_in_canonical_form(url: str, final: str) -> None:
    verdict = check_url(url, DEFAULTS)
    assert verdict.verdict == "allow", verdict.reason
    assert verdict.url == final


def test_at_least_eighty_tricks() -> None:
    assert len({case[0] for case in BLOCKED}) == len(BLOCKED) >= 80


# --- properties: no spelling of a refused IPv4 address gets through -----------------------


def _spellings(ip: ipaddress.IPv4Address) -> list[str]:
    a, b, c, d = ip.packed
    number = int(ip)
    return [
        str(number),
        hex(number),
        ".".join(f"0{octet:o}" for octet in ip.packed),
        ".".join(hex(octet) for octet in ip.packed),
        f"{a}.{(b << 16) | (c << 8) | d}",
        f"{a}.{b}.{(c << 8) | d}",
        f"{hex(a)}.0{b:o}.{(c << 8) | d}",
        f"{ip}.".upper(),
        "\uff0e".join("".join(chr(0xFF10 + int(c)) for c in part) for part in str(ip).split(".")),
    ]


def never(_ip: object) -> bool:
    return False


@given(st.ip_addresses(v=4))
def test_every_ipv4_spelling_gets_the_same_verdict(ip: ipaddress.IPv4Address) -> None:
    refused = judge_address(ip, never)
    for spelling in _spellings(ip):
        verdict = check_url(f"https://{spelling}/", DEFAULTS)
        if refused is not None:
            assert verdict.verdict == "deny", spelling
            assert verdict.rule == refused.rule, (spelling, verdict.reason)
        elif spelling.endswith("."):
            assert verdict.verdict == "allow", verdict.reason
        else:
            assert verdict.verdict == "deny", spelling
            assert verdict.rule in ("non-canonical-ip", "parser-disagreement"), verdict.reason
    canonical = check_url(f"https://{ip}/", DEFAULTS)
    assert (canonical.verdict == "allow") is (refused is None)


@given(st.ip_addresses(v=4))
def test_mapped_and_nat64_forms_follow_the_ipv4_verdict(ip: ipaddress.IPv4Address) -> None:
    refused = judge_address(ip, never) is not None
    for form in (f"::ffff:{ip}", f"64:ff9b::{ip}"):
        verdict = check_url(f"https://[{form}]/", DEFAULTS)
        assert (verdict.verdict == "deny") is refused, (form, verdict.reason)
