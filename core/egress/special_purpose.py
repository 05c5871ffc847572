"""The IANA special-purpose address registries, as data, and a lookup over them.

Transcribed row by row from the IANA "IPv4 Special-Purpose Address Registry" and "IPv6
Special-Purpose Address Registry" (https://www.iana.org/assignments/iana-ipv4-special-registry,
.../iana-ipv6-special-registry), registry state of 2025-05 (the newest rows: IPv6
``100:0:0:1::/64`` of RFC 9780, 2025-05; ``3fff::/20`` of RFC 9637, 2024-07; ``5f00::/16`` of
RFC 9602, 2024-04; IPv4 ``192.88.99.2/32`` of RFC 6751). Each row keeps the registry's
"Globally Reachable" column: ``True``, ``False`` or ``None`` where the registry says N/A (the
transition prefixes, judged by the address they carry, and the deprecated 6to4 relay block).

The most specific row containing an address decides: ``192.0.0.9`` (PCP anycast, globally
reachable) sits inside ``192.0.0.0/24`` (IETF protocol assignments, not reachable).
When the registry changes, add its rows here and to ``tests/web/test_special_purpose.py``.
"""

from __future__ import annotations

import ipaddress

import attrs

__all__ = ["REGISTRY", "SpecialPurposeBlock", "special_purpose_block"]


@attrs.frozen
class SpecialPurposeBlock:
    """One registry row.

    :param network: the address block.
    :param name: the registry's name for it.
    :param rfc: the document that reserved it.
    :param globally_reachable: the registry's column; ``None`` for N/A.
    """

    network: ipaddress.IPv4Network | ipaddress.IPv6Network
    name: str
    rfc: str
    globally_reachable: bool | None


_ROWS: tuple[tuple[str, str, str, bool | None], ...] = (
    # IPv4 Special-Purpose Address Registry
    ("0.0.0.0/8", '"This network"', "RFC 791", False),
    ("0.0.0.0/32", '"This host on this network"', "RFC 1122", False),
    ("10.0.0.0/8", "Private-Use", "RFC 1918", False),
    ("100.64.0.0/10", "Shared Address Space", "RFC 6598", False),
    ("127.0.0.0/8", "Loopback", "RFC 1122", False),
    ("169.254.0.0/16", "Link Local", "RFC 3927", False),
    ("172.16.0.0/12", "Private-Use", "RFC 1918", False),
    ("192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890", False),
    ("192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335", False),
    ("192.0.0.8/32", "IPv4 dummy address", "RFC 7600", False),
    ("192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723", True),
    ("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155", True),
    ("192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880", False),
    ("192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880", False),
    ("192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737", False),
    ("192.31.196.0/24", "AS112-v4", "RFC 7535", True),
    ("192.52.193.0/24", "AMT", "RFC 7450", True),
    ("192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526", None),
    ("192.88.99.2/32", "6a44-relay anycast address", "RFC 6751", False),
    ("192.168.0.0/16", "Private-Use", "RFC 1918", False),
    ("192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534", True),
    ("198.18.0.0/15", "Benchmarking", "RFC 2544", False),
    ("198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737", False),
    ("203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737", False),
    ("240.0.0.0/4", "Reserved", "RFC 1112", False),
    ("255.255.255.255/32", "Limited Broadcast", "RFC 8190", False),
    # IPv6 Special-Purpose Address Registry
    ("::1/128", "Loopback Address", "RFC 4291", False),
    ("::/128", "Unspecified Address", "RFC 4291", False),
    ("::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291", False),
    ("64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC 6052", True),
    ("64:ff9b:1::/48", "IPv4-IPv6 Translat.", "RFC 8215", False),
    ("100::/64", "Discard-Only Address Block", "RFC 6666", False),
    ("100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC 9780", False),
    ("2001::/23", "IETF Protocol Assignments", "RFC 2928", False),
    ("2001::/32", "TEREDO", "RFC 4380", None),
    ("2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723", True),
    ("2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155", True),
    ("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC 9665", True),
    ("2001:2::/48", "Benchmarking", "RFC 5180", False),
    ("2001:3::/32", "AMT", "RFC 7450", True),
    ("2001:4:112::/48", "AS112-v6", "RFC 7535", True),
    ("2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843", False),
    ("2001:20::/28", "ORCHIDv2", "RFC 7343", True),
    ("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374", True),
    ("2001:db8::/32", "Documentation", "RFC 3849", False),
    ("2002::/16", "6to4", "RFC 3056", None),
    ("2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534", True),
    ("3fff::/20", "Documentation", "RFC 9637", False),
    ("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602", False),
    ("fc00::/7", "Unique-Local", "RFC 4193", False),
    ("fe80::/10", "Link-Local Unicast", "RFC 4291", False),
)

REGISTRY: tuple[SpecialPurposeBlock, ...] = tuple(
    SpecialPurposeBlock(ipaddress.ip_network(cidr), name, rfc, reachable)
    for cidr, name, rfc, reachable in _ROWS
)
"""Every row of both registries, in registry order."""

# (version, first, last, prefix length, block), most specific first, for a linear scan
_SPANS = sorted(
    ((b.network.version, int(b.network.network_address), int(b.network.broadcast_address),
      b.network.prefixlen, b) for b in REGISTRY),
    key=lambda span: -span[3],
)


def special_purpose_block(
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> SpecialPurposeBlock | None:
    """The most specific registry row containing ``ip``, or ``None`` for an ordinary address.

    :param ip: the address (a zone id is ignored).
    """
    version, value = ip.version, int(ip)
    for span_version, first, last, _length, block in _SPANS:
        if span_version == version and first <= value <= last:
            return block
    return None
