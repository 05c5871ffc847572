"""The pinned transport enforces layers 1 and 2 on its own, whoever builds the request."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Sequence
from typing import Any

import httpx
import pytest

from tooldeck.egress.policy import EgressPolicy
from tooldeck.egress.rejection import PolicyViolation
from tooldeck.egress.resolve import system_resolver
from tooldeck.errors import ErrorCategory
from tooldeck.plugins.web.settings import ScrapeSettings
from tooldeck.plugins.web.transport import PinnedTransport


def get(transport: PinnedTransport, url: str) -> httpx.Response:
    async def go() -> httpx.Response:
        async with httpx.AsyncClient(transport=transport) as client:
            return await client.get(url)

    return asyncio.run(go())


async def to_site(host: str, port: int) -> Sequence[str]:
    return ["127.0.0.2"]


def policy(**settings: Any) -> EgressPolicy:
    return EgressPolicy.from_settings(ScrapeSettings(**settings))


@pytest.mark.parametrize(
    ("template", "rule"),
    [
        ("https://127.0.0.1:{port}/page", "loopback"),
        ("http://127.0.0.2:{port}/page", "scheme"),
        ("https://localhost:{port}/page", "private-hostname"),
    ],
)
def test_transport_refuses_what_layer_1_refuses(
    client_tls: ssl.SSLContext, sites: Any, template: str, rule: str
) -> None:
    site, recorder = sites
    recorder.hits.clear()
    transport = PinnedTransport(policy(allow_internal=["127.0.0.2"]), to_site, client_tls)
    with pytest.raises(PolicyViolation) as caught:
        get(transport, template.format(port=site.port))
    assert caught.value.rejection.rule == rule
    assert caught.value.category is ErrorCategory.POLICY_BLOCKED
    assert recorder.hits == []


def test_transport_connects_to_the_judged_address_with_the_name(
    client_tls: ssl.SSLContext, sites: Any
) -> None:
    site, _ = sites
    transport = PinnedTransport(policy(allow_internal=["127.0.0.2"]), to_site, client_tls)
    response = get(transport, f"https://site.test:{site.port}/echo-host")
    assert response.status_code == 200
    assert response.text == f"site.test:{site.port}"


def test_transport_refuses_a_name_resolving_outside_the_admitted_set(
    client_tls: ssl.SSLContext, sites: Any
) -> None:
    site, _ = sites
    transport = PinnedTransport(policy(allow_internal=["127.0.0.3"]), to_site, client_tls)
    with pytest.raises(
        PolicyViolation, match=r"site\.test resolves to loopback address 127\.0\.0\.2"
    ):
        get(transport, f"https://site.test:{site.port}/plain")


def test_system_resolver_reads_numeric_hosts_without_dns() -> None:
    assert asyncio.run(system_resolver("127.0.0.1", 443)) == ["127.0.0.1"]
    assert asyncio.run(system_resolver("::1", 443)) == ["::1"]
