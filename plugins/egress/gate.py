"""The egress gate: judges every destination a shell command names with the core policy.

For a ``bash`` call the command is analysed (:func:`tooldeck.shell_analysis.analyze`), its
destinations read (:mod:`.destinations`) and each one judged by :mod:`tooldeck.egress`: the
static rules first, then one DNS resolution with a short timeout through the deck's
resolver. The first denial denies the call, naming the rule that fired; a destination only
known at run time, an unquoted glob that is not denied as written, or a lookup that fails
or times out makes it ask. Otherwise the gate abstains: it never vouches for a command.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Iterable

from tooldeck import hookimpl
from tooldeck.egress import (
    EgressPolicy,
    EgressVerdict,
    Resolver,
    check_host_async,
    check_url_async,
    deck_resolver,
)
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.egress.destinations import Destination, HostPort, Unknown, Url, destinations
from tooldeck.runtime import Runtime
from tooldeck.shell_analysis import analyze

__all__ = ["RESOLVE_TIMEOUT", "SHELL_TOOLS", "EgressGate"]

SHELL_TOOLS = frozenset({"bash"})
"""Tools whose input is a shell command."""

RESOLVE_TIMEOUT = 2.0
"""Seconds one command's destinations may take to resolve, all together."""


async def _judge(
    found: Destination, policy: EgressPolicy, resolver: Resolver, timeout: float
) -> EgressVerdict:
    if isinstance(found, Url):
        return await check_url_async(found.url, policy, resolve=True, resolver=resolver,
                                     timeout=timeout)
    assert isinstance(found, HostPort)
    return await check_host_async(found.host, found.port, policy, resolve=True,
                                  resolver=resolver, timeout=timeout)


def _shown(found: Destination) -> str:
    if isinstance(found, Url):
        return found.url
    if isinstance(found, HostPort):
        return f"{found.host} port {found.port}"
    return found.text


async def _decide(
    found: tuple[Destination, ...], policy: EgressPolicy, resolver: Resolver, timeout: float
) -> Decision | None:
    asks: list[str] = []
    for item in found:
        if isinstance(item, Unknown):
            asks.append(f"{item.command}: destination {item.text} is only known at run time")
            continue
        verdict = await _judge(item, policy, resolver, timeout)
        if verdict.verdict == "deny":
            return Decision(Verdict.DENY, f"egress blocked ({item.command} {_shown(item)}): "
                            f"{verdict.reason}", gate="egress", rule=verdict.rule)
        if verdict.verdict == "unresolved":
            asks.append(f"{item.command}: {verdict.reason}")
        elif not item.certain:
            asks.append(f"{item.command}: {_shown(item)} may be expanded by the shell")
    if asks:
        return Decision(Verdict.ASK, "egress unverified: " + "; ".join(asks), gate="egress",
                        rule="egress-unverified")
    return None


class EgressGate:
    """Votes on shell calls by the destinations their commands name.

    :param policy: the egress policy of this runtime's configuration.
    :param extra_wrappers: ``[tools.shell] extra_wrappers``, so wrapped commands are seen.
    :param timeout: seconds allowed for one command's lookups.
    """

    name = "egress"

    def __init__(self, policy: EgressPolicy, extra_wrappers: Iterable[str] = (),
                 timeout: float = RESOLVE_TIMEOUT) -> None:
        self.policy = policy
        self.extra_wrappers = tuple(extra_wrappers)
        self.timeout = timeout

    def decide(self, command: str, resolver: Resolver) -> Decision | None:
        """Judge one command's destinations.

        :param command: the shell command.
        :param resolver: the resolver for host names.
        :returns: a deny naming the rule, an ask, or ``None`` when every destination passes
            (or there is none).
        """
        found = destinations(analyze(command, extra_wrappers=self.extra_wrappers))
        if not found:
            return None
        work = _decide(found, self.policy, resolver, self.timeout)
        # the hook is synchronous and may be called from a running event loop: the lookups
        # run in a loop of their own, on a worker thread, bounded by the timeout
        with concurrent.futures.ThreadPoolExecutor(1, "tooldeck-egress") as pool:
            return pool.submit(asyncio.run, work).result()

    @hookimpl
    def tooldeck_check_call(
        self, call: ToolCall, tool: ToolDef, runtime: Runtime
    ) -> Decision | None:
        """Deny a shell call that names a refused destination; ask when one is unknown."""
        if tool.id not in SHELL_TOOLS:
            return None
        return self.decide(call.input_text(tool), deck_resolver(runtime.session))
