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
import threading
from collections.abc import Iterable

from tooldeck import hookimpl
from tooldeck.egress import (
    EgressPolicy,
    EgressVerdict,
    Resolver,
    check_host,
    check_host_async,
    check_url,
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


def _static_verdict(found: Url | HostPort, policy: EgressPolicy) -> EgressVerdict:
    if isinstance(found, Url):
        return check_url(found.url, policy)
    return check_host(found.host, found.port, policy)


async def _resolved_verdict(
    found: Url | HostPort, policy: EgressPolicy, resolver: Resolver
) -> EgressVerdict:
    if isinstance(found, Url):
        return await check_url_async(found.url, policy, resolve=True, resolver=resolver)
    return await check_host_async(found.host, found.port, policy, resolve=True,
                                  resolver=resolver)


async def _resolve_all(
    pending: list[Url | HostPort], policy: EgressPolicy, resolver: Resolver, timeout: float
) -> list[EgressVerdict]:
    work = asyncio.gather(*(_resolved_verdict(item, policy, resolver) for item in pending))
    try:
        return list(await asyncio.wait_for(work, timeout))
    except asyncio.TimeoutError:
        return [EgressVerdict(verdict="unresolved", reason=f"DNS resolution timed out after "
                              f"{timeout:g} s") for _ in pending]


_LOOP: list[asyncio.AbstractEventLoop] = []
_LOOP_LOCK = threading.Lock()


def _lookup_loop() -> asyncio.AbstractEventLoop:
    """The event loop the lookups run on, on a daemon thread started on first use."""
    with _LOOP_LOCK:
        if not _LOOP:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="tooldeck-egress-lookups",
                             daemon=True).start()
            _LOOP.append(loop)
        return _LOOP[0]


def _shown(found: Destination) -> str:
    if isinstance(found, Url):
        return found.url
    if isinstance(found, HostPort):
        return f"{found.host} port {found.port}"
    return found.text


def _deny(item: Url | HostPort, verdict: EgressVerdict) -> Decision:
    return Decision(Verdict.DENY, f"egress blocked ({item.command} {_shown(item)}): "
                    f"{verdict.reason}", gate="egress", rule=verdict.rule)


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

        Every destination meets the static rules first; only host names that pass them are
        resolved, all at once, on the gate's lookup loop (a daemon thread: the hook is
        synchronous and may be called from a running loop), bounded by the timeout.

        :param command: the shell command.
        :param resolver: the resolver for host names.
        :returns: a deny naming the rule, an ask, or ``None`` when every destination passes
            (or there is none).
        """
        found = destinations(analyze(command, extra_wrappers=self.extra_wrappers))
        asks: list[str] = []
        pending: list[Url | HostPort] = []
        for item in found:
            if isinstance(item, Unknown):
                asks.append(f"{item.command}: destination {item.text} is only known at run time")
                continue
            static = _static_verdict(item, self.policy)
            if static.verdict == "deny":
                return _deny(item, static)
            if not static.addresses:
                pending.append(item)
            elif not item.certain:
                asks.append(f"{item.command}: {_shown(item)} may be expanded by the shell")
        if pending:
            work = _resolve_all(pending, self.policy, resolver, self.timeout)
            future = asyncio.run_coroutine_threadsafe(work, _lookup_loop())
            # a hung loop raises here, and a gate that raises is a deny: fail closed
            verdicts = future.result(self.timeout + 5)
            for item, verdict in zip(pending, verdicts, strict=True):
                if verdict.verdict == "deny":
                    return _deny(item, verdict)
                if verdict.verdict == "unresolved":
                    asks.append(f"{item.command}: {verdict.reason}")
                elif not item.certain:
                    asks.append(f"{item.command}: {_shown(item)} may be expanded by the shell")
        if asks:
            return Decision(Verdict.ASK, "egress unverified: " + "; ".join(asks),
                            gate="egress", rule="egress-unverified")
        return None

    @hookimpl
    def tooldeck_check_call(
        self, call: ToolCall, tool: ToolDef, runtime: Runtime
    ) -> Decision | None:
        """Deny a shell call that names a refused destination; ask when one is unknown."""
        if tool.id not in SHELL_TOOLS:
            return None
        return self.decide(call.input_text(tool), deck_resolver(runtime.session))
