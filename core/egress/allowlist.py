"""The operator's ``allow_internal`` list: exact hosts, addresses and networks let through.

Off by default. Each entry is one of:

- an IP address (``127.0.0.1``, ``::1``): admits exactly that address;
- a network in CIDR form (``10.20.0.0/16``): admits the addresses inside it; host bits must
  be zero and a ``/0`` prefix is refused (it would switch the guard off);
- a host name (``wiki.corp.internal``): admits that exact name past the host-name rules of
  layer 1 and whatever addresses it resolves to at layer 2. No wildcards.

Cloud metadata endpoints stay refused whatever this list says.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

import attrs

from tooldeck.egress.addresses import IPAddress

__all__ = ["InternalAllowlist", "parse_allow_internal"]

_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST_NAME = re.compile(rf"^(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*$")
_NUMERIC_LABEL = re.compile(r"^(?:[0-9]+|0x[0-9a-f]*)$")

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@attrs.frozen
class InternalAllowlist:
    """The parsed ``allow_internal`` entries.

    :param hosts: exact, lower-case host names.
    :param networks: admitted networks; a single address is a ``/32`` or ``/128`` network.
    """

    hosts: frozenset[str] = frozenset()
    networks: tuple[IPNetwork, ...] = ()

    def admits_host(self, host: str) -> bool:
        """Tell whether a normalised host name is listed exactly.

        :param host: the lower-case ASCII host, without a trailing dot.
        :returns: ``True`` when the name is an entry.
        """
        return host in self.hosts

    def admits_address(self, ip: IPAddress) -> bool:
        """Tell whether an address lies inside a listed address or network.

        :param ip: the address to look up.
        :returns: ``True`` when an entry of the same IP version contains it.
        """
        return any(ip.version == net.version and ip in net for net in self.networks)


def _parse_entry(entry: str) -> str | IPNetwork:
    text = entry.strip().lower()
    if "/" in text:
        try:
            network = ipaddress.ip_network(text, strict=True)
        except ValueError as exc:
            raise ValueError(f"invalid allow_internal network {entry!r}: {exc}") from None
        if network.prefixlen == 0:
            raise ValueError(f"allow_internal network {entry!r} would admit every address")
        return network
    try:
        return ipaddress.ip_network(ipaddress.ip_address(text))
    except ValueError:
        pass
    if not _HOST_NAME.match(text) or _NUMERIC_LABEL.match(text.rsplit(".", 1)[-1]):
        raise ValueError(
            f"invalid allow_internal entry {entry!r}: expected an exact host name, "
            "an IP address or a CIDR network (no wildcards)"
        )
    return text


def parse_allow_internal(entries: Iterable[str]) -> InternalAllowlist:
    """Parse ``allow_internal`` entries into an :class:`InternalAllowlist`.

    :param entries: the configured strings.
    :returns: the parsed list.
    :raises ValueError: for an entry that is no exact host, address or CIDR network.
    """
    hosts: set[str] = set()
    networks: list[IPNetwork] = []
    for entry in entries:
        parsed = _parse_entry(entry)
        if isinstance(parsed, str):
            hosts.add(parsed)
        else:
            networks.append(parsed)
    return InternalAllowlist(frozenset(hosts), tuple(networks))
