"""Verdicts on destinations: a URL or a host and port, statically or through a resolver.

No connection is ever opened. The static check runs layer 1 (:mod:`.urlguard`); with a
resolver, a host name is resolved once and every address judged (:mod:`.resolve`).
"""

from __future__ import annotations

import asyncio
from typing import Literal

import attrs

from tooldeck.egress.policy import EgressPolicy
from tooldeck.egress.rejection import PolicyViolation
from tooldeck.egress.resolve import Resolver, resolve_and_validate, system_resolver
from tooldeck.egress.urlguard import HostTarget, Target, check_host_static, check_static
from tooldeck.errors import ToolError

__all__ = ["EgressVerdict", "check_host", "check_host_async", "check_url", "check_url_async"]


@attrs.frozen
class EgressVerdict:
    """The egress policy's verdict on one destination.

    :param verdict: ``allow``, ``deny``, or ``unresolved`` when the static rules pass but the
        host name could not be resolved (callers that cannot vouch for it ask).
    :param reason: why; for a denial, the message naming the rule that fired.
    :param rule: the id of the rule that fired, ``None`` when allowed or resolution failed.
    :param url: the URL as it would be requested, when layer 1 accepted a URL.
    :param addresses: the admitted addresses, when the host is an IP literal or was resolved.
    """

    verdict: Literal["allow", "deny", "unresolved"]
    reason: str
    rule: str | None = None
    url: str | None = None
    addresses: tuple[str, ...] = ()


def _denied(exc: PolicyViolation, url: str | None = None) -> EgressVerdict:
    return EgressVerdict(verdict="deny", reason=exc.message, rule=exc.rejection.rule, url=url)


def _literal(address: object, url: str | None) -> EgressVerdict:
    return EgressVerdict(verdict="allow", reason="IP literal passes every rule", url=url,
                         addresses=(str(address),))


def _unresolved_pass(url: str | None) -> EgressVerdict:
    return EgressVerdict(verdict="allow", reason="passes every static rule (not resolved)", url=url)


def _url_static(url: str, policy: EgressPolicy) -> EgressVerdict | Target:
    try:
        target = check_static(url, policy)
    except PolicyViolation as exc:
        return _denied(exc)
    if target.address is not None:
        return _literal(target.address, str(target.url))
    return target


def _host_static(host: str, port: int, policy: EgressPolicy) -> EgressVerdict | HostTarget:
    try:
        target = check_host_static(host, port, policy)
    except PolicyViolation as exc:
        return _denied(exc)
    if target.address is not None:
        return _literal(target.address, None)
    return target


async def _resolved(
    host: str, port: int, url: str | None, policy: EgressPolicy, resolver: Resolver,
    timeout: float | None,
) -> EgressVerdict:
    try:
        addresses = await asyncio.wait_for(
            resolve_and_validate(host, port, resolver, policy), timeout
        )
    except PolicyViolation as exc:
        return _denied(exc, url)
    except ToolError as exc:
        return EgressVerdict(verdict="unresolved", reason=exc.message, url=url)
    except asyncio.TimeoutError:
        return EgressVerdict(
            verdict="unresolved", reason=f"DNS resolution of {host} timed out", url=url
        )
    return EgressVerdict(
        verdict="allow",
        reason="passes every static rule and every resolved address is admitted",
        url=url,
        addresses=tuple(str(ip) for ip in addresses),
    )


async def check_url_async(
    url: str,
    policy: EgressPolicy,
    *,
    resolve: bool = False,
    resolver: Resolver | None = None,
    timeout: float | None = None,
) -> EgressVerdict:
    """Judge a URL with the static rules and, when ``resolve`` is set, its resolved addresses.

    :param url: the URL to judge.
    :param policy: the egress policy.
    :param resolve: also resolve the host and judge every address.
    :param resolver: the resolver for ``resolve``; the system resolver when ``None``.
    :param timeout: seconds the resolution may take; ``None`` waits as long as it takes.
    :returns: the verdict; ``unresolved`` when resolution fails or times out.
    """
    static = _url_static(url, policy)
    if isinstance(static, EgressVerdict):
        return static
    shown = str(static.url)
    if not resolve:
        return _unresolved_pass(shown)
    return await _resolved(static.host, static.port, shown, policy, resolver or system_resolver,
                           timeout)


def check_url(url: str, policy: EgressPolicy) -> EgressVerdict:
    """Judge a URL with the static rules only; no resolution, no event loop.

    :param url: the URL to judge.
    :param policy: the egress policy.
    :returns: the verdict (a host name that passes is ``allow``, not resolved).
    """
    static = _url_static(url, policy)
    return static if isinstance(static, EgressVerdict) else _unresolved_pass(str(static.url))


async def check_host_async(
    host: str,
    port: int,
    policy: EgressPolicy,
    *,
    resolve: bool = False,
    resolver: Resolver | None = None,
    timeout: float | None = None,
) -> EgressVerdict:
    """Judge a host and port (``ssh host``, ``nc host port``) like the host of a URL.

    :param host: the host as written; IPv6 literals bracketed or not.
    :param port: the TCP port.
    :param policy: the egress policy.
    :param resolve: also resolve the host and judge every address.
    :param resolver: the resolver for ``resolve``; the system resolver when ``None``.
    :param timeout: seconds the resolution may take; ``None`` waits as long as it takes.
    :returns: the verdict; ``unresolved`` when resolution fails or times out.
    """
    static = _host_static(host, port, policy)
    if isinstance(static, EgressVerdict):
        return static
    if not resolve:
        return _unresolved_pass(None)
    return await _resolved(static.host, port, None, policy, resolver or system_resolver, timeout)


def check_host(host: str, port: int, policy: EgressPolicy) -> EgressVerdict:
    """Judge a host and port with the static rules only; see :func:`check_host_async`.

    :param host: the host as written.
    :param port: the TCP port.
    :param policy: the egress policy.
    :returns: the verdict (a host name that passes is ``allow``, not resolved).
    """
    static = _host_static(host, port, policy)
    return static if isinstance(static, EgressVerdict) else _unresolved_pass(None)
