"""Host text normalisation and IPv4 literal parsing, the way resolvers read host names.

A URL host reaches a resolver after IDNA processing, and ``getaddrinfo`` accepts every IPv4
form ``inet_aton`` does: ``127.1``, ``2130706433``, ``0177.0.0.1``, ``0x7f.1``. This module
turns a host into the single ASCII spelling the guard judges, and reads those numeric forms
so that no spelling of an address escapes the address rules.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata

import idna

__all__ = ["HostSyntaxError", "ends_in_number", "normalise_host_name", "parse_ipv4_number"]

_HOST_CHARS = re.compile(r"^[a-z0-9_.-]+$")
_NUMERIC_LABEL = re.compile(r"^(?:[0-9]+|0[xX][0-9a-fA-F]*)$")
_MAX_HOST_LENGTH = 253


class HostSyntaxError(ValueError):
    """A host that cannot be turned into one unambiguous ASCII spelling."""


def normalise_host_name(host: str) -> str:
    """Return the ASCII, lower-case spelling of a non-bracketed host, without a trailing dot.

    Unicode hosts are NFKC-normalised and IDNA-encoded (UTS #46 mapping), so full-width
    digits and dots become ASCII ones; one trailing dot (the DNS root) is dropped.

    :param host: the host as it appears in the URL, brackets excluded.
    :returns: the normalised host.
    :raises HostSyntaxError: for percent-escapes, IDNA failures, empty labels or characters a
        host name cannot hold.
    """
    if "%" in host:
        raise HostSyntaxError(f"percent-encoded host {host!r}")
    text = host
    if not text.isascii():
        try:
            text = idna.encode(
                unicodedata.normalize("NFKC", text), uts46=True, transitional=False
            ).decode("ascii")
        except idna.IDNAError as exc:
            raise HostSyntaxError(f"invalid internationalised host {host!r}: {exc}") from None
    text = text.lower()
    if text.endswith("."):
        text = text[:-1]
    if not text or len(text) > _MAX_HOST_LENGTH or "" in text.split("."):
        raise HostSyntaxError(f"empty label or bad length in host {host!r}")
    if not _HOST_CHARS.match(text):
        raise HostSyntaxError(f"character not allowed in host {host!r}")
    return text


def ends_in_number(host: str) -> bool:
    """Tell whether a normalised host's last label is numeric, so it must be an IPv4 address.

    :param host: the normalised host.
    :returns: ``True`` when the last label is decimal digits or ``0x`` followed by hex digits.
    """
    return bool(_NUMERIC_LABEL.match(host.rsplit(".", 1)[-1]))


def _part_value(part: str) -> int:
    if part[:2] in ("0x", "0X"):
        return int(part[2:] or "0", 16)
    if len(part) > 1 and part.startswith("0"):
        return int(part[1:], 8)
    return int(part, 10)


def parse_ipv4_number(host: str) -> ipaddress.IPv4Address:
    """Read a host in any ``inet_aton`` form (1 to 4 parts, decimal, octal or hex parts).

    :param host: the normalised host.
    :returns: the IPv4 address it denotes.
    :raises HostSyntaxError: when the text is not a valid ``inet_aton`` address.
    """
    parts = host.split(".")
    if len(parts) > 4 or not all(_NUMERIC_LABEL.match(part) for part in parts):
        raise HostSyntaxError(f"host {host!r} ends in a number but is not an IPv4 address")
    try:
        values = [_part_value(part) for part in parts]
    except ValueError:
        raise HostSyntaxError(f"host {host!r} has an invalid numeric part") from None
    *leading, last = values
    if any(value > 0xFF for value in leading) or last >= 1 << (8 * (5 - len(values))):
        raise HostSyntaxError(f"host {host!r} has a numeric part out of range")
    number = last
    for index, value in enumerate(leading):
        number |= value << (8 * (3 - index))
    return ipaddress.IPv4Address(number)
