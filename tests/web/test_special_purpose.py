"""Every row of the IANA special-purpose registries, judged by the SSRF guard.

The expected column is written out here a second time, independently of the module's
table: the registries' "Globally Reachable" value, with the guard's answer for N/A rows.
"""

from __future__ import annotations

import ipaddress

import pytest

from tooldeck.egress.addresses import judge_address
from tooldeck.egress.special_purpose import REGISTRY, special_purpose_block
from tooldeck.plugins.web.check import check_url
from tooldeck.plugins.web.settings import ScrapeSettings

# block -> may a fetch connect there? N/A rows: the 6to4 relay block and Teredo (a tunnel
# inside 2001::/23) are refused; 6to4 follows the IPv4 address it carries, so its probe
# below carries a public one
EXPECTED = {
    "0.0.0.0/8": False, "0.0.0.0/32": False, "10.0.0.0/8": False, "100.64.0.0/10": False,
    "127.0.0.0/8": False, "169.254.0.0/16": False, "172.16.0.0/12": False,
    "192.0.0.0/24": False, "192.0.0.0/29": False, "192.0.0.8/32": False,
    "192.0.0.9/32": True, "192.0.0.10/32": True, "192.0.0.170/32": False,
    "192.0.0.171/32": False, "192.0.2.0/24": False, "192.31.196.0/24": True,
    "192.52.193.0/24": True, "192.88.99.0/24": False, "192.88.99.2/32": False,
    "192.168.0.0/16": False, "192.175.48.0/24": True, "198.18.0.0/15": False,
    "198.51.100.0/24": False, "203.0.113.0/24": False, "240.0.0.0/4": False,
    "255.255.255.255/32": False,
    "::1/128": False, "::/128": False, "::ffff:0:0/96": False, "64:ff9b::/96": True,
    "64:ff9b:1::/48": False, "100::/64": False, "100:0:0:1::/64": False,
    "2001::/23": False, "2001::/32": False, "2001:1::1/128": True, "2001:1::2/128": True,
    "2001:1::3/128": True, "2001:2::/48": False, "2001:3::/32": True,
    "2001:4:112::/48": True, "2001:10::/28": False, "2001:20::/28": True,
    "2001:30::/28": True, "2001:db8::/32": False, "2002::/16": True,
    "2620:4f:8000::/48": True, "3fff::/20": False, "5f00::/16": False, "fc00::/7": False,
    "fe80::/10": False,
}

PUBLIC_V4 = int(ipaddress.IPv4Address("93.184.215.14"))


def probes(cidr: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """First, middle and last address of the block, excluding those of a more specific row.

    Rows that carry IPv4 addresses get a public one in their low bits, and the
    IPv4-mapped row a private one (a mapped address is judged as the IPv4 it carries).
    """
    net = ipaddress.ip_network(cidr)
    first, last = int(net.network_address), int(net.broadcast_address)
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for value in sorted({first, (first + last) // 2, last}):
        if cidr == "64:ff9b::/96":
            value = first | PUBLIC_V4
        if cidr == "2001::/32":  # Teredo: server in bits 64..95, client inverted in 0..31
            value = first | (PUBLIC_V4 << 64) | (~PUBLIC_V4 & 0xFFFFFFFF)
        if cidr == "2002::/16":  # 6to4 carries its IPv4 address in bits 80..111
            value = first | (PUBLIC_V4 << 80)
        if cidr == "::ffff:0:0/96":
            value = first | int(ipaddress.IPv4Address("10.1.2.3"))
        ip: ipaddress.IPv4Address | ipaddress.IPv6Address = (
            ipaddress.IPv6Address(value) if net.version == 6 else ipaddress.IPv4Address(value))
        block = special_purpose_block(ip)
        if block is not None and str(block.network) == cidr:
            found.append(ip)
    return found


def never(_ip: object) -> bool:
    return False


def test_the_expected_table_covers_every_registry_row() -> None:
    assert {str(block.network) for block in REGISTRY} == set(EXPECTED)


@pytest.mark.parametrize(("cidr", "reachable"), sorted(EXPECTED.items()))
def test_each_row_is_judged_as_the_registry_says(cidr: str, reachable: bool) -> None:
    addresses = probes(cidr)
    assert addresses, f"no address of {cidr} is its own most specific row"
    for ip in addresses:
        refused = judge_address(ip, never)
        assert (refused is None) is reachable, (ip, refused)


@pytest.mark.parametrize("url", [
    "https://192.0.0.8/", "https://192.0.0.200/", "https://192.88.99.1/",
    "https://192.88.99.2/", "https://[3fff::1]/", "https://[5f00::1]/",
    "https://[100:0:0:1::1]/", "https://[::ffff:192.88.99.1]/", "https://[64:ff9b::c000:8]/",
])
def test_special_purpose_addresses_the_guard_used_to_let_through(url: str) -> None:
    verdict = check_url(url, ScrapeSettings())
    assert verdict.verdict == "deny", verdict.reason


@pytest.mark.parametrize("url", ["https://192.0.0.9/", "https://[2001:1::1]/",
                                 "https://192.175.48.1/", "https://[2620:4f:8000::1]/"])
def test_globally_reachable_special_blocks_are_admitted(url: str) -> None:
    verdict = check_url(url, ScrapeSettings())
    assert verdict.verdict == "allow", verdict.reason


def test_a_refusal_names_the_registry_row() -> None:
    refused = judge_address(ipaddress.ip_address("192.88.99.1"), never)
    assert refused is not None and refused.rule == "special-purpose"
    assert "Deprecated (6to4 Relay Anycast)" in refused.detail and "RFC 7526" in refused.detail
