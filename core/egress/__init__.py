"""The egress policy: one check for every way out (web tools, shell commands, plugins).

A core service, usable whether or not the web plugin is enabled. The policy is built from
the egress keys of ``[tools.scrape]`` (:func:`policy_from_settings`) and judges
destinations in two steps, neither of which opens a connection:

1. static rules on the text (:mod:`.urlguard` for URLs and hosts, :mod:`.addresses` for IP
   literals in any spelling, :mod:`.domains` for the operator's lists);
2. with a resolver, the host is resolved once and every address judged (:mod:`.resolve`).

Public facade::

    policy = policy_from_settings(runtime.settings)
    check_url("https://example.com/", policy)                # static
    await check_url_async(url, policy, resolve=True,
                          resolver=deck_resolver(runtime.session), timeout=2.0)
    await check_host_async("git.example.com", 22, policy, resolve=True)

See ``docs/egress.md`` for the rules, the settings and the shell commands the ``egress``
gate recognises.
"""

from tooldeck.egress.check import (
    EgressVerdict,
    check_host,
    check_host_async,
    check_url,
    check_url_async,
)
from tooldeck.egress.policy import (
    POLICY_SECTION,
    EgressPolicy,
    EgressSettings,
    policy_from_settings,
)
from tooldeck.egress.rejection import PolicyViolation, Rejection
from tooldeck.egress.resolve import Resolver, system_resolver
from tooldeck.egress.session import deck_resolver, use_resolver

__all__ = [
    "POLICY_SECTION",
    "EgressPolicy",
    "EgressSettings",
    "EgressVerdict",
    "PolicyViolation",
    "Rejection",
    "Resolver",
    "check_host",
    "check_host_async",
    "check_url",
    "check_url_async",
    "deck_resolver",
    "policy_from_settings",
    "system_resolver",
    "use_resolver",
]
