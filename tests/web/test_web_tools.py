"""The web tools' definitions, parameter models, the fenced ``scrape`` block and ``ca_bundle``."""

from __future__ import annotations

from pathlib import Path

import pydantic
import pytest
import trustme

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.plugins.web.settings import ScrapeSettings
from tooldeck.plugins.web.tools import (
    FETCH,
    TOOLS,
    WEB_SCRAPE,
    FetchParams,
    ScrapeParams,
    parse_scrape_block,
)


def test_definitions() -> None:
    assert [tool.id for tool in TOOLS] == ["web_scrape", "fetch"]
    assert (WEB_SCRAPE.invocation, FETCH.invocation) == ("fenced:scrape", "tool_call")
    assert (WEB_SCRAPE.params, FETCH.params) == (ScrapeParams, FetchParams)


def test_scrape_defaults() -> None:
    params = ScrapeParams(url="https://example.com", select="h1")
    assert (params.extract, params.limit) == ("text", 10)


@pytest.mark.parametrize("extract", ["text", "html", "attr:href", "attr:data-id"])
def test_extract_accepts_the_three_forms(extract: str) -> None:
    assert ScrapeParams(url="https://x.com", select="a", extract=extract).extract == extract


@pytest.mark.parametrize("extract", ["", "TEXT", "attr:", "attr: href", "inner_html", "text "])
def test_extract_is_strict(extract: str) -> None:
    with pytest.raises(pydantic.ValidationError, match="extract"):
        ScrapeParams(url="https://x.com", select="a", extract=extract)


def test_parse_scrape_block() -> None:
    body = '\n  {"url": "https://example.com", "select": "h1", "limit": 2}\n'
    assert parse_scrape_block(body) == {"url": "https://example.com", "select": "h1", "limit": 2}


def test_parse_scrape_block_invalid_json_is_explained() -> None:
    with pytest.raises(ToolError) as caught:
        parse_scrape_block('{"url": "https://example.com", select: "h1"}')
    error = caught.value
    assert error.category is ErrorCategory.INVALID_PARAMETERS
    assert error.message.startswith("invalid scrape block: not valid JSON (Expecting property "
                                    "name enclosed in double quotes at line 1 column 32)")
    assert '{"url": "https://example.com", "select": "h1"}' in error.message


@pytest.mark.parametrize(("body", "kind"), [("[1]", "an array"), ('"h1"', "a string"),
                                            ("3", "a number"), ("null", "null")])
def test_parse_scrape_block_needs_an_object(body: str, kind: str) -> None:
    with pytest.raises(ToolError, match=f"expected a JSON object, found {kind}$"):
        parse_scrape_block(body)


@pytest.mark.parametrize(("body", "problem"), [
    ("[" * 100_000, "nested too deeply"),
    ('{"limit": ' + "9" * 5000 + "}", "a number too long"),
])
def test_parse_scrape_block_refuses_json_python_cannot_load(body: str, problem: str) -> None:
    with pytest.raises(ToolError, match=f"unusable JSON \\({problem}\\)$") as caught:
        parse_scrape_block(body)
    assert caught.value.category is ErrorCategory.INVALID_PARAMETERS


def test_ca_bundle_expands_the_home_directory(
    ca: trustme.CA, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    ca.cert_pem.write_to_path(str(tmp_path / "corp-ca.pem"))
    settings = ScrapeSettings(ca_bundle="~/corp-ca.pem")
    assert settings.ca_bundle == str(tmp_path / "corp-ca.pem")
