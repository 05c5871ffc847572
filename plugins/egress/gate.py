"""The egress gate: judges every destination a shell command names with the core policy.

For a ``bash`` call the command is analysed (:func:`tooldeck.call_memo.shell_analysis`: the
one analysis of the call, which the shell gate judges too), its destinations read
(:mod:`.destinations`) and each one judged by :mod:`tooldeck.egress`: the static rules
first, then one DNS resolution with a short timeout through the deck's resolver. The first
denial denies the call, naming the rule that fired; a destination only known at run time, an
unquoted glob that is not denied as written, or a lookup that fails or times out makes it
ask. A developer's own service on this machine (``curl http://localhost:8000``) asks rather
than being denied (:mod:`.local_services`). Otherwise the gate abstains: it never vouches for
a command.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable

import attrs

from tooldeck import hookimpl
from tooldeck.call_memo import shell_analysis
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
from tooldeck.egress.log import EgressLog, HopRecorder
from tooldeck.models import AuditEvent, Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.egress.destinations import (
    Destination,
    HostPort,
    Unknown,
    Url,
    destinations,
    names_nowhere,
)
from tooldeck.plugins.egress.local_services import is_local_service, is_own_database
from tooldeck.runtime import Runtime

__all__ = ["RESOLVE_TIMEOUT", "SHELL_TOOLS", "EgressGate", "Judgement"]

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
    :param log: the egress log (``[tools.egress]``), or ``None`` when it is off.
    """

    name = "egress"

    def __init__(self, policy: EgressPolicy, extra_wrappers: Iterable[str] = (),
                 timeout: float = RESOLVE_TIMEOUT, log: EgressLog | None = None) -> None:
        self.policy = policy
        self.extra_wrappers = tuple(extra_wrappers)
        self.timeout = timeout
        self.log = log
        self._judged: dict[str, Judgement] = {}

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
        return self.judge(command, resolver).decision

    def judge(self, command: str, resolver: Resolver) -> Judgement:
        """Like :meth:`decide`, also returning the destinations (for the egress log).

        :param command: the shell command.
        :param resolver: the resolver for host names.
        :returns: the decision and every destination the command names.
        """
        found = destinations(shell_analysis(command, extra_wrappers=self.extra_wrappers))
        if not found:  # most commands: no destination, nothing to judge or resolve
            return _NOWHERE
        asks: list[str] = []
        local: list[str] = []
        pending: list[Url | HostPort] = []
        for item in found:
            if isinstance(item, Unknown):
                asks.append(f"{item.command}: destination {item.text} is only known at run time")
                continue
            static = _static_verdict(item, self.policy)
            if static.verdict == "deny" and is_own_database(item, self.policy):
                continue
            if static.verdict == "deny" and is_local_service(item, self.policy):
                local.append(f"{item.command}: {_shown(item)} is a service on this machine")
                continue
            if static.verdict == "deny":
                return Judgement(_deny(item, static), found, item, static.rule)
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
                    return Judgement(_deny(item, verdict), found, item, verdict.rule)
                if verdict.verdict == "unresolved":
                    asks.append(f"{item.command}: {verdict.reason}")
                elif not item.certain:
                    asks.append(f"{item.command}: {_shown(item)} may be expanded by the shell")
        if asks:
            return Judgement(Decision(Verdict.ASK, "egress unverified: " + "; ".join(asks),
                                      gate="egress", rule="egress-unverified"), found)
        if local:
            return Judgement(Decision(Verdict.ASK, "loopback service (a person confirms it is "
                                      "the developer's own): " + "; ".join(local),
                                      gate="egress", rule="loopback-service"), found)
        return Judgement(None, found)

    @hookimpl
    def tooldeck_check_call(
        self, call: ToolCall, tool: ToolDef, runtime: Runtime
    ) -> Decision | None:
        """Deny a shell call that names a refused destination; ask when one is unknown."""
        if tool.id not in SHELL_TOOLS:
            return None
        command = call.input_text(tool)
        if names_nowhere(shell_analysis(command, extra_wrappers=self.extra_wrappers)):
            return None  # most commands: no program that connects anywhere, nothing to read
        judged = self.judge(command, deck_resolver(runtime.session))
        if self.log is not None and judged.found:
            self._judged[call.call_id] = judged
            while len(self._judged) > _MAX_PENDING:
                del self._judged[next(iter(self._judged))]
        return judged.decision

    @hookimpl
    def tooldeck_audit(self, event: AuditEvent, runtime: Runtime) -> None:
        """Write the egress log records of a shell call once its audit record says how it ended.

        A command that ran gets one record per destination it names (its status and bytes
        are the program's business, so they are left out; the duration is the call's); a
        command this gate refused gets the refused destination, marked blocked. A command
        refused by another gate, or not confirmed, reached nothing and gets no record.
        """
        fields = event.fields
        judged = self._judged.pop(str(fields.get("call_id")), None)
        if judged is None or self.log is None or event.kind != "tool_call":
            return
        caller = fields.get("caller_id")
        hops = HopRecorder(self.log, str(fields.get("tool")), str(fields.get("call_id")),
                           caller if isinstance(caller, str) else None, runtime.storage)
        result = fields.get("result")
        outcome = result.get("type") if isinstance(result, dict) else None
        decision = fields.get("decision")
        by_this_gate = isinstance(decision, dict) and decision.get("gate") == self.name
        if outcome == "blocked" and by_this_gate and judged.refused is not None:
            hops.refused(_as_url(judged.refused), 0, judged.rule or "egress",
                         method=judged.refused.command)
            return
        ran = outcome in ("success", "rollback", "timeout") or (
            outcome == "error" and fields.get("phase") == "execution")
        if not ran:
            return
        duration = fields.get("duration_ms")
        for item in judged.found:
            hops.sent(_as_url(item), 0, status=None, response_bytes=None,
                      duration_ms=duration if isinstance(duration, (int, float)) else 0.0,
                      method=item.command)


_MAX_PENDING = 1024
"""Judged calls kept for their audit record (every checked call is audited; this bounds a
gate asked about calls some other program never runs)."""


@attrs.frozen
class Judgement:
    """The gate's decision on a command and what it saw.

    :param decision: the vote (``None``: abstain).
    :param found: every destination the command names.
    :param refused: the destination that was refused, when the vote is a deny.
    :param rule: the rule that refused it.
    """

    decision: Decision | None
    found: tuple[Destination, ...]
    refused: Url | HostPort | None = None
    rule: str | None = None


_NOWHERE = Judgement(None, ())
"""The judgement of a command that names no destination."""


def _as_url(item: Destination) -> str:
    """A destination as the egress log writes it: URL, ``tcp://host:port`` or shell word."""
    if isinstance(item, Url):
        return item.url
    if isinstance(item, HostPort):
        host = f"[{item.host}]" if ":" in item.host and not item.host.startswith("[") else item.host
        return f"tcp://{host}:{item.port}"
    return item.text
