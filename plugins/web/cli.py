"""``tooldeck check url "<url>" [--resolve]``: the SSRF guard's verdict on a URL, no fetch.

The guard is configured exactly as the ``web`` executor would be: the command opens a deck
on ``--config`` (or the lookup order) and reads its validated ``[tools.scrape]`` section.
Without ``--resolve`` only layer 1 runs (the URL text); with it, the host is also resolved
through the system resolver and every address judged (layer 2). No connection is opened.

The exit status is 0 whatever the verdict (2 for a configuration or usage error). With
``--json`` the output is one object:

==============  ==========================================================================
key             value
==============  ==========================================================================
``verdict``     ``"allow"`` or ``"deny"``
``reason``      why; for a denial, the message naming the rule that fired
``rule``        the id of the rule that fired; ``null`` when allowed or DNS failed
``url``         the URL as it would be requested; ``null`` when layer 1 refused it
``addresses``   the addresses a fetch would connect to, when known (the host is an IP
                literal, or ``--resolve`` resolved it and every address was admitted);
                ``null`` otherwise — the key is never omitted
``source``      where the deciding rule came from: the file (or ``env``, ``default``) of
                ``denied_domains`` / ``allowed_domains`` for the list rules, else
                ``builtin`` (the guard's own rules)
``policy``      the digest of the policy generation that judged
==============  ==========================================================================
"""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING, Any

from tooldeck.cli_api import EXIT_OK, emit, open_deck
from tooldeck.config import Settings
from tooldeck.errors import ConfigError
from tooldeck.plugins.web.settings import ScrapeSettings

if TYPE_CHECKING:
    from tooldeck.egress.resolve import Resolver
    from tooldeck.plugins.web.check import UrlVerdict

__all__ = ["CheckUrlCommand", "check_url_command", "verdict_json"]


def verdict_json(verdict: UrlVerdict) -> dict[str, Any]:
    """The ``--json`` object for a verdict (see the module's table).

    :param verdict: the guard's verdict.
    :returns: ``verdict``, ``reason``, ``rule``, ``url`` and ``addresses``.
    """
    return {
        "verdict": verdict.verdict,
        "reason": verdict.reason,
        "rule": verdict.rule,
        "url": verdict.url,
        "addresses": list(verdict.addresses) if verdict.addresses else None,
    }


def _verdict_text(verdict: UrlVerdict) -> str:
    lines = [f"verdict: {verdict.verdict}", f"reason: {verdict.reason}"]
    if verdict.url is not None:
        lines.append(f"url: {verdict.url}")
    if verdict.addresses:
        lines.append(f"addresses: {', '.join(verdict.addresses)}")
    return "\n".join(lines)


class CheckUrlCommand:
    """The ``url`` kind of ``tooldeck check`` (entry-point group ``tooldeck.checks``).

    :param resolver: the resolver ``--resolve`` uses; the system resolver when ``None``.
    """

    help = "judge a URL with the web tools' SSRF guard; nothing is fetched"

    def __init__(self, resolver: Resolver | None = None) -> None:
        self._resolver = resolver

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare ``url`` and ``--resolve``.

        :param parser: the parser of ``tooldeck check url``.
        """
        parser.add_argument("url", help="the URL to judge (quote it in the shell)")
        parser.add_argument("--resolve", action="store_true",
                            help="also resolve the host (system resolver) and judge every "
                            "address; still nothing is fetched")

    def run(self, args: argparse.Namespace) -> int:
        """Print the verdict on ``args.url``.

        :param args: the parsed arguments (``url``, ``resolve``, ``config``, ``json``).
        :returns: 0 whatever the verdict.
        :raises tooldeck.errors.ConfigError: the configuration cannot be used, or disables
            the web plugin; the CLI reports it with exit status 2.
        """
        verdict, provenance = asyncio.run(self._judge(args.url, getattr(args, "config", None),
                                                      bool(args.resolve)))
        as_json = bool(getattr(args, "json", False))
        emit({**verdict_json(verdict), **provenance} if as_json else None,
             _verdict_text(verdict))
        return EXIT_OK

    async def _judge(self, url: str, config: str | None,
                     resolve: bool) -> tuple[UrlVerdict, dict[str, str]]:
        from tooldeck.plugins.web.check import check_url_async  # imports the HTTP stack

        deck = open_deck(config)
        try:
            runtime = deck.runtime
            settings = _scrape_settings(runtime.settings)
            verdict = await check_url_async(url, settings, resolve=resolve,
                                            resolver=self._resolver)
            return verdict, {"source": _source(verdict, runtime.settings, settings),
                             "policy": runtime.digest()}
        finally:
            await deck.aclose()


_LIST_RULES = {"denylist": "denied_domains", "allowlist": "allowed_domains",
               "bare-ip-with-allowlist": "allowed_domains"}


def _source(verdict: UrlVerdict, settings: Settings, scrape: ScrapeSettings) -> str:
    """Where the rule that decided came from: a domain list's origin, or ``builtin``."""
    key = _LIST_RULES.get(verdict.rule or "")
    if key is None and verdict.verdict == "allow" and scrape.allowed_domains:
        key = "allowed_domains"
    return settings.origin(f"tools.scrape.{key}") if key is not None else "builtin"


def _scrape_settings(settings: Settings) -> ScrapeSettings:
    try:
        return settings.get(ScrapeSettings)
    except KeyError:
        raise ConfigError(
            f"{settings.document.label}: the web plugin is disabled, so [tools.scrape] is not "
            "in use and no URL is ever fetched"
        ) from None


check_url_command = CheckUrlCommand()
"""The command object the ``tooldeck.checks`` entry point ``url`` names."""
