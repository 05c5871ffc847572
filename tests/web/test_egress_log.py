"""The egress log (``[tools.egress]``, Zeph §4.4) against the loopback HTTPS site.

Each request of ``fetch``/``web_scrape`` is one record, redirect hops included; a hop the
policy refuses is a blocked record; a shell command that names destinations gets a record
per destination when it runs (here a real ``curl`` against the same site), or a blocked one
when the egress gate refuses it. URLs lose their userinfo and secret-looking parameters.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import trustme

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.egress.log import block_reason, redact_url
from tooldeck.models import ToolCall

Site = Any
MakeDeck = Callable[..., Deck]

RULES = """
[[tools.permissions.fetch]]
pattern = "*"
action = "allow"

[[tools.permissions.web_scrape]]
pattern = "*"
action = "allow"
"""


@pytest.fixture
async def make_deck(tmp_path: Path, ca: trustme.CA) -> AsyncIterator[MakeDeck]:
    pem = tmp_path / "test-ca.pem"
    ca.cert_pem.write_to_path(str(pem))
    decks: list[Deck] = []

    def make(egress: str = "", extra: str = "") -> Deck:
        text = (f"[tools.audit]\npath = {json.dumps(str(tmp_path / 'audit.jsonl'))}\n"
                f"[tools.egress]\npath = {json.dumps(str(tmp_path / 'egress.jsonl'))}\n{egress}\n"
                f'[tools.scrape]\nallow_internal = ["127.0.0.2"]\n'
                f"ca_bundle = {json.dumps(str(pem))}\n{extra}\n{RULES}")
        deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()


def events(tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "egress.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


async def test_one_record_per_redirect_hop_with_secrets_dropped(
        make_deck: MakeDeck, site: Site, tmp_path: Path) -> None:
    call = ToolCall("fetch", {"url": site.url("/chain?n=2&api_key=hunter2secret&page=7")},
                    caller_id="alice")
    result = await make_deck().call(call)
    assert result.ok, result.text
    records = events(tmp_path)
    assert [(r["status"], r.get("hop", 0), r["response_bytes"]) for r in records] == [
        (302, 0, 0), (302, 1, 0), (200, 2, len(b"end of chain"))]
    for record in records:
        assert record["kind"] == "egress" and record["tool"] == "fetch"
        assert record["correlation_id"] == call.call_id
        assert record["host"] == "127.0.0.2" and record["method"] == "GET"
        assert record["caller_id"] == "alice"
        assert "blocked" not in record and record["duration_ms"] >= 0
    assert "hop" not in records[0], "hop 0 is left out, as Zeph leaves it out"
    assert records[0]["url"] == site.url("/chain?n=2&page=7")
    assert "hunter2secret" not in (tmp_path / "egress.jsonl").read_text()
    assert records[1]["url"] == site.url("/chain?n=1")


async def test_a_redirect_to_a_refused_host_is_a_blocked_hop(
        make_deck: MakeDeck, site: Site, recorder: Site, tmp_path: Path) -> None:
    target = "https://169.254.169.254/latest/meta-data/?X-Amz-Signature=abc"
    result = await make_deck().call(ToolCall("fetch", {"url": site.url(f"/redirect?to={target}")}))
    assert result.error is not None
    first, refused = events(tmp_path)
    assert first["status"] == 302 and "blocked" not in first
    assert refused["blocked"] is True and refused["block_reason"] == "ssrf"
    assert refused["rule"] == "cloud-metadata" and refused["hop"] == 1
    assert refused["url"] == "https://169.254.169.254/latest/meta-data/"
    assert "status" not in refused and "response_bytes" not in refused
    assert recorder.hits == []


async def test_userinfo_is_dropped_from_a_refused_url(make_deck: MakeDeck, site: Site,
                                                      tmp_path: Path) -> None:
    url = site.url("/page").replace("https://", "https://bob:pa55word@")
    result = await make_deck().call(ToolCall("web_scrape", {"url": url, "select": "h1"}))
    assert result.error is not None
    (record,) = events(tmp_path)
    assert record["tool"] == "web_scrape" and record["rule"] == "userinfo"
    assert record["url"] == site.url("/page") and "pa55word" not in json.dumps(record)


async def test_an_http_error_status_is_recorded(make_deck: MakeDeck, site: Site,
                                                tmp_path: Path) -> None:
    await make_deck().call(ToolCall("fetch", {"url": site.url("/status?code=404")}))
    (record,) = events(tmp_path)
    assert record["status"] == 404 and "blocked" not in record


async def test_scheme_refusals_and_log_blocked(make_deck: MakeDeck, site: Site,
                                               tmp_path: Path) -> None:
    url = site.url("/page").replace("https://", "http://")
    await make_deck().call(ToolCall("fetch", {"url": url}), confirm=True)
    (record,) = events(tmp_path)
    assert record["block_reason"] == "scheme"
    await make_deck("log_blocked = false").call(ToolCall("fetch", {"url": url}), confirm=True)
    assert len(events(tmp_path)) == 1


async def test_disabled_writes_nothing(make_deck: MakeDeck, site: Site, tmp_path: Path) -> None:
    result = await make_deck("enabled = false").call(ToolCall("fetch", {"url": site.url("/page")}))
    assert result.ok
    assert events(tmp_path) == []


SHELL = '[tools.shell]\nallowed_commands = ["curl"]\nallowed_paths = ["/"]\n' \
        'confirm_patterns = []\n'


async def test_a_shell_command_that_ran_gets_a_record_per_destination(
        make_deck: MakeDeck, site: Site, tmp_path: Path) -> None:
    deck = make_deck(extra=SHELL)
    ca = tmp_path / "trust.txt"  # a *.pem argument would trip the risk chain's cred rule
    ca.write_bytes((tmp_path / "test-ca.pem").read_bytes())
    url = site.url("/page?token=abc123def&q=1")
    hits = len(site.hits)
    call = ToolCall("bash", {"command": f"curl -s --cacert {ca} '{url}'"})
    result = await deck.call(call)
    assert result.ok, result.text
    assert len(site.hits) == hits + 1, "curl really fetched the page"
    (record,) = events(tmp_path)
    assert record["tool"] == "bash" and record["method"] == "curl"
    assert record["correlation_id"] == call.call_id
    assert record["url"] == site.url("/page?q=1") and record["host"] == "127.0.0.2"
    assert "status" not in record and "blocked" not in record


async def test_a_shell_command_the_gate_refused_is_a_blocked_record(
        make_deck: MakeDeck, tmp_path: Path) -> None:
    deck = make_deck(extra=SHELL)
    result = await deck.call(ToolCall("bash", {"command": "curl -s https://169.254.169.254/"}))
    assert result.error is not None
    (record,) = events(tmp_path)
    assert record["blocked"] is True and record["rule"] == "cloud-metadata"
    assert record["block_reason"] == "ssrf" and record["method"] == "curl"


@pytest.mark.parametrize(("url", "shown"), [
    ("https://u:p@example.com/a?token=1&b=2#frag", "https://example.com/a?b=2"),
    ("https://example.com/?AUTHORIZATION=x&Sig=y&apikey=z&ok=1", "https://example.com/?ok=1"),
    ("https://[2001:db8::1]:8443/x?secret_thing=1", "https://[2001:db8::1]:8443/x"),
    ("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
     "[REDACTED:slack-webhook]"),
])
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown


@pytest.mark.parametrize(("rule", "reason"), [
    ("allowlist", "allowlist"), ("bare-ip-with-allowlist", "allowlist"),
    ("denylist", "blocklist"), ("scheme", "scheme"), ("loopback", "ssrf"),
    ("private-hostname", "ssrf"),
])
def test_block_reasons_follow_zeph(rule: str, reason: str) -> None:
    assert block_reason(rule) == reason
