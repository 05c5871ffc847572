"""Layer 2: resolve a host once and judge every address it resolves to.

A host is refused when *any* address in the answer is refused by :mod:`.addresses` (an
attacker who controls one record of a round-robin set must not get a chance). The rule id
is the address rule's; the message says which host resolved to what. A host name listed in
``allow_internal`` admits all its addresses; listed addresses and networks admit
themselves. Cloud metadata endpoints are refused regardless.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Sequence

from tooldeck.egress.addresses import IPAddress, judge_address
from tooldeck.egress.policy import EgressPolicy
from tooldeck.egress.rejection import PolicyViolation, Rejection
from tooldeck.errors import ErrorCategory, ToolError, classify_io_error

__all__ = ["Resolver", "resolve_and_validate", "system_resolver"]

Resolver = Callable[[str, int], Awaitable[Sequence[str]]]
"""An async function mapping ``(host, port)`` to the address strings the host resolves to."""


async def system_resolver(host: str, port: int) -> Sequence[str]:
    """Resolve through the event loop's ``getaddrinfo`` (TCP answers only).

    :param host: the host name.
    :param port: the TCP port.
    :returns: the distinct addresses, in the order the system resolver gave them.
    """
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


async def _lookup(host: str, port: int, resolver: Resolver) -> Sequence[str]:
    try:
        answers = await resolver(host, port)
    except Exception as exc:
        raise ToolError(classify_io_error(exc), f"DNS resolution failed for {host}: {exc}") from exc
    if not answers:
        raise ToolError(
            ErrorCategory.PERMANENT_FAILURE, f"DNS resolution returned no address for {host}"
        )
    return answers


def _parse_answer(host: str, text: str) -> IPAddress:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        raise PolicyViolation(
            Rejection("dns-answer", f"resolver answered {text!r} for {host}, not an IP address")
        ) from None


async def resolve_and_validate(
    host: str, port: int, resolver: Resolver, policy: EgressPolicy
) -> tuple[IPAddress, ...]:
    """Resolve a host name and judge every address in the answer.

    :param host: the canonical host name (never an IP literal).
    :param port: the TCP port, passed on to the resolver.
    :param resolver: the resolver to ask, exactly once.
    :param policy: the guard policy whose ``allow_internal`` entries may admit addresses.
    :returns: the admitted addresses in answer order, duplicates removed; never empty.
    :raises PolicyViolation: when any address is refused.
    :raises ToolError: when resolution fails or answers nothing.
    """
    answers = await _lookup(host, port, resolver)
    host_admitted = policy.internal.admits_host(host)

    def admitted(ip: IPAddress) -> bool:
        return host_admitted or policy.internal.admits_address(ip)

    addresses: list[IPAddress] = []
    for text in answers:
        ip = _parse_answer(host, text)
        refused = judge_address(ip, admitted)
        if refused is not None:
            raise PolicyViolation(
                Rejection(refused.rule, f"SSRF protection: {host} resolves to {refused.detail}")
            )
        addresses.append(ip)
    return tuple(dict.fromkeys(addresses))
