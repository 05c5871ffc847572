"""[tools.retry] against a real loopback HTTPS server that fails, then succeeds (issue 14)."""

from __future__ import annotations

import json
import statistics
import time
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import trustme

from tooldeck.config import RetryConfig, parse_document
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.retry import backoff

Site = Any  # conftest.Site: conftest modules are not importable under --import-mode=importlib
MakeDeck = Callable[..., Deck]

RULES = '[[tools.permissions.fetch]]\npattern = "https://*"\naction = "allow"\n'


@pytest.fixture
async def make_deck(tmp_path: Path, ca: trustme.CA) -> AsyncIterator[MakeDeck]:
    pem = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(pem))
    decks: list[Deck] = []

    def make(retry: str = "") -> Deck:
        text = (f'[tools.audit]\npath = {json.dumps(str(tmp_path / "audit.jsonl"))}\n'
                f'[tools.scrape]\nallow_internal = ["127.0.0.2"]\n'
                f"ca_bundle = {json.dumps(str(pem))}\n[tools.retry]\n{retry}\n{RULES}")
        deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()


def flaky(site: Site, fail: int, how: str) -> str:
    return site.url(f"/flaky?key={uuid.uuid4().hex}&fail={fail}&how={how}")


def served(site: Site, url: str) -> int:
    key = url.split("key=")[1].split("&")[0]
    return sum(1 for hit in site.hits if f"key={key}" in hit)


@pytest.mark.parametrize("how", ["429", "503", "reset"])
async def test_a_transient_failure_is_retried_until_it_succeeds(make_deck: MakeDeck, site: Site,
                                                                how: str) -> None:
    deck = make_deck("max_attempts = 3\nbase_ms = 10\nmax_ms = 20\n")
    url = flaky(site, 2, how)
    result = await deck.call(ToolCall("fetch", {"url": url}))
    assert result.ok, result.text
    assert result.output is not None and "finally" in result.output.summary
    assert served(site, url) == 3


async def test_attempts_are_capped_and_the_last_failure_returned(make_deck: MakeDeck,
                                                                 site: Site) -> None:
    deck = make_deck("max_attempts = 2\nbase_ms = 10\nmax_ms = 20\n")
    url = flaky(site, 5, "503")
    result = await deck.call(ToolCall("fetch", {"url": url}))
    assert result.error is not None and result.error.category is ErrorCategory.SERVER_ERROR
    assert served(site, url) == 2


async def test_a_permanent_failure_is_not_retried(make_deck: MakeDeck, site: Site) -> None:
    deck = make_deck("max_attempts = 4\nbase_ms = 10\n")
    url = flaky(site, 5, "404")
    result = await deck.call(ToolCall("fetch", {"url": url}))
    assert result.error is not None and result.error.category is ErrorCategory.PERMANENT_FAILURE
    assert served(site, url) == 1


async def test_no_retry_starts_past_the_budget(make_deck: MakeDeck, site: Site) -> None:
    """Full jitter makes the attempt count random; the bound is on when each attempt starts."""
    deck = make_deck("max_attempts = 10\nbase_ms = 400\nmax_ms = 400\nbudget_secs = 0.5\n")
    url = flaky(site, 10, "503")
    key = url.split("key=")[1].split("&")[0]
    started = time.monotonic()
    result = await deck.call(ToolCall("fetch", {"url": url}))
    assert result.error is not None
    starts = [at for at, path in site.hit_times if f"key={key}" in path]
    assert starts, "the first attempt always runs"
    # each retry's wait must end inside the budget; 0.25 s covers a loaded machine's TLS setup
    assert max(starts) - started < 0.5 + 0.25
    assert time.monotonic() - started < 1.5


async def test_only_the_first_attempt_counts_against_the_quota(make_deck: MakeDeck,
                                                               site: Site) -> None:
    deck = make_deck("max_attempts = 3\nbase_ms = 10\nmax_ms = 20\n"
                     "[tools]\nmax_tool_calls_per_session = 1\n")
    result = await deck.call(ToolCall("fetch", {"url": flaky(site, 2, "503")}))
    assert result.ok, result.text
    second = await deck.call(ToolCall("fetch", {"url": flaky(site, 0, "503")}))
    assert second.error is not None and second.error.category is ErrorCategory.QUOTA_BLOCKED


def test_full_jitter_stays_in_bounds_and_fills_them() -> None:
    """Retry k waits uniformly in [0, min(base * 2^k, max)]: bounds and mean, 4,000 draws."""
    wait = backoff(RetryConfig(base_ms=100, max_ms=1000))

    class State:
        def __init__(self, attempt: int) -> None:
            self.attempt_number = attempt

    for k, cap in ((0, 0.1), (1, 0.2), (2, 0.4), (3, 0.8), (4, 1.0), (9, 1.0)):
        draws = [wait(State(k + 1)) for _ in range(4000)]  # type: ignore[arg-type]
        assert all(0 <= d <= cap + 1e-9 for d in draws), k
        assert abs(statistics.mean(draws) - cap / 2) < cap * 0.05, k
        assert max(draws) > cap * 0.95 and min(draws) < cap * 0.05, k
