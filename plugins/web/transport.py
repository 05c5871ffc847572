"""The pinned transport: every request runs layers 1 and 2 and connects to a judged address.

The transport resolves the request's host itself, once, judges the answer, and hands the
inner httpx transport a request whose URL names the judged IP address. The ``Host`` header
keeps the original name and the ``sni_hostname`` request extension makes TLS send that name
and verify the certificate against it, so nothing downstream ever resolves the name again:
a DNS answer that changes between check and connect cannot be used. Keep-alive is off so a
connection opened for one host name is never reused for another name on the same address.
"""

from __future__ import annotations

import ssl

import httpx

from tooldeck.egress.addresses import IPAddress
from tooldeck.egress.policy import EgressPolicy
from tooldeck.egress.resolve import Resolver, resolve_and_validate
from tooldeck.egress.urlguard import Target, check_static

__all__ = ["PinnedTransport"]


class PinnedTransport(httpx.AsyncBaseTransport):
    """An httpx transport that connects only to addresses the guard has judged.

    :param policy: the guard policy applied to every request.
    :param resolver: the resolver asked once per request for a host name.
    :param ssl_context: the TLS context (trust store, verification) for connections.
    """

    def __init__(self, policy: EgressPolicy, resolver: Resolver, ssl_context: ssl.SSLContext):
        self._policy = policy
        self._resolver = resolver
        self._inner = httpx.AsyncHTTPTransport(
            verify=ssl_context,
            trust_env=False,
            limits=httpx.Limits(max_keepalive_connections=0),
        )

    async def _addresses(self, target: Target) -> tuple[IPAddress, ...]:
        if target.address is not None:
            return (target.address,)
        return await resolve_and_validate(target.host, target.port, self._resolver, self._policy)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Judge, resolve, pin and send one request, trying each admitted address in turn.

        :param request: the request as built by the client.
        :returns: the response from the first address that accepts the connection.
        :raises PolicyViolation: when layer 1 or layer 2 refuses the request.
        :raises httpx.ConnectError: when no admitted address accepts the connection.
        """
        target = check_static(str(request.url), self._policy)
        addresses = await self._addresses(target)
        for ip in addresses[:-1]:
            try:
                return await self._inner.handle_async_request(_pin(request, target, ip))
            except httpx.ConnectError:
                continue
        return await self._inner.handle_async_request(_pin(request, target, addresses[-1]))

    async def aclose(self) -> None:
        """Close the inner transport and its connections."""
        await self._inner.aclose()


def _pin(request: httpx.Request, target: Target, ip: IPAddress) -> httpx.Request:
    extensions = dict(request.extensions)
    if target.address is None:
        extensions["sni_hostname"] = target.host
    return httpx.Request(
        request.method,
        request.url.copy_with(host=str(ip)),
        headers=request.headers,
        stream=request.stream,
        extensions=extensions,
    )
