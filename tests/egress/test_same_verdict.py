"""One egress policy, two ways out: ``fetch`` and ``bash curl`` reach the same verdict.

Each address form is judged through the web plugin (``deck.call`` of ``fetch``: a refusal
happens before any connection, an admitted URL shows up as a connection attempt the
tripwire refuses) and through the shell (the gates' decision on ``curl '<url>'``; nothing
runs). Both must deny with the same rule, or both let it through.
"""

from __future__ import annotations

import ipaddress
import re
import shlex
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.deck import Deck, combine_decisions
from tooldeck.egress import EgressPolicy
from tooldeck.errors import ErrorCategory
from tooldeck.models import Decision, ToolCall, Verdict
from tooldeck.plugins.egress.gate import EgressGate
from tooldeck.plugins.web.check import check_url
from tooldeck.plugins.web.settings import ScrapeSettings

from .conftest import PUBLIC_V4, PUBLIC_V6, StubResolver

MakeDeck = Callable[..., tuple[Deck, StubResolver]]

LITERAL_FORMS = [
    "169.254.169.254",
    "2852039166",  # decimal
    "0251.0376.0251.0376",  # octal
    "0xa9fea9fe",  # hex
    "0xa9.0xfe.0xa9.0xfe",  # hex parts
    "0251.254.0xa9.254",  # mixed
    "169.254.43518",  # three parts
    "169.16689662",  # two parts
    "[::ffff:169.254.169.254]",  # IPv4-mapped
    "[::ffff:a9fe:a9fe]",  # IPv4-mapped, hex
    "[::169.254.169.254]",  # IPv4-compatible
    "[2002:a9fe:a9fe::]",  # 6to4
    "[64:ff9b::a9fe:a9fe]",  # NAT64
    "[64:ff9b::169.254.169.254]",  # NAT64, dotted
    "[fe80::1%25eth0]",  # link-local with zone
    "[fe80::1]",
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0x7f000001",
    "017700000001",
    "0",
    "0.0.0.0",
    "[::]",
    "[::1]",
    "[::ffff:7f00:1]",
    "localhost",
    "localhost.",
    "sub.localhost",
    "metadata.google.internal",
    "intranet",
    "10.0.0.1",
    "192.168.1.1",
    "172.16.0.1",
    "100.64.0.1",
    "100.100.100.200",
    "168.63.129.16",
    "[fd00:ec2::254]",
    "[fc00::1]",
    "[fec0::1]",
    "224.0.0.1",
    "255.255.255.255",
    "240.0.0.1",
    "192.0.0.1",
    "198.18.0.1",
    "\uff11\uff12\uff17.\uff10.\uff10.\uff11",  # full-width digits
    "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",  # Teredo
    "134744072",  # 8.8.8.8, not written as a dotted quad
    "user@example.com",  # credentials before the host
    "example.com:0",  # port out of range
]

INTERNAL_ANSWERS = [
    "169.254.169.254", "169.254.170.2", "127.0.0.1", "127.255.255.254", "0.0.0.0", "::", "::1",
    "::ffff:169.254.169.254", "::ffff:7f00:1", "::169.254.169.254", "2002:a9fe:a9fe::",
    "64:ff9b::a9fe:a9fe", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "fe80::1", "fe80::1%eth0",
    "10.0.0.1", "192.168.1.1", "172.16.0.1", "100.64.0.1", "100.100.100.200", "168.63.129.16",
    "fd00:ec2::254", "fc00::1", "fec0::1", "224.0.0.1", "ff02::1", "255.255.255.255",
    "240.0.0.1", "192.0.0.1", "198.18.0.1", "192.0.2.1",
]
RESOLVED_TO = {
    **{f"a{index}.rebind.test": [answer] for index, answer in enumerate(INTERNAL_ANSWERS)},
    "roundrobin.rebind.test": [PUBLIC_V4, "192.168.0.1"],
    "roundrobin6.rebind.test": [PUBLIC_V6, "::1"],
    "example.com": [PUBLIC_V4],
    "v6.example.com": [PUBLIC_V6],
}
DENIED_NAMES = [name for name in RESOLVED_TO if name.endswith(".rebind.test")]
PUBLIC_URLS = [
    "https://example.com/",
    "https://v6.example.com/path?q=1",
    f"https://{PUBLIC_V4}/",
    f"https://[{PUBLIC_V6}]:8443/",
]


def _fetch_verdict(deck: Deck, url: str, attempts: list[str]) -> tuple[str, str | None]:
    before = len(attempts)
    result = deck.call_sync(ToolCall("fetch", {"url": url}))
    if len(attempts) > before:
        return "allow", None  # the guard let it through; the tripwire refused the connect
    assert result.error is not None and result.error.category is ErrorCategory.POLICY_BLOCKED
    rule = re.search(r"blocked by rule '([^']+)'", result.text)
    assert rule is not None, result.text
    return "deny", rule.group(1)


def _bash_decision(deck: Deck, command: str) -> tuple[Decision, Decision | None]:
    runtime = deck.runtime
    votes = runtime.hooks.check_call(ToolCall("bash", {"command": command}),
                                     runtime.tools["bash"], runtime)
    mine = [vote for vote in votes if vote.gate == "egress"]
    return combine_decisions(votes), (mine[0] if mine else None)


def _curl_verdict(deck: Deck, url: str) -> tuple[str, str | None]:
    combined, egress = _bash_decision(deck, f"curl -sS {shlex.quote(url)}")
    if egress is None:
        assert combined.verdict is not Verdict.DENY, combined
        return "allow", None
    assert egress.verdict is Verdict.DENY, egress
    assert combined.verdict is Verdict.DENY
    return "deny", egress.rule


def test_there_are_at_least_forty_address_forms() -> None:
    assert len(LITERAL_FORMS) + len(DENIED_NAMES) >= 40


@pytest.mark.parametrize("host", LITERAL_FORMS)
def test_literal_forms_are_denied_the_same_way_both_ways(
    egress_deck: MakeDeck, tripwire: list[str], host: str
) -> None:
    deck, _ = egress_deck(RESOLVED_TO)
    url = f"https://{host}/"
    by_fetch = _fetch_verdict(deck, url, tripwire)
    assert by_fetch[0] == "deny"
    assert _curl_verdict(deck, url) == by_fetch
    assert tripwire == []


@pytest.mark.parametrize("name", DENIED_NAMES)
def test_names_resolving_to_internal_addresses_are_denied_both_ways(
    egress_deck: MakeDeck, tripwire: list[str], name: str
) -> None:
    deck, stub = egress_deck(RESOLVED_TO)
    url = f"https://{name}/latest/meta-data/"
    by_fetch = _fetch_verdict(deck, url, tripwire)
    assert by_fetch[0] == "deny" and by_fetch[1] is not None
    assert _curl_verdict(deck, url) == by_fetch
    assert stub.asked.count(name) == 2  # once per way out, through the same stub
    assert tripwire == []


@pytest.mark.parametrize("url", PUBLIC_URLS)
def test_public_https_urls_pass_both_ways(
    egress_deck: MakeDeck, tripwire: list[str], url: str
) -> None:
    deck, _ = egress_deck(RESOLVED_TO)
    assert _curl_verdict(deck, url) == ("allow", None)
    assert _fetch_verdict(deck, url, tripwire) == ("allow", None)
    assert set(tripwire) <= {PUBLIC_V4, PUBLIC_V6}  # refused by the tripwire, never sent


def test_curl_permitted_still_cannot_reach_the_metadata_endpoint(egress_deck: MakeDeck) -> None:
    deck, _ = egress_deck(RESOLVED_TO)
    combined, egress = _bash_decision(deck, "curl http://169.254.169.254/")
    assert combined.verdict is Verdict.DENY and combined.gate == "egress"
    assert egress is not None and "curl http://169.254.169.254/" in egress.reason


def test_curl_to_a_public_host_is_not_refused_by_the_shell_gate(egress_deck: MakeDeck) -> None:
    deck, _ = egress_deck(RESOLVED_TO)
    combined, egress = _bash_decision(deck, "curl -sS https://example.com/")
    assert egress is None and combined.verdict is not Verdict.DENY


_SPELLINGS = {
    "decimal": lambda n: str(n),
    "hex": lambda n: f"0x{n:x}",
    "dotted": lambda n: str(ipaddress.IPv4Address(n)),
    "octal parts": lambda n: ".".join(f"0{b:o}" for b in ipaddress.IPv4Address(n).packed),
    "three parts": lambda n: f"{n >> 24}.{(n >> 16) & 255}.{n & 0xFFFF}",
    "mapped": lambda n: f"[::ffff:{ipaddress.IPv4Address(n)}]",
    "nat64": lambda n: f"[64:ff9b::{ipaddress.IPv4Address(n)}]",
    "6to4": lambda n: f"[2002:{n >> 16:x}:{n & 0xFFFF:x}::1]",
}


@settings(max_examples=300, deadline=None)
@given(number=st.one_of(st.integers(0, 2**32 - 1),
                        st.sampled_from([0xA9FEA9FE, 0x7F000001, 0x0A000001, 0x64400001])),
       spelling=st.sampled_from(sorted(_SPELLINGS)))
def test_any_spelling_of_any_address_gets_one_verdict(number: int, spelling: str) -> None:
    """The web plugin's check and the shell gate agree on every spelling of every address."""

    async def never(host: str, port: int) -> list[str]:
        raise AssertionError("an IP literal is never resolved")

    url = f"https://{_SPELLINGS[spelling](number)}/"
    web = check_url(url, ScrapeSettings())
    shell = EgressGate(EgressPolicy()).decide(f"curl -s {shlex.quote(url)}", never)
    if web.verdict == "deny":
        assert shell is not None and (shell.verdict, shell.rule) == (Verdict.DENY, web.rule)
    else:
        assert shell is None
