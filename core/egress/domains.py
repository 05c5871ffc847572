"""Operator domain lists (``allowed_domains`` / ``denied_domains``): patterns and policy.

=========================  ==============================================================
rule                       refuses
=========================  ==============================================================
``denylist``               a host matching a ``denied_domains`` pattern (deny beats allow)
``bare-ip-with-allowlist`` an IP-literal host while ``allowed_domains`` is non-empty
``allowlist``              a host matching no ``allowed_domains`` pattern, when there are any
=========================  ==============================================================

A pattern is an exact host (``docs.rs``) or a one-label wildcard (``*.example.com`` matches
``a.example.com`` but neither ``example.com`` nor ``a.b.example.com``). A leading dot
(``.example.com``) has no special meaning and only matches literally; further wildcards
(``*.*.example.com``) never match. Hosts reach this module normalised to lower case, and
:func:`validate_pattern` lower-cases patterns, so matching is effectively case-blind.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tooldeck.egress.rejection import Rejection

__all__ = ["check_domain_policy", "domain_match", "validate_pattern"]

_PATTERN_CHARS = re.compile(r"^[A-Za-z0-9.*-]+$")


def validate_pattern(pattern: str) -> str:
    """Check a domain pattern's characters and return it in lower case.

    :param pattern: the configured pattern.
    :returns: the pattern, lower-cased.
    :raises ValueError: ``empty domain pattern is not allowed`` or ``invalid domain pattern``.
    """
    if pattern == "":
        raise ValueError("empty domain pattern is not allowed")
    if not _PATTERN_CHARS.match(pattern):
        raise ValueError(
            f'invalid domain pattern "{pattern}": only alphanumeric characters, dots, '
            "hyphens, and a leading wildcard '*' are allowed"
        )
    return pattern.lower()


def domain_match(pattern: str, host: str) -> bool:
    """Tell whether a host matches one pattern.

    :param pattern: an exact host or ``*.suffix``.
    :param host: the host to test.
    :returns: ``True`` on an exact match, or when ``*.suffix`` covers exactly one extra label.
    """
    if pattern.startswith("*."):
        suffix = pattern[1:]
        if "*" in suffix or not host.endswith(suffix):
            return False
        label = host[: -len(suffix)]
        return label != "" and "." not in label
    return pattern == host


def _matches_any(patterns: Sequence[str], host: str) -> bool:
    return any(domain_match(pattern, host) for pattern in patterns)


def _denylist(host: str, is_ip: bool, allowed: Sequence[str], denied: Sequence[str]) -> bool:
    return _matches_any(denied, host)


def _bare_ip_with_allowlist(
    host: str, is_ip: bool, allowed: Sequence[str], denied: Sequence[str]
) -> bool:
    return bool(allowed) and is_ip


def _allowlist(host: str, is_ip: bool, allowed: Sequence[str], denied: Sequence[str]) -> bool:
    return bool(allowed) and not _matches_any(allowed, host)


_DOMAIN_RULES = (
    ("denylist", _denylist, "domain blocked by denylist: {host}"),
    (
        "bare-ip-with-allowlist",
        _bare_ip_with_allowlist,
        "bare IP address not allowed when domain allowlist is active: {host}",
    ),
    ("allowlist", _allowlist, "domain not in allowlist: {host}"),
)


def check_domain_policy(
    host: str, *, is_ip: bool, allowed: Sequence[str], denied: Sequence[str]
) -> Rejection | None:
    """Apply the domain rules, in table order, to a normalised host.

    :param host: the lower-case host (an IP literal in canonical text form).
    :param is_ip: whether the host is an IP literal.
    :param allowed: validated ``allowed_domains`` patterns.
    :param denied: validated ``denied_domains`` patterns.
    :returns: the rule that refuses the host, or ``None`` when the lists let it through.
    """
    for rule, fires, template in _DOMAIN_RULES:
        if fires(host, is_ip, allowed, denied):
            return Rejection(rule, template.format(host=host))
    return None
