"""Zeph's result-cache rows (zeph-test-cases.md §6, facts §9.2) against the store itself."""

from __future__ import annotations

import pydantic
import pytest

from tooldeck.models import ToolDef, ToolOutput
from tooldeck.plugins.result_cache.cacheable import NEVER_CACHED, cacheable
from tooldeck.plugins.result_cache.store import MAX_ENTRIES, CacheCounts, ResultCache


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def out(text: str) -> ToolOutput:
    return ToolOutput("web_scrape", text)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_put_then_get_within_ttl_is_a_hit(clock: Clock) -> None:
    cache = ResultCache(clock=clock)
    cache.put("k", out("page"))
    clock.now += 299
    assert cache.get("k", 300) == out("page")
    assert (cache.counts.hits, cache.counts.misses) == (1, 0)


def test_get_after_ttl_is_none_removes_the_entry_and_counts_no_miss(clock: Clock) -> None:
    cache = ResultCache(clock=clock)
    cache.put("k", out("page"))
    clock.now += 300
    assert cache.get("k", 300) is None
    assert len(cache) == 0
    assert (cache.counts.hits, cache.counts.misses) == (0, 0)
    assert cache.get("k", 300) is None  # now absent: that one is a miss
    assert cache.counts.misses == 1


def test_an_absent_key_is_a_miss(clock: Clock) -> None:
    cache = ResultCache(clock=clock)
    assert cache.get("nothing", 300) is None
    assert (cache.counts.hits, cache.counts.misses) == (0, 1)


def test_a_zero_ttl_expires_at_once(clock: Clock) -> None:
    cache = ResultCache(clock=clock)
    cache.put("k", out("page"))
    assert cache.get("k", 0) is None


def test_the_513th_insert_evicts_the_oldest(clock: Clock) -> None:
    cache = ResultCache(clock=clock)
    assert MAX_ENTRIES == 512
    for i in range(MAX_ENTRIES):
        cache.put(i, out(str(i)))
    assert len(cache) == 512 and cache.get(0, 300) is not None
    cache.put(512, out("512"))
    assert len(cache) == 512
    assert cache.get(0, 300) is None, "the oldest inserted went"
    assert cache.get(1, 300) == out("1") and cache.get(512, 300) == out("512")


def test_reputting_a_key_makes_it_the_newest(clock: Clock) -> None:
    cache = ResultCache(clock=clock, max_entries=2)
    cache.put("a", out("a"))
    cache.put("b", out("b"))
    cache.put("a", out("a2"))
    cache.put("c", out("c"))
    assert cache.get("b", 300) is None and cache.get("a", 300) == out("a2")


def test_clear_resets_entries_and_counters(clock: Clock) -> None:
    cache = ResultCache(clock=clock)
    cache.put("k", out("page"))
    cache.get("k", 300)
    cache.get("x", 300)
    cache.clear()
    assert len(cache) == 0 and cache.counts == CacheCounts()


def test_a_new_generation_drops_the_old_entries(clock: Clock) -> None:
    cache = ResultCache(clock=clock)
    cache.put("k1", out("old"), generation="g1")
    cache.put("k2", out("new"), generation="g2")
    assert cache.get("k1", 300) is None and cache.get("k2", 300) == out("new")


class P(pydantic.BaseModel):
    q: str = ""


def tool(tool_id: str, *caps: str) -> ToolDef:
    return ToolDef(id=tool_id, description="t", params=P, executor="x", capabilities=set(caps))


@pytest.mark.parametrize("definition", [
    tool("bash", "exec"), tool("write", "write"), tool("memory_save", "read"),
    tool("memory_search", "read"), tool("scheduler", "read"), tool("compress_context", "read"),
    tool("mcp_github_search", "read"), tool("mcp:github.search", "read"),
    tool("edit", "write"), tool("delete_path", "write", "delete"),
    tool("bash_status", "read"), tool("read_overflow", "read"),
    tool("some_new_tool"), tool("mailer", "network"), tool("sync", "read", "write"),
])
def test_never_cacheable(definition: ToolDef) -> None:
    assert not cacheable(definition)


@pytest.mark.parametrize("definition", [
    tool("read", "read"), tool("grep", "read"), tool("web_scrape", "read", "network"),
    tool("fetch", "read", "network"), tool("search_code", "read"),
])
def test_cacheable(definition: ToolDef) -> None:
    assert cacheable(definition)


def test_the_never_cached_set_holds_zephs_ids() -> None:
    assert {"bash", "memory_save", "memory_search", "scheduler", "write",
            "compress_context"} <= NEVER_CACHED
