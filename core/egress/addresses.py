"""Layer-1/2 address rules: which IP addresses a fetch may connect to.

An address is judged by the first rule in :data:`ADDRESS_RULES` that matches it. The
standard library's :mod:`ipaddress` names the common ranges; every row of the IANA
special-purpose registries (:mod:`~tooldeck.egress.special_purpose`) is applied too, so
blocks the library misses are refused and blocks the registries call globally reachable
(PCP and TURN anycast, AS112, AMT) are admitted even where the library's coarser ranges
would refuse them. This module adds cloud metadata endpoints and IPv4 addresses carried
inside IPv6 forms.

======================  ==================================================================
rule                    refuses
======================  ==================================================================
``cloud-metadata``      metadata endpoints (169.254.169.254, fd00:ec2::254, ...); never
                        admissible, not even through ``allow_internal``
``embedded-ipv4``       an IPv6 address carrying an IPv4 address (IPv4-mapped, -compatible,
                        -translated, 6to4, NAT64 ``64:ff9b::/96``, Teredo server or client)
                        that is itself refused
``unspecified``         ``0.0.0.0``, ``::``
``loopback``            ``127.0.0.0/8``, ``::1``
``link-local``          ``169.254.0.0/16``, ``fe80::/10``
``multicast``           ``224.0.0.0/4``, ``ff00::/8``
``broadcast``           ``255.255.255.255``
``shared-address``      ``100.64.0.0/10`` (carrier-grade NAT)
``reserved``            IETF-reserved ranges (``240.0.0.0/4``, ``::/8``, ...)
``private``             RFC 1918, unique-local ``fc00::/7``, documentation, benchmarking
                        and the other ranges :attr:`ipaddress.IPv4Address.is_private` lists
``site-local``          deprecated ``fec0::/10``
``special-purpose``     a block the IANA registries mark not globally reachable (private
                        use, documentation, benchmarking, IETF protocol assignments such
                        as ``192.0.0.0/24``, the deprecated 6to4 relay ``192.88.99.0/24``,
                        SRv6 SIDs ...) that no rule above caught
``not-global``          anything else :mod:`ipaddress` does not call globally reachable
======================  ==================================================================

Every rule but ``cloud-metadata`` yields to an address admitted by the operator's
``allow_internal`` list. An IPv4-mapped address (``::ffff:a.b.c.d``) is the IPv4 address
itself on a dual-stack socket, and a NAT64 address (``64:ff9b::a.b.c.d``) is translated to
it by the network, so for those two forms only the IPv4 part is judged. The deprecated 6to4
relay block, whose "globally reachable" the registry leaves N/A, is refused: nothing should
be reached there any more.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from tooldeck.egress.rejection import Rejection
from tooldeck.egress.special_purpose import special_purpose_block

__all__ = [
    "ADDRESS_RULES",
    "METADATA_ADDRESSES",
    "IPAddress",
    "embedded_ipv4",
    "judge_address",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
"""Either kind of IP address."""

METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    ipaddress.ip_address(text)
    for text in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle instance metadata
        "169.254.170.2",  # AWS ECS task metadata and credentials
        "fd00:ec2::254",  # AWS instance metadata over IPv6
        "100.100.100.200",  # Alibaba Cloud metadata
        "168.63.129.16",  # Azure wire server (a public address, hence listed explicitly)
    )
)
"""Cloud metadata endpoints: refused whatever ``allow_internal`` says."""

_SHARED_ADDRESS_SPACE = ipaddress.IPv4Network("100.64.0.0/10")
_LIMITED_BROADCAST = ipaddress.IPv4Address("255.255.255.255")
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
_IPV4_TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")
_NAT64_WELL_KNOWN = ipaddress.IPv6Network("64:ff9b::/96")
_TRANSLATION_FORMS = frozenset({"IPv4-mapped", "NAT64"})
_LOW_32_BITS = 0xFFFFFFFF


def _unspecified(ip: IPAddress) -> bool:
    return ip.is_unspecified


def _loopback(ip: IPAddress) -> bool:
    return ip.is_loopback


def _link_local(ip: IPAddress) -> bool:
    return ip.is_link_local


def _multicast(ip: IPAddress) -> bool:
    return ip.is_multicast


def _broadcast(ip: IPAddress) -> bool:
    return ip == _LIMITED_BROADCAST


def _shared_address(ip: IPAddress) -> bool:
    return isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED_ADDRESS_SPACE


def _special_purpose(ip: IPAddress) -> bool:
    block = special_purpose_block(ip)
    return block is not None and (block.globally_reachable is False or (
        block.globally_reachable is None and block.network.version == 4))


def _registered_global(ip: IPAddress) -> bool:
    block = special_purpose_block(ip)
    return block is not None and block.globally_reachable is True


def _private(ip: IPAddress) -> bool:
    return ip.is_private


def _reserved(ip: IPAddress) -> bool:
    return ip.is_reserved


def _site_local(ip: IPAddress) -> bool:
    return isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local


def _not_global(ip: IPAddress) -> bool:
    return not ip.is_global


ADDRESS_RULES: tuple[tuple[str, Callable[[IPAddress], bool], str], ...] = (
    ("unspecified", _unspecified, "unspecified address"),
    ("loopback", _loopback, "loopback address"),
    ("link-local", _link_local, "link-local address"),
    ("multicast", _multicast, "multicast address"),
    ("broadcast", _broadcast, "broadcast address"),
    ("shared-address", _shared_address, "shared address space (carrier-grade NAT)"),
    ("reserved", _reserved, "reserved address"),
    ("private", _private, "private-use address"),
    ("site-local", _site_local, "site-local address"),
    ("special-purpose", _special_purpose, "special-purpose address"),
    ("not-global", _not_global, "address that is not globally reachable"),
)
"""The range rules in the order they are tried: (rule id, predicate, description)."""


def embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[tuple[str, ipaddress.IPv4Address], ...]:
    """List the IPv4 addresses an IPv6 address carries, each with the name of its form.

    :param ip: the IPv6 address.
    :returns: ``(form, ipv4)`` pairs; empty when the address carries none.
    """
    found: list[tuple[str, ipaddress.IPv4Address]] = []
    low = ipaddress.IPv4Address(int(ip) & _LOW_32_BITS)
    if ip.ipv4_mapped is not None:
        found.append(("IPv4-mapped", ip.ipv4_mapped))
    elif ip in _IPV4_TRANSLATED:
        found.append(("IPv4-translated", low))
    elif ip in _IPV4_COMPATIBLE and not (ip.is_unspecified or ip.is_loopback):
        found.append(("IPv4-compatible", low))
    elif ip in _NAT64_WELL_KNOWN:
        found.append(("NAT64", low))
    if ip.sixtofour is not None:
        found.append(("6to4", ip.sixtofour))
    if ip.teredo is not None:
        server, client = ip.teredo
        found.extend((("Teredo server", server), ("Teredo client", client)))
    return tuple(found)


def _describe(rule: str, description: str, ip: IPAddress) -> str:
    if rule == "special-purpose":
        block = special_purpose_block(ip)
        assert block is not None
        return f"{description} {ip} ({block.name}, {block.network}, {block.rfc})"
    return f"{description} {ip}"


def _judge_ranges(ip: IPAddress, admitted: Callable[[IPAddress], bool]) -> Rejection | None:
    for rule, matches, description in ADDRESS_RULES:
        if rule == "reserved" and _registered_global(ip):
            return None  # the registry's word beats ipaddress's coarser ranges
        if matches(ip):
            if admitted(ip):
                return None
            return Rejection(rule, _describe(rule, description, ip))
    return None


def judge_address(ip: IPAddress, admitted: Callable[[IPAddress], bool]) -> Rejection | None:
    """Judge one address against every rule of the table.

    :param ip: the address, as written in a URL or returned by the resolver; a zone id is
        dropped before judging.
    :param admitted: tells whether the operator's ``allow_internal`` list admits an address.
    :returns: the first rule that refuses the address, or ``None`` when it may be used.
    """
    if isinstance(ip, ipaddress.IPv6Address) and ip.scope_id is not None:
        ip = ipaddress.IPv6Address(int(ip))
    if ip in METADATA_ADDRESSES:
        return Rejection("cloud-metadata", f"cloud metadata endpoint {ip}")
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = embedded_ipv4(ip)
        for form, inner in embedded:
            refused = judge_address(inner, admitted)
            if refused is not None:
                return Rejection(
                    "embedded-ipv4",
                    f"{ip} carries {form} address {inner}, refused by rule "
                    f"'{refused.rule}': {refused.detail}",
                )
        if any(form in _TRANSLATION_FORMS for form, _ in embedded):
            return None
    return _judge_ranges(ip, admitted)
