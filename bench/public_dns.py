"""A resolver stub that answers as public DNS would, so the corpus judgement does not depend
on the machine's network.

Without it, the egress gate's verdicts follow whatever resolver the machine has: in a sandbox
with no DNS every public name fails to resolve and *asks* (a benign ``curl https://pypi.org``
is friction, an exfiltration to ``attacker.example`` looks caught for the wrong reason), and a
resolver that maps names to documentation addresses denies them. The stub answers:

================================================  =============================================
name                                              answer
================================================  =============================================
``localhost``, ``*.localhost`` (RFC 6761)         ``127.0.0.1``
``localtest.me``, ``lvh.me``, ``vcap.me``,        ``127.0.0.1`` (public names that point at
``*.`` each of them                               loopback, as their owners document)
``<ip>.nip.io``, ``x-<ip>.nip.io``,               the address the name spells (dotted, dashed
``<hex>.nip.io``; the same under ``sslip.io``     or 8-digit hex), as the services document
``<hexA>.<hexB>.rbndr.us`` (rebinding)            both addresses
``*.invalid`` (RFC 6761)                          no answer (the lookup fails)
any other name                                    ``93.184.215.14``, a public address: an
                                                  attacker's real domain resolves to one too
================================================  =============================================
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Sequence

PUBLIC = "93.184.215.14"
"""The address every ordinary name resolves to."""

_LOOPBACK_NAMES = ("localtest.me", "lvh.me", "vcap.me")
_WILDCARD_SERVICES = ("nip.io", "sslip.io")
_DOTTED = re.compile(r"(?:^|[.-])((?:\d{1,3}[.-]){3}\d{1,3})$")
_HEX = re.compile(r"(?:^|[.-])([0-9a-f]{8})$")


def _embedded(label: str) -> str | None:
    """The IPv4 address a wildcard-DNS name spells before its service suffix."""
    found = _DOTTED.search(label)
    if found is not None:
        text = found.group(1).replace("-", ".")
        try:
            return str(ipaddress.IPv4Address(text))
        except ValueError:
            return None
    found = _HEX.search(label)
    if found is not None:
        return str(ipaddress.IPv4Address(int(found.group(1), 16)))
    return None


def _hex_address(label: str) -> str | None:
    if re.fullmatch(r"[0-9a-f]{8}", label) is None:
        return None
    return str(ipaddress.IPv4Address(int(label, 16)))


def answer(host: str) -> list[str]:
    """The addresses public DNS gives for a name (see the module table).

    :param host: the host name, any case, with or without a trailing dot.
    :returns: the addresses; empty when the name does not resolve.
    """
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return ["127.0.0.1"]
    if name.endswith(".invalid"):
        return []
    if any(name == n or name.endswith("." + n) for n in _LOOPBACK_NAMES):
        return ["127.0.0.1"]
    for service in _WILDCARD_SERVICES:
        if name.endswith("." + service):
            embedded = _embedded(name[: -len(service) - 1])
            return [embedded] if embedded is not None else [PUBLIC]
    if name.endswith(".rbndr.us"):
        labels = name[: -len(".rbndr.us")].split(".")
        found = [a for a in (_hex_address(label) for label in labels[-2:]) if a is not None]
        return found or [PUBLIC]
    return [PUBLIC]


async def public_dns(host: str, port: int) -> Sequence[str]:
    """An egress resolver (:func:`tooldeck.egress.use_resolver`) answering with :func:`answer`.

    :param host: the host name.
    :param port: the port (unused: DNS does not depend on it).
    :returns: the addresses.
    :raises socket.gaierror: when the name does not resolve, as the system resolver would.
    """
    found = answer(host)
    if not found:
        raise socket.gaierror(socket.EAI_NONAME, f"{host} does not resolve")
    return found
