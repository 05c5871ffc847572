"""Layer 1: judge a URL from its text alone, before any lookup or connection.

Rules run in table order and the first that fires refuses the URL with its id:

=========================  ==============================================================
rule                       refuses
=========================  ==============================================================
``invalid-url``            no ``scheme:`` prefix, no ``//host`` authority, bad brackets
``forbidden-character``    control characters, whitespace and backslashes anywhere
``scheme``                 any scheme but ``https`` (and ``http`` unless ``https_only``)
``userinfo``               ``user:password@`` before the host (``https://good.com@evil``)
``port``                   a port that is not 1-65535 in ASCII digits
``zone-id``                an IPv6 zone identifier (``[fe80::1%25eth0]``)
``host-encoding``          percent-escapes, invalid IDNA, empty labels, other characters
``ambiguous-numeric-host`` a host ending in a number that is no valid IPv4 address
(address rules)            every rule of :mod:`.addresses`, on an IP-literal host in any
                           spelling (``2130706433``, ``0x7f.1``, ``127.1``, full-width ...)
``non-canonical-ip``       an admitted IPv4 address not written as a dotted quad
``private-hostname``       ``localhost``, ``*.localhost``, ``*.internal``, ``*.local``,
                           ``*.home.arpa``, Kubernetes' ``*.svc``, ``*.default``,
                           ``*.kube-system`` and ``*.kube-public``, and RFC 6762's
                           ``*.localdomain|intranet|private|corp|home|lan``
``single-label-host``      a dotless name (resolved through search domains or hosts files)
``parser-disagreement``    httpx cannot parse the URL or reads another scheme, host or port
(domain rules)             ``denylist``, ``bare-ip-with-allowlist``, ``allowlist`` of
                           :mod:`.domains`
=========================  ==============================================================

``allow_internal`` admits exact host names past ``private-hostname`` and
``single-label-host``, and addresses past the address rules (metadata endpoints excepted).
"""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import attrs

from tooldeck.egress.addresses import IPAddress, judge_address
from tooldeck.egress.domains import check_domain_policy
from tooldeck.egress.hosts import (
    HostSyntaxError,
    ends_in_number,
    normalise_host_name,
    parse_ipv4_number,
)
from tooldeck.egress.policy import EgressPolicy
from tooldeck.egress.rejection import PolicyViolation, Rejection

if TYPE_CHECKING:
    import httpx

__all__ = [
    "DEFAULT_PORTS",
    "HTTPS_PORT",
    "PRIVATE_NAME_SUFFIXES",
    "HostTarget",
    "Target",
    "check_host_static",
    "check_static",
]

HTTPS_PORT = 443
"""The port used when an ``https`` URL names none."""

DEFAULT_PORTS = {"https": HTTPS_PORT, "http": 80}
"""The port used when a URL names none, by scheme."""

PRIVATE_NAME_SUFFIXES = ("localhost", "internal", "local", "home.arpa")
"""Names that never denote a public host, alone or as the last labels of a host."""
_PRIVATE_TOP_LABELS = ("svc", "default", "kube-system", "kube-public", "localdomain", "intranet",
                       "private", "corp", "home", "lan")
"""Last labels of private names (alone, each is a single-label host): Kubernetes' cluster DNS
(``kubernetes.default.svc``, ``NAME.NAMESPACE.svc``, ``kubernetes.default`` and
``tiller-deploy.kube-system`` through a pod's search domains: the namespaces every cluster
has) and the top-level names RFC 6762 appendix G lists as used on internal
networks (none is delegated in the public root)."""

_SCHEME_PREFIX = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_PORT = re.compile(r"^[0-9]{1,5}$")


@attrs.frozen
class HostTarget:
    """A host and port that passed the host rules of layer 1.

    :param host: the canonical host: lower-case ASCII name, or IP address text.
    :param port: the TCP port.
    :param address: the address when the host is an IP literal, else ``None``.
    """

    host: str
    port: int
    address: IPAddress | None


@attrs.frozen
class Target:
    """A URL that passed layer 1, in the one spelling the client will request.

    :param url: the URL to request: host in canonical form, no userinfo.
    :param host: the canonical host: lower-case ASCII name, or IP address text.
    :param port: the TCP port.
    :param address: the address when the host is an IP literal, else ``None``.
    """

    url: httpx.URL
    host: str
    port: int
    address: IPAddress | None


def _blocked(rule: str, detail: str) -> PolicyViolation:
    return PolicyViolation(Rejection(rule, detail))


def _require_scheme_prefix(raw: str) -> None:
    if not _SCHEME_PREFIX.match(raw):
        raise _blocked("invalid-url", f"invalid URL: {raw!r}")


def _refuse_forbidden_characters(raw: str) -> None:
    for char in raw:
        if char == "\\" or char.isspace() or not char.isprintable():
            raise _blocked("forbidden-character", f"character {char!r} not allowed in URL")


def _require_scheme(scheme: str, policy: EgressPolicy) -> None:
    if scheme != "https" and (policy.https_only or scheme != "http"):
        raise _blocked("scheme", f"scheme not allowed: {scheme}")


def _require_authority(raw: str) -> str:
    try:
        netloc = urlsplit(raw).netloc
    except ValueError as exc:
        raise _blocked("invalid-url", f"invalid URL: {raw!r} ({exc})") from None
    if not netloc:
        raise _blocked("invalid-url", f"invalid URL, no host: {raw!r}")
    return netloc


def _refuse_userinfo(netloc: str) -> None:
    if "@" in netloc:
        raise _blocked("userinfo", f"credentials before the host are not allowed: {netloc!r}")


def _split_host_port(netloc: str) -> tuple[str, bool, str]:
    if netloc.startswith("["):
        host, close, rest = netloc[1:].partition("]")
        if not close or (rest and not rest.startswith(":")):
            raise _blocked("invalid-url", f"invalid bracketed host: {netloc!r}")
        return host, True, rest[1:]
    if "[" in netloc or "]" in netloc:
        raise _blocked("invalid-url", f"invalid host: {netloc!r}")
    host, _, port = netloc.partition(":")
    if not host:
        raise _blocked("invalid-url", f"invalid URL, empty host: {netloc!r}")
    return host, False, port


def _parse_port(text: str, default: int = HTTPS_PORT) -> int:
    if text == "":
        return default
    if not _PORT.match(text) or not 1 <= int(text) <= 65535:
        raise _blocked("port", f"invalid port: {text!r}")
    return int(text)


def _refuse_zone_id(host: str) -> None:
    if "%" in host:
        raise _blocked("zone-id", f"IPv6 zone identifiers are not allowed: [{host}]")


def _parse_ipv6_literal(host: str) -> ipaddress.IPv6Address:
    try:
        return ipaddress.IPv6Address(host)
    except ValueError:
        raise _blocked("invalid-url", f"invalid IPv6 literal: [{host}]") from None


def _normalise_name(host: str) -> str:
    try:
        return normalise_host_name(host)
    except HostSyntaxError as exc:
        raise _blocked("host-encoding", str(exc)) from None


def _parse_numeric_host(host: str) -> ipaddress.IPv4Address:
    try:
        return parse_ipv4_number(host)
    except HostSyntaxError as exc:
        raise _blocked("ambiguous-numeric-host", str(exc)) from None


def _judge_literal(ip: IPAddress, written: str, policy: EgressPolicy) -> None:
    refused = judge_address(ip, policy.internal.admits_address)
    if refused is not None:
        shown = "" if written == str(ip) else f" (written {written!r})"
        raise _blocked(refused.rule, f"{refused.detail}{shown}")


def _require_canonical_ipv4(ip: ipaddress.IPv4Address, written: str) -> None:
    if written != str(ip):
        raise _blocked(
            "non-canonical-ip", f"IPv4 address {ip} must be written as a dotted quad: {written!r}"
        )


def _refuse_private_name(host: str, policy: EgressPolicy) -> None:
    private = any(host == suffix or host.endswith("." + suffix) for suffix in PRIVATE_NAME_SUFFIXES
                  ) or host.endswith(tuple("." + label for label in _PRIVATE_TOP_LABELS))
    if private and not policy.internal.admits_host(host):
        raise _blocked("private-hostname", f"private/local host blocked: {host}")


def _refuse_single_label(host: str, policy: EgressPolicy) -> None:
    if "." not in host and not policy.internal.admits_host(host):
        raise _blocked("single-label-host", f"single-label host blocked: {host}")


def _client_url(
    raw: str, scheme: str, host: str, port: int, address: IPAddress | None
) -> httpx.URL:
    import httpx  # the HTTP stack, only when a URL is judged

    try:
        url = httpx.URL(raw)
    except httpx.InvalidURL as exc:
        raise _blocked("parser-disagreement", f"the HTTP client refuses the URL: {exc}") from None
    seen = url.raw_host.decode("ascii")
    if address is None or isinstance(address, ipaddress.IPv4Address):
        same_host = seen.removesuffix(".") == host
    else:
        same_host = _same_ipv6(seen, address)
    seen_port = url.port or DEFAULT_PORTS.get(url.scheme, 0)
    if url.scheme != scheme or not same_host or seen_port != port:
        raise _blocked(
            "parser-disagreement",
            f"the HTTP client reads {url.scheme}://{seen}:{seen_port}, "
            f"the guard reads {scheme}://{host}:{port}",
        )
    return url if seen == host else url.copy_with(host=host)


def _same_ipv6(seen: str, address: IPAddress) -> bool:
    try:
        return ipaddress.IPv6Address(seen) == address
    except ValueError:
        return False


def _apply_domain_lists(host: str, is_ip: bool, policy: EgressPolicy) -> None:
    refused = check_domain_policy(
        host, is_ip=is_ip, allowed=policy.allowed_domains, denied=policy.denied_domains
    )
    if refused is not None:
        raise PolicyViolation(refused)


def _judge_host(
    written: str, bracketed: bool, policy: EgressPolicy
) -> tuple[str, IPAddress | None]:
    address: IPAddress | None
    if bracketed:
        _refuse_zone_id(written)
        address = _parse_ipv6_literal(written)
        host = str(address)
        _judge_literal(address, written, policy)
    else:
        host = _normalise_name(written)
        address = _parse_numeric_host(host) if ends_in_number(host) else None
        if address is not None:
            _judge_literal(address, host, policy)
            _require_canonical_ipv4(address, host)
        else:
            _refuse_private_name(host, policy)
            _refuse_single_label(host, policy)
    return host, address


def check_host_static(host: str, port: int, policy: EgressPolicy) -> HostTarget:
    """Run the host rules of layer 1 on a host that is not part of a URL (``ssh``, ``nc``).

    The host is judged the way it is judged inside a URL: IPv6 literals may be bracketed or
    bare, IPv4 literals in any ``inet_aton`` spelling, then the domain lists.

    :param host: the host as written (``[::1]``, ``::1``, ``127.1``, ``example.com``).
    :param port: the TCP port the command would connect to.
    :param policy: the operator's domain lists and ``allow_internal`` entries.
    :returns: the judged host.
    :raises PolicyViolation: naming the first rule that fired.
    """
    _refuse_forbidden_characters(host)
    if not host:
        raise _blocked("invalid-url", "empty host")
    if not 1 <= port <= 65535:
        raise _blocked("port", f"invalid port: {port!r}")
    bracketed = host.startswith("[") and host.endswith("]")
    written = host[1:-1] if bracketed else host
    if not bracketed and ":" in written:
        bracketed = True  # a bare IPv6 literal: nothing else may hold a colon
    judged, address = _judge_host(written, bracketed, policy)
    _apply_domain_lists(judged, address is not None, policy)
    return HostTarget(host=judged, port=port, address=address)


def check_static(raw: str, policy: EgressPolicy) -> Target:
    """Run every layer-1 rule on a URL.

    :param raw: the URL as given by the model or a ``Location`` header.
    :param policy: the operator's domain lists and ``allow_internal`` entries.
    :returns: the target to request when every rule passes.
    :raises PolicyViolation: naming the first rule that fired.
    """
    _require_scheme_prefix(raw)
    _refuse_forbidden_characters(raw)
    scheme = raw.split(":", 1)[0].lower()
    _require_scheme(scheme, policy)
    netloc = _require_authority(raw)
    _refuse_userinfo(netloc)
    written, bracketed, port_text = _split_host_port(netloc)
    port = _parse_port(port_text, DEFAULT_PORTS[scheme])
    host, address = _judge_host(written, bracketed, policy)
    url = _client_url(raw, scheme, host, port, address)
    _apply_domain_lists(host, address is not None, policy)
    return Target(url=url, host=host, port=port, address=address)
