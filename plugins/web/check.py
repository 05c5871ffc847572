"""``check_url``: explain what the guard would do with a URL, without fetching it.

This is the engine of ``tooldeck check url "<url>" [--resolve]``: the static rules always,
the resolved addresses when asked (through the injected or the system resolver). The rules
are the core egress service's (:mod:`tooldeck.egress`); this module reads them with the
``[tools.scrape]`` settings and reports a failed lookup as a denial.
"""

from __future__ import annotations

import asyncio

import attrs

from tooldeck.egress import EgressPolicy, EgressVerdict, Resolver
from tooldeck.egress import check_url as check_url_static
from tooldeck.egress import check_url_async as check_egress_async
from tooldeck.plugins.web.settings import ScrapeSettings

__all__ = ["UrlVerdict", "check_url", "check_url_async"]

UrlVerdict = EgressVerdict
"""The guard's verdict on one URL (the core's :class:`tooldeck.egress.EgressVerdict`)."""


async def check_url_async(
    url: str,
    settings: ScrapeSettings,
    *,
    resolve: bool = False,
    resolver: Resolver | None = None,
) -> UrlVerdict:
    """Judge a URL with layer 1 and, when ``resolve`` is set, layer 2.

    :param url: the URL to judge.
    :param settings: the ``[tools.scrape]`` settings.
    :param resolve: also resolve the host and judge every address.
    :param resolver: the resolver for ``resolve``; the system resolver when ``None``.
    :returns: the verdict; a failed lookup is a ``deny`` (nothing would be fetched).
    """
    verdict = await check_egress_async(
        url, EgressPolicy.from_settings(settings), resolve=resolve, resolver=resolver
    )
    if verdict.verdict == "unresolved":
        return attrs.evolve(verdict, verdict="deny")
    return verdict


def check_url(
    url: str,
    settings: ScrapeSettings,
    *,
    resolve: bool = False,
    resolver: Resolver | None = None,
) -> UrlVerdict:
    """Judge a URL synchronously; see :func:`check_url_async`.

    Without ``resolve`` no event loop is involved; with it, the check runs in a fresh loop,
    so call :func:`check_url_async` instead from async code.

    :param url: the URL to judge.
    :param settings: the ``[tools.scrape]`` settings.
    :param resolve: also resolve the host and judge every address.
    :param resolver: the resolver for ``resolve``; the system resolver when ``None``.
    :returns: the verdict.
    """
    if resolve:
        return asyncio.run(check_url_async(url, settings, resolve=True, resolver=resolver))
    return check_url_static(url, EgressPolicy.from_settings(settings))
