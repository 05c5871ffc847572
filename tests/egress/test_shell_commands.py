"""The egress gate on the other ways out of a shell: nc, ssh, scp, rsync, git, pip, /dev/tcp.

Every command is only judged (``check_call``); nothing runs. Names resolve through the stub.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.deck import Deck
from tooldeck.egress import EgressPolicy
from tooldeck.errors import ConfigError
from tooldeck.models import ToolCall, Verdict
from tooldeck.plugins.egress.destinations import HostPort, Unknown, Url, destinations
from tooldeck.plugins.egress.gate import EgressGate
from tooldeck.shell_analysis import analyze

from .conftest import PUBLIC_V4, StubResolver

MakeDeck = Callable[..., tuple[Deck, StubResolver]]
TABLE = {"example.com": [PUBLIC_V4], "git.example.com": [PUBLIC_V4],
         "imds.rebind.test": ["169.254.169.254"], "jump.rebind.test": ["10.1.2.3"]}


def egress_vote(deck: Deck, command: str) -> tuple[Verdict, str | None] | None:
    runtime = deck.runtime
    votes = runtime.hooks.check_call(ToolCall("bash", {"command": command}),
                                     runtime.tools["bash"], runtime)
    mine = [vote for vote in votes if vote.gate == "egress"]
    return (mine[0].verdict, mine[0].rule) if mine else None


DENIED = [
    ("nc 169.254.169.254 80", "cloud-metadata"),
    ("nc -w 3 127.1 22", "loopback"),
    ("ncat 0x7f.1 443", "loopback"),
    ("netcat imds.rebind.test 80", "cloud-metadata"),
    ("telnet 10.0.0.1", "private"),
    ("socat - TCP:169.254.169.254:80", "cloud-metadata"),
    ("ssh root@10.0.0.1", "private"),
    ("ssh -p 2222 user@[::1]", "loopback"),
    ("ssh -J jump.rebind.test user@example.com", "private"),
    ("ssh -o ProxyJump=127.0.0.1 example.com", "loopback"),
    ("ssh ssh://user@169.254.169.254:22", "cloud-metadata"),
    ("scp secrets.txt user@192.168.1.5:/tmp/", "private"),
    ("sftp -P 2200 me@localhost", "private-hostname"),
    ("rsync -a ./ backup@10.9.8.7:/srv/", "private"),
    ("rsync -a ./ rsync://127.0.0.1/mod/", "loopback"),
    ("git clone https://169.254.169.254/repo.git", "cloud-metadata"),
    ("git clone git@10.0.0.5:team/repo.git", "private"),
    ("git clone 'git@[::1]:team/repo.git'", "loopback"),
    ("ssh -p2222 [fe80::1%eth0]", "zone-id"),
    ("curl -sSLo out.txt https://127.0.0.1/", "loopback"),
    ("git fetch ssh://git@[::ffff:127.0.0.1]/x.git", "embedded-ipv4"),
    ("git ls-remote git://metadata.google.internal/x", "private-hostname"),
    ("git push https://imds.rebind.test/r.git main", "cloud-metadata"),
    ("git submodule add https://2130706433/x.git", "loopback"),
    ("pip install https://10.0.0.1/pkg.whl", "private"),
    ("pip install git+https://127.0.0.1/x.git", "loopback"),
    ("pip install -i https://169.254.169.254/simple foo", "cloud-metadata"),
    ("uv pip install --index-url=https://[::1]/simple foo", "loopback"),
    ("python3 -m pip install https://localhost/x.whl", "private-hostname"),
    ("npm install --registry https://10.0.0.2/ left-pad", "private"),
    ("python -m http.client https://169.254.169.254/", "cloud-metadata"),
    ("wget -qO- https://0251.0376.0251.0376/latest", "cloud-metadata"),
    ("curl --resolve example.com:443:169.254.169.254 https://example.com/", "cloud-metadata"),
    ("curl -x http://127.0.0.1:3128 https://example.com/", "scheme"),
    ("curl --resolve example.com:443:10.0.0.1,93.184.215.14 https://example.com/", "private"),
    ("curl --resolve 'example.com:443:[::1]' https://example.com/", "loopback"),
    ("curl --connect-to ::169.254.169.254: https://example.com/", "cloud-metadata"),
    ("curl --connect-to 'example.com:443:[::1]:8443' https://example.com/", "loopback"),
    ("pip install 'pkg @ https://10.0.0.1/x.whl'", "private"),
    ("npm install git+ssh://git@10.0.0.1/x.git", "private"),
    ("curl 169.254.169.254", "scheme"),
    ("http GET https://10.0.0.1/api", "private"),
    ("echo x > /dev/tcp/169.254.169.254/80", "cloud-metadata"),
    ("cat < /dev/udp/127.0.0.1/53", "loopback"),
    ("env A=1 nohup curl -s https://[::ffff:a9fe:a9fe]/", "embedded-ipv4"),
    ("bash -c 'curl https://2852039166/'", "cloud-metadata"),
    ("echo $(curl -s https://0xa9fea9fe/)", "cloud-metadata"),
    ("curl https://example.com/ && curl https://10.0.0.1/", "private"),
    # a proxy variable sends every request of the command to the proxy (Sigma "Connection
    # Proxy"); these reached the internal address unjudged
    ("https_proxy=http://169.254.169.254:80 curl https://example.com/", "cloud-metadata"),
    ("HTTPS_PROXY=http://127.0.0.1:8080 pip install requests", "loopback"),
    ("ALL_PROXY=socks5://10.0.0.1:1080 git clone https://example.com/r.git", "private"),
    ("env http_proxy=10.0.0.1:3128 wget https://example.com/", "private"),
    ("export https_proxy=http://imds.rebind.test:80; curl https://example.com/", "cloud-metadata"),
    ("A=1 npm_config_proxy='http://[::1]:8080' npm install", "loopback"),
    ("ftp -n 10.0.0.5", "private"),  # -n takes no value: the host after it is the destination
]


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_network_commands_to_internal_destinations_are_denied(
    egress_deck: MakeDeck, tripwire: list[str], command: str, rule: str
) -> None:
    deck, _ = egress_deck(TABLE)
    assert egress_vote(deck, command) == (Verdict.DENY, rule)
    assert tripwire == []


@pytest.mark.parametrize("command", [
    "nc example.com 443",
    "ssh -p 22 git@git.example.com",
    "git clone git@git.example.com:team/repo.git",
    "git clone https://git.example.com/team/repo.git",
    "pip install https://example.com/pkg.whl",
    "curl -sS -o out.html https://example.com/",
    "curl -sSLo out.html https://example.com/",
    "curl --resolve example.com:443:93.184.215.14 https://example.com/",
    "curl -ofile -H 'Accept: text/html' https://example.com/",
    "git push origin HEAD:refs/for/main",
    "wget -O page.html https://example.com/",
    "rsync -a src/ dst/",
    "scp a.txt b.txt",
    "nc -l 8080",
    "git push origin main",
    "echo https://10.0.0.1/",
    "ls -la",
    "https_proxy=http://example.com:3128 curl https://example.com/",  # http to the proxy
    "no_proxy='*' curl https://example.com/",
    "echo https_proxy=http://10.0.0.1",
])
def test_public_or_local_commands_get_no_egress_vote(
    egress_deck: MakeDeck, command: str
) -> None:
    deck, _ = egress_deck(TABLE)
    assert egress_vote(deck, command) is None


@pytest.mark.parametrize("command", [
    'curl "$URL"',
    "curl https://$HOST/",
    "ssh $TARGET",
    "nc $H 80",
    "git clone $(cat remote.txt)",
    "curl https://unknown.example.org/",  # the resolver cannot answer
    "curl https://[::ffff:93.184.215.14]/",  # unquoted: a glob the shell may expand
    'https_proxy="$PROXY" curl https://example.com/',
])
def test_destinations_not_known_statically_ask(egress_deck: MakeDeck, command: str) -> None:
    deck, _ = egress_deck(TABLE)
    assert egress_vote(deck, command) == (Verdict.ASK, "egress-unverified")


def test_a_slow_resolver_asks_within_the_timeout() -> None:
    import asyncio
    import time

    async def slow(host: str, port: int) -> list[str]:
        await asyncio.sleep(5)
        return [PUBLIC_V4]

    gate = EgressGate(EgressPolicy(), timeout=0.2)
    started = time.monotonic()
    decision = gate.decide("curl https://example.com/", slow)
    assert decision is not None and decision.verdict is Verdict.ASK
    assert time.monotonic() - started < 2


def test_the_policy_settings_apply_to_the_shell(egress_deck: MakeDeck) -> None:
    deck, _ = egress_deck(TABLE, '[tools.scrape]\ndenied_domains = ["*.example.com"]\n'
                                 'allow_internal = ["10.0.0.0/8"]\nhttps_only = false\n')
    assert egress_vote(deck, "git clone https://git.example.com/r.git") == (
        Verdict.DENY, "denylist")
    assert egress_vote(deck, "ssh 10.1.1.1") is None
    assert egress_vote(deck, "curl http://example.com/") is None
    assert egress_vote(deck, "curl http://169.254.169.254/") == (Verdict.DENY, "cloud-metadata")


def test_the_policy_applies_with_the_web_plugin_disabled(egress_deck: MakeDeck) -> None:
    deck, _ = egress_deck(TABLE, '[plugins]\ndisable = ["web"]\n'
                                 '[tools.scrape]\ndenied_domains = ["example.com"]\n')
    assert "fetch" not in deck.runtime.tools
    assert egress_vote(deck, "curl https://example.com/") == (Verdict.DENY, "denylist")
    assert egress_vote(deck, "curl https://169.254.169.254/") == (Verdict.DENY, "cloud-metadata")


_HOSTS = st.sampled_from(["169.254.169.254", "2852039166", "0xa9fea9fe", "[::ffff:a9fe:a9fe]",
                          "127.1", "[::1]", "10.0.0.1", "localhost"])
_WRAPPERS = st.sampled_from(["", "env ", "nohup ", "timeout 5 ", "sudo ", "command "])
_QUOTES = st.sampled_from(["{}", "'{}'", '"{}"'])


@settings(max_examples=60, deadline=None)
@given(host=_HOSTS, wrapper=_WRAPPERS, quote=_QUOTES)
def test_internal_urls_are_denied_however_the_command_is_wrapped_or_quoted(
    host: str, wrapper: str, quote: str
) -> None:
    async def never(host: str, port: int) -> list[str]:
        raise AssertionError("a literal host is never resolved")

    url = quote.format(f"https://{host}/x")
    decision = EgressGate(EgressPolicy()).decide(f"{wrapper}curl -s {url}", never)
    assert decision is not None and decision.verdict is Verdict.DENY


def test_destinations_are_read_from_the_analysis() -> None:
    found = destinations(analyze("curl -o f https://a.example/ ; nc b.example 25; ssh $X"))
    assert found == (Url("https://a.example/", "curl"), HostPort("b.example", 25, "nc"),
                     Unknown("$X", "ssh"))


@pytest.mark.parametrize("command", [
    "/etc/init.d/ssh status",
    "/etc/init.d/ssh restart",
    "sh /etc/init.d/ssh status",
    "/etc/rc.d/init.d/sshd status",
    "/usr/local/etc/rc.d/sshd status",
])
def test_an_init_script_named_after_a_client_connects_nowhere(command: str) -> None:
    # main read 'status' as the host of an ssh client and denied it as a single-label host
    assert destinations(analyze(command)) == ()


def test_the_client_after_an_init_script_is_still_read() -> None:
    found = destinations(analyze("/etc/init.d/ssh status; ssh 10.0.0.5"))
    assert found == (HostPort("10.0.0.5", 22, "ssh"),)


def test_a_bad_egress_key_is_a_configuration_error_even_without_the_web_plugin(
    egress_deck: MakeDeck,
) -> None:
    with pytest.raises(ConfigError, match=r"tools\.scrape.*denied_domains"):
        egress_deck(TABLE, '[plugins]\ndisable = ["web"]\n'
                           '[tools.scrape]\ndenied_domains = ["bad pattern!"]\n')
