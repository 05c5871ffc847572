"""The built-in plugin ``web`` through a real deck: catalog, calls, errors, audit, lifecycle.

Decks are built from TOML with the installed plugins (entry points), exactly as an operator's
would be. The local HTTPS site on 127.0.0.2 is reached by IP literal, admitted through
``allow_internal``; its certificate (which names 127.0.0.2) is trusted through ``ca_bundle``
set to the test CA's PEM file, so no test-only hook is needed.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pydantic
import pytest
import trustme

from tooldeck import hookimpl
from tooldeck.catalog import render
from tooldeck.config import parse_document, read_document
from tooldeck.deck import Deck, ToolResult
from tooldeck.errors import ConfigError, ErrorCategory
from tooldeck.models import ToolCall, ToolDef, Verdict
from tooldeck.plugins.web.executor import WebExecutor
from tooldeck.plugins.web.tools import parse_scrape_block

Site = Any  # conftest.Site: conftest modules are not importable under --import-mode=importlib
MakeDeck = Callable[..., Deck]

RULES = """
[[tools.permissions.fetch]]
pattern = "https://*"
action = "allow"

[[tools.permissions.web_scrape]]
pattern = "https://*"
action = "allow"
"""


@pytest.fixture
def ca_pem(ca: trustme.CA, tmp_path: Path) -> Path:
    path = tmp_path / "test-ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return path


def config_text(tmp_path: Path, ca_pem: Path | None, scrape: str = "", rules: str = RULES) -> str:
    bundle = f"ca_bundle = {json.dumps(str(ca_pem))}\n" if ca_pem else ""
    return (
        f"[tools.audit]\npath = {json.dumps(str(tmp_path / 'audit.jsonl'))}\n\n"
        f'[tools.scrape]\nallow_internal = ["127.0.0.2"]\n{bundle}{scrape}\n{rules}'
    )


@pytest.fixture
async def make_deck(tmp_path: Path, ca_pem: Path) -> AsyncIterator[MakeDeck]:
    decks: list[Deck] = []

    def make(scrape: str = "", rules: str = RULES, trust: bool = True) -> Deck:
        text = config_text(tmp_path, ca_pem if trust else None, scrape, rules)
        deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()


def audit_records(tmp_path: Path) -> list[dict[str, Any]]:
    lines = (tmp_path / "audit.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


async def call(deck: Deck, tool: str, confirm: bool | None = None, **params: Any) -> ToolResult:
    return await deck.call(ToolCall(tool, params), confirm=confirm)


# --- catalog ------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["fetch", "web_scrape"])
async def test_readonly_autonomy_has_no_network(make_deck: MakeDeck, site: Site, tool: str) -> None:
    params = {"url": site.url("/page")} | ({"select": "h1"} if tool == "web_scrape" else {})
    hits = len(site.hits)
    readonly = make_deck(scrape='[agent]\nautonomy = "readonly"\n')
    assert tool not in {t.id for t in readonly.tools()}
    refused = await readonly.call(ToolCall(tool, params), confirm=True)
    assert refused.error is not None
    assert refused.error.category is ErrorCategory.POLICY_BLOCKED
    assert "uses the network" in refused.error.message and len(site.hits) == hits

    opted_in = make_deck(scrape='[agent]\nautonomy = "readonly"\nreadonly_network = true\n')
    assert tool in {t.id for t in opted_in.tools()}
    assert (await opted_in.call(ToolCall(tool, params))).ok
    assert site.hits[hits:] == ["/page"]


def test_both_tools_are_in_the_catalog_with_their_schemas(make_deck: MakeDeck) -> None:
    tools = {tool.id: tool for tool in make_deck().tools()}
    for tool_id in ("fetch", "web_scrape"):
        tool = tools[tool_id]
        assert tool.executor == "web"
        assert tool.capabilities == {"read", "network"}
        assert tool.network_read and not tool.read_only and tool.input_param == "url"
        assert "explicitly provided" in tool.description
        assert "never construct or guess URLs" in tool.description
    assert (tools["web_scrape"].fenced_tag, tools["fetch"].fenced_tag) == ("scrape", None)

    rendered = json.loads(render([tools["fetch"], tools["web_scrape"]], "openai"))
    schemas = {entry["function"]["name"]: entry["function"]["parameters"] for entry in rendered}
    url = {"type": "string", "description": "The https URL the user gave, exactly as given."}
    assert schemas["fetch"] == {
        "type": "object", "properties": {"url": url}, "required": ["url"],
        "additionalProperties": False,
    }
    scrape = schemas["web_scrape"]
    assert scrape["required"] == ["url", "select"]
    assert scrape["additionalProperties"] is False
    assert scrape["properties"]["url"] == url
    assert scrape["properties"]["select"]["type"] == "string"
    assert scrape["properties"]["extract"]["default"] == "text"
    assert scrape["properties"]["extract"]["pattern"] == r"^(?:text|html|attr:\S+)$"
    assert scrape["properties"]["limit"] == {
        "type": "integer", "default": 10, "minimum": 1, "maximum": 1000,
        "description": "How many matching elements to take, at most.",
    }


def test_prompt_catalog_tells_the_fenced_invocation(make_deck: MakeDeck) -> None:
    deck = make_deck()
    prompt = render([t for t in deck.tools() if t.id in ("fetch", "web_scrape")], "prompt")
    assert "## web_scrape\n" in prompt and "Invocation: use ```scrape fenced block" in prompt
    assert 'Invocation: use tool_call with {"tool_id": "fetch"' in prompt
    assert "  - limit: How many matching elements to take, at most. (integer, optional)" in prompt


def test_disabling_the_plugin_removes_its_tools(tmp_path: Path, ca_pem: Path) -> None:
    text = '[plugins]\ndisable = ["web"]\n' + config_text(tmp_path, ca_pem)
    deck = Deck.from_config(parse_document(text, None, "test"))
    assert not {"fetch", "web_scrape"} & {tool.id for tool in deck.tools()}
    assert "web" not in deck.runtime.executors


# --- successful calls -----------------------------------------------------------------------


async def test_fetch_returns_the_page_as_text(make_deck: MakeDeck, site: Site,
                                              tmp_path: Path) -> None:
    url = site.url("/page")
    result = await call(make_deck(), "fetch", url=url)
    assert result.ok, result.text
    assert result.output is not None and result.output.tool_name == "fetch"
    assert "# Caf\u00e9 menu" in result.text and "Hello **bold** world" in result.text
    assert result.output.raw_response == {
        "url": url, "status": 200, "content_type": "text/html; charset=utf-8",
        "redirects": 0, "truncated": False,
    }
    assert result.output.truncated is False
    record = audit_records(tmp_path)[-1]
    assert (record["tool"], record["command"], record["result"]) == ("fetch", url,
                                                                       {"type": "success"})
    assert record["decision"]["pattern"] == "https://*"


async def test_web_scrape_returns_the_selected_values(make_deck: MakeDeck, site: Site) -> None:
    url = site.url("/page")
    result = await call(make_deck(), "web_scrape", url=url, select="li.item a",
                        extract="attr:href")
    assert result.ok, result.text
    assert result.output is not None and result.output.tool_name == "web_scrape"
    assert result.text == "/a\n/c"
    assert result.output.raw_response is not None
    assert result.output.raw_response["url"] == url
    assert result.output.raw_response["status"] == 200


async def test_redirects_are_reported(make_deck: MakeDeck, site: Site) -> None:
    result = await call(make_deck(), "fetch", url=site.url("/chain?n=2"))
    assert result.ok, result.text
    assert result.text == "end of chain"
    assert result.output is not None and result.output.raw_response is not None
    assert result.output.raw_response["redirects"] == 2
    assert result.output.raw_response["url"] == site.url("/chain?n=0")


async def test_fenced_scrape_block_runs_as_a_call(make_deck: MakeDeck, site: Site) -> None:
    body = f'\n{{"url": "{site.url("/page")}", "select": "#intro", "extract": "html"}}\n'
    result = await call(make_deck(), "web_scrape", **parse_scrape_block(body))
    assert result.text == "Hello <b>bold</b> world"


async def test_oversized_page_is_truncated_and_flagged(make_deck: MakeDeck, site: Site,
                                                       tmp_path: Path) -> None:
    result = await call(make_deck("max_body_bytes = 1000"), "fetch", url=site.url("/bytes?n=5000"))
    assert result.ok and result.text == "x" * 1000
    assert result.output is not None and result.output.truncated is True
    assert result.output.raw_response is not None and result.output.raw_response["truncated"]
    assert audit_records(tmp_path)[-1]["truncated"] is True


async def test_one_client_serves_calls_on_successive_event_loops(make_deck: MakeDeck,
                                                                 site: Site) -> None:
    deck = make_deck()
    first = await call(deck, "fetch", url=site.url("/plain"))
    assert first.text == "plain \u2713 text\n"
    # call_sync runs each call in a fresh event loop of its own (in a worker thread here,
    # since this test already runs in one); keep-alive is off, so no connection outlives it.
    again = await asyncio.to_thread(deck.call_sync, ToolCall("fetch", {"url": site.url("/json")}))
    assert again.ok and '"name": "tooldeck"' in again.text


# --- errors pass through the deck unchanged ------------------------------------------------


@pytest.mark.parametrize(
    ("url", "rule"),
    [
        ("https://169.254.169.254/latest/meta-data/", "cloud-metadata"),
        ("https://10.0.0.1/", "private"),
        ("https://[::ffff:127.0.0.1]/", "embedded-ipv4"),
        ("https://localhost/", "private-hostname"),
        ("https://good.example@127.0.0.2/", "userinfo"),
    ],
)
async def test_guard_refusal_is_policy_blocked_and_audited(
    make_deck: MakeDeck, tmp_path: Path, url: str, rule: str
) -> None:
    result = await call(make_deck(), "fetch", url=url)
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
    assert result.text.startswith(
        f"[tool_error]\ncategory: policy_blocked\nerror: blocked by rule '{rule}': "
    )
    assert result.decision is not None and result.decision.verdict is Verdict.ALLOW
    record = audit_records(tmp_path)[-1]
    assert record["tool"] == "fetch" and record["command"] == url
    assert record["result"]["type"] == "blocked"
    assert f"rule '{rule}'" in record["result"]["reason"]
    assert record["error_category"] == "policy_blocked"


async def test_web_scrape_is_guarded_too(make_deck: MakeDeck, tmp_path: Path) -> None:
    result = await call(make_deck(), "web_scrape", url="https://169.254.169.254/", select="p")
    assert result.error is not None and result.error.category is ErrorCategory.POLICY_BLOCKED
    assert audit_records(tmp_path)[-1]["result"]["type"] == "blocked"


async def test_plain_http_asks_under_the_default_rules(make_deck: MakeDeck, site: Site) -> None:
    url = f"http://127.0.0.2:{site.port}/page"
    result = await call(make_deck(), "fetch", url=url)
    assert result.error is not None
    assert result.error.category is ErrorCategory.CONFIRMATION_REQUIRED


async def test_plain_http_is_refused_by_the_guard_even_when_approved(
    make_deck: MakeDeck, site: Site, tmp_path: Path
) -> None:
    hits = len(site.hits)
    url = f"http://127.0.0.2:{site.port}/page"
    result = await call(make_deck(), "fetch", confirm=True, url=url)
    assert result.error is not None and result.error.category is ErrorCategory.POLICY_BLOCKED
    assert "blocked by rule 'scheme': scheme not allowed: http" in result.text
    assert result.approved_by == "pre-approved"
    assert len(site.hits) == hits
    assert audit_records(tmp_path)[-1]["result"]["type"] == "blocked"


async def test_slow_server_times_out_and_is_audited_as_timeout(
    make_deck: MakeDeck, site: Site, tmp_path: Path
) -> None:
    started = time.monotonic()
    result = await call(make_deck("timeout = 0.4"), "fetch", url=site.url("/slow?s=6"))
    assert time.monotonic() - started < 4.0  # the server answers after 6 s
    assert result.error is not None and result.error.category is ErrorCategory.TIMEOUT
    assert result.error.retryable
    record = audit_records(tmp_path)[-1]
    assert record["result"]["type"] == "timeout"
    assert record["error_category"] == "timeout"


@pytest.mark.parametrize(
    ("target", "rule"),
    [("https://169.254.169.254/latest/meta-data/", "cloud-metadata"),
     ("https://127.0.0.1:{port}/page", "loopback")],
)
async def test_redirect_to_a_blocked_host_is_refused_at_that_hop(
    make_deck: MakeDeck, site: Site, recorder: Site, tmp_path: Path, target: str, rule: str
) -> None:
    target = target.format(port=recorder.port)
    result = await call(make_deck(), "fetch", url=site.url(f"/redirect?to={target}"))
    assert result.error is not None and result.error.category is ErrorCategory.POLICY_BLOCKED
    assert f"blocked by rule '{rule}': redirect 1 to {target}" in result.text
    assert recorder.hits == []
    assert audit_records(tmp_path)[-1]["result"]["type"] == "blocked"


@pytest.mark.parametrize(("code", "category"), [(404, ErrorCategory.PERMANENT_FAILURE),
                                                (503, ErrorCategory.SERVER_ERROR)])
async def test_http_errors_keep_their_category(make_deck: MakeDeck, site: Site, code: int,
                                               category: ErrorCategory) -> None:
    result = await call(make_deck(), "fetch", url=site.url(f"/status?code={code}"))
    assert result.error is not None and result.error.category is category
    assert f"HTTP {code}" in result.error.message


async def test_without_ca_bundle_the_private_ca_is_not_trusted(make_deck: MakeDeck,
                                                               site: Site) -> None:
    result = await call(make_deck(trust=False), "fetch", url=site.url("/plain"))
    assert result.error is not None
    assert result.error.category is ErrorCategory.PERMANENT_FAILURE
    assert "certificate verification failed" in result.error.message


@pytest.mark.parametrize(
    ("params", "where"),
    [
        ({"select": "p", "extract": "css"}, "extract"),
        ({"select": "p", "extract": "attr:"}, "extract"),
        ({"select": "p", "limit": 0}, "limit"),
        ({"select": ""}, "select"),
        ({"select": "p", "selector": "p"}, "selector"),
        ({}, "select"),
    ],
)
async def test_scrape_parameters_are_validated_before_anything_runs(
    make_deck: MakeDeck, site: Site, params: dict[str, Any], where: str
) -> None:
    hits = len(site.hits)
    result = await call(make_deck(), "web_scrape", url=site.url("/page"), **params)
    assert result.error is not None
    assert result.error.category is ErrorCategory.INVALID_PARAMETERS
    assert f"invalid parameters for web_scrape: {where}" in result.error.message
    assert len(site.hits) == hits


async def test_invalid_selector_is_invalid_parameters(make_deck: MakeDeck, site: Site) -> None:
    result = await call(make_deck(), "web_scrape", url=site.url("/page"), select="li[")
    assert result.error is not None
    assert result.error.category is ErrorCategory.INVALID_PARAMETERS
    assert "invalid selector" in result.error.message


class QueryParams(pydantic.BaseModel):
    query: str


class Borrower:
    """A throwaway plugin whose tool names the ``web`` executor without being a web tool."""

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
        register(ToolDef(id="search", description="Search.", params=QueryParams, executor="web"))


async def test_a_foreign_tool_on_the_web_executor_fails_cleanly(tmp_path: Path,
                                                                ca_pem: Path) -> None:
    deck = Deck.from_config(parse_document(config_text(tmp_path, ca_pem), None, "test"),
                            extra_plugins={"borrower": Borrower()})
    try:
        result = await call(deck, "search", confirm=True, query="x")
    finally:
        await deck.aclose()
    assert result.error is not None
    assert result.error.category is ErrorCategory.PERMANENT_FAILURE
    assert result.error.message == "the web executor cannot run 'search'"


# --- settings and lifecycle -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('"relative/ca.pem"', "ca_bundle must be an absolute path"),
        ('"/nonexistent/ca.pem"', "cannot load CA certificates from /nonexistent/ca.pem"),
    ],
)
def test_bad_ca_bundle_is_a_config_error(tmp_path: Path, value: str, message: str) -> None:
    text = config_text(tmp_path, None, f"ca_bundle = {value}")
    with pytest.raises(ConfigError, match=message) as caught:
        Deck.from_config(parse_document(text, None, "test"))
    assert caught.value.key == "tools.scrape.ca_bundle"


def test_a_pem_without_certificates_is_a_config_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    text = config_text(tmp_path, None, f"ca_bundle = {json.dumps(str(junk))}")
    with pytest.raises(ConfigError, match=r"tools\.scrape\.ca_bundle: .*cannot load CA"):
        Deck.from_config(parse_document(text, None, "test"))


def test_unknown_scrape_key_is_a_config_error(tmp_path: Path) -> None:
    text = config_text(tmp_path, None, "max_body = 5")
    with pytest.raises(ConfigError, match=r"tools\.scrape\.max_body: unknown key"):
        Deck.from_config(parse_document(text, None, "test"))


async def test_environment_overrides_reach_the_executor(
    tmp_path: Path, ca_pem: Path, site: Site
) -> None:
    text = config_text(tmp_path, ca_pem)
    deck = Deck.from_config(parse_document(text, None, "test"),
                            environ={"TOOLDECK_TOOLS_SCRAPE_MAX_BODY_BYTES": "10"})
    try:
        result = await call(deck, "fetch", url=site.url("/bytes?n=50"))
    finally:
        await deck.aclose()
    assert result.text == "x" * 10


async def test_reload_retires_the_old_client(tmp_path: Path, ca_pem: Path, site: Site) -> None:
    path = tmp_path / "tooldeck.toml"
    path.write_text(config_text(tmp_path, ca_pem))
    deck = Deck.from_config(read_document(path, "test"))
    try:
        old = deck.runtime.executors["web"]
        assert isinstance(old, WebExecutor)
        assert (await call(deck, "fetch", url=site.url("/plain"))).ok
        path.write_text(config_text(tmp_path, ca_pem, "max_body_bytes = 5"))
        assert await deck.reload()
        assert deck.runtime.executors["web"] is not old
        assert old._client is None  # closed by the runtime that retired it
        assert (await call(deck, "fetch", url=site.url("/plain"))).text == "plain"
    finally:
        await deck.aclose()


async def test_closing_an_unused_executor_is_a_no_op(make_deck: MakeDeck) -> None:
    executor = make_deck().runtime.executors["web"]
    assert isinstance(executor, WebExecutor)
    await executor.aclose()
    await executor.aclose()
