"""``check_url``: explain what the guard would do with a URL, without fetching it.

This is the engine of ``tooldeck check url "<url>" [--resolve]``: layer 1 always, layer 2
when asked (through the injected or the system resolver). No connection is ever opened.
"""

from __future__ import annotations

import asyncio
from typing import Literal

import attrs

from tooldeck.errors import ToolError
from tooldeck.plugins.web.rejection import PolicyViolation
from tooldeck.plugins.web.resolve import Resolver, resolve_and_validate, system_resolver
from tooldeck.plugins.web.settings import GuardPolicy, ScrapeSettings
from tooldeck.plugins.web.urlguard import Target, check_static

__all__ = ["UrlVerdict", "check_url", "check_url_async"]


@attrs.frozen
class UrlVerdict:
    """The guard's verdict on one URL.

    :param verdict: ``allow`` or ``deny``.
    :param reason: why; for a denial, the message naming the rule that fired.
    :param rule: the id of the rule that fired, ``None`` when allowed or resolution failed.
    :param url: the URL as it would be requested, when layer 1 accepted it.
    :param addresses: the admitted addresses, when the host was resolved.
    """

    verdict: Literal["allow", "deny"]
    reason: str
    rule: str | None = None
    url: str | None = None
    addresses: tuple[str, ...] = ()


def _static_verdict(url: str, policy: GuardPolicy) -> UrlVerdict | Target:
    try:
        target = check_static(url, policy)
    except PolicyViolation as exc:
        return UrlVerdict(verdict="deny", reason=exc.message, rule=exc.rejection.rule)
    if target.address is not None:
        return UrlVerdict(
            verdict="allow",
            reason="IP literal passes every rule",
            url=str(target.url),
            addresses=(str(target.address),),
        )
    return target


def _unresolved(target: Target) -> UrlVerdict:
    return UrlVerdict(
        verdict="allow", reason="passes every static rule (not resolved)", url=str(target.url)
    )


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
    :returns: the verdict.
    """
    policy = GuardPolicy.from_settings(settings)
    static = _static_verdict(url, policy)
    if isinstance(static, UrlVerdict):
        return static
    if not resolve:
        return _unresolved(static)
    shown = str(static.url)
    try:
        addresses = await resolve_and_validate(
            static.host, static.port, resolver or system_resolver, policy
        )
    except PolicyViolation as exc:
        return UrlVerdict(verdict="deny", reason=exc.message, rule=exc.rejection.rule, url=shown)
    except ToolError as exc:
        return UrlVerdict(verdict="deny", reason=exc.message, url=shown)
    return UrlVerdict(
        verdict="allow",
        reason="passes every static rule and every resolved address is admitted",
        url=shown,
        addresses=tuple(str(ip) for ip in addresses),
    )


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
    static = _static_verdict(url, GuardPolicy.from_settings(settings))
    return static if isinstance(static, UrlVerdict) else _unresolved(static)
