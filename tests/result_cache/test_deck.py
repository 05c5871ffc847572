"""The result cache in the deck: behind the gates, keyed by caller and policy, hot-reloaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.plugins.result_cache import store_of
from tooldeck.plugins.result_cache.cli import sum_stats

from .conftest import Counting, MakeEnv, settle


async def test_a_second_identical_call_is_served_from_the_cache(make_env: MakeEnv) -> None:
    env = make_env()
    first = await env.text("lookup", q="x")
    assert await env.text("lookup", q="x") == first
    assert env.counting.runs == 1
    assert (await env.text("lookup", q="y")).startswith("answer y")
    assert env.counting.runs == 2


async def test_callers_do_not_share_entries(make_env: MakeEnv) -> None:
    env = make_env()
    await env.call("lookup", caller="alice", q="x")
    await env.call("lookup", caller="bob", q="x")
    assert env.counting.runs == 2
    await env.call("lookup", caller="alice", q="x")
    assert env.counting.runs == 2


async def test_the_gates_run_before_the_cache(make_env: MakeEnv) -> None:
    env = make_env()
    await env.text("lookup", q="x")
    await env.text("lookup", q="x")
    assert env.hits() == 1
    await env.reconfigure("", lookup="deny")
    denied = await env.call("lookup", q="x")
    assert denied.error is not None
    assert denied.error.category is ErrorCategory.POLICY_BLOCKED
    await env.reconfigure("", lookup="ask")
    asked = await env.call("lookup", q="x")
    assert asked.error is not None
    assert asked.error.category is ErrorCategory.CONFIRMATION_REQUIRED
    assert env.counting.runs == 1


async def test_a_tightened_sandbox_is_a_new_generation(make_env: MakeEnv) -> None:
    env = make_env()
    (env.root / "cfg.txt").write_text("value\n")
    settle()
    assert "value" in await env.text("read", path="cfg.txt")
    await env.reconfigure("", deny_read="**/cfg.txt")
    refused = await env.call("read", path="cfg.txt")
    assert refused.error is not None, "the sandbox lives in the executor: a new key, no hit"
    assert refused.error.category is ErrorCategory.POLICY_BLOCKED


async def test_disabled_by_plugins_disable(make_env: MakeEnv) -> None:
    env = make_env('[plugins]\ndisable = ["result_cache"]\n')
    await env.call("lookup", q="x")
    await env.call("lookup", q="x")
    assert env.counting.runs == 2
    assert "result_cache" not in {p.name for p in env.deck.runtime.plugins
                                  if p.state == "enabled"}


async def test_enabled_false_and_hot_reload(make_env: MakeEnv) -> None:
    env = make_env("[tools.result_cache]\nenabled = false\n")
    await env.call("lookup", q="x")
    await env.call("lookup", q="x")
    assert env.counting.runs == 2
    await env.reconfigure("[tools.result_cache]\nenabled = true\n")
    await env.call("lookup", q="x")
    await env.call("lookup", q="x")
    assert env.counting.runs == 3
    await env.reconfigure("[tools.result_cache]\nttl_secs = 0\n")
    await env.call("lookup", q="x")
    await env.call("lookup", q="x")
    assert env.counting.runs == 5, "ttl_secs = 0 expires every entry at once"


async def test_a_write_through_the_file_tools_invalidates_at_once(make_env: MakeEnv) -> None:
    env = make_env()
    (env.root / "a.txt").write_text("one\n")
    settle()
    await env.text("read", path="a.txt")
    await env.text("list_directory", path=".")
    store = store_of(env.deck.runtime)
    assert len(store) == 2
    await env.text("write", path="a.txt", content="two\n")
    assert len(store) == 0 and store.counts.invalidated == 2
    assert "two" in await env.text("read", path="a.txt")


async def test_a_symlink_repointed_is_not_served_stale(make_env: MakeEnv) -> None:
    env = make_env()
    (env.root / "a.txt").write_text("AAAA\n")
    (env.root / "b.txt").write_text("BBBB\n")
    (env.root / "link.txt").symlink_to("a.txt")
    settle()
    assert "AAAA" in await env.text("read", path="link.txt")
    assert "AAAA" in await env.text("read", path="link.txt")
    assert env.hits() == 1
    tmp = env.root / "link.tmp"
    tmp.symlink_to("b.txt")
    os.replace(tmp, env.root / "link.txt")
    assert "BBBB" in await env.text("read", path="link.txt")


async def test_a_directory_symlink_repointed_is_not_served_stale(make_env: MakeEnv) -> None:
    env = make_env()
    for name, text in (("one", "first"), ("two", "other")):
        (env.root / name).mkdir()
        (env.root / name / "f.txt").write_text(text + "\n")
    (env.root / "cur").symlink_to("one")
    settle()
    assert "first" in await env.text("read", path="cur/f.txt")
    assert "first" in await env.text("grep", pattern="f", path="cur")
    tmp = env.root / "cur.tmp"
    tmp.symlink_to("two")
    os.replace(tmp, env.root / "cur")
    assert "other" in await env.text("read", path="cur/f.txt")
    assert "other" in await env.text("grep", pattern="t", path="cur")


async def test_grep_and_listings_see_new_and_changed_files(make_env: MakeEnv) -> None:
    env = make_env()
    (env.root / "src").mkdir()
    (env.root / "src" / "m.py").write_text("x = 1\n")
    settle()
    assert "x = 1" in await env.text("grep", pattern="x =", path=".")
    assert "m.py" in await env.text("find_path", pattern="**/*.py")
    assert "[file] m.py" in await env.text("list_directory", path="src")
    for _ in range(2):
        await env.text("grep", pattern="x =", path=".")
        await env.text("find_path", pattern="**/*.py")
        await env.text("list_directory", path="src")
    assert env.hits() == 6
    (env.root / "src" / "n.py").write_text("x = 2\n")
    assert "x = 2" in await env.text("grep", pattern="x =", path=".")
    assert "n.py" in await env.text("find_path", pattern="**/*.py")
    assert "[file] n.py" in await env.text("list_directory", path="src")


async def test_find_path_meeting_a_symlink_is_not_cached(make_env: MakeEnv) -> None:
    env = make_env()
    (env.root / "a.py").write_text("")
    (env.root / "l.py").symlink_to("a.py")
    settle()
    await env.text("find_path", pattern="*.py")
    await env.text("find_path", pattern="*.py")
    assert env.hits() == 0


async def test_a_fresh_file_is_not_cached_at_all(make_env: MakeEnv) -> None:
    env = make_env()
    (env.root / "new.txt").write_text("just written\n")
    # an mtime ahead of the call keeps the file inside the racy window however slow the
    # machine is between this write and the call's start (a bare write raced it under load)
    ahead = time.time_ns() + 60 * 10**9
    os.utime(env.root / "new.txt", ns=(ahead, ahead))
    await env.text("read", path="new.txt")  # changed within the racy window: not stored
    assert len(store_of(env.deck.runtime)) == 0


async def test_outcomes_reach_the_audit_log_and_tooldeck_stats(
        make_env: MakeEnv, tmp_path: Path) -> None:
    env = make_env()
    (env.root / "f.txt").write_text("1111\n")
    settle()
    await env.call("lookup", q="x")
    await env.call("lookup", q="x")
    await env.call("lookup", q="y")
    await env.call("read", path="f.txt")
    (env.root / "f.txt").write_text("2222\n")
    os.utime(env.root / "f.txt", ns=(0, 0))  # an old mtime: only ctime shows the change
    await env.call("read", path="f.txt")
    await env.call("list_directory", path=".")  # cacheable too: a miss
    await env.call("write", path="g.txt", content="")  # not cacheable: no field
    records = [json.loads(line) for line in env.audit.read_text().splitlines()]
    assert [(r["tool"], r.get("cache")) for r in records] == [
        ("lookup", "miss"), ("lookup", "hit"), ("lookup", "miss"), ("read", "miss"),
        ("read", "stale"), ("list_directory", "miss"), ("write", None)]
    # a second deck on the same log adds to the totals
    again = Deck.from_config(env.config, environ={}, extra_plugins={"counting": Counting()})
    try:
        assert (await again.call(ToolCall("lookup", {"q": "x"}))).output is not None
    finally:
        await again.aclose()
    assert sum_stats(env.audit.read_text().splitlines()) == {
        "hits": 1, "misses": 6, "stale": 1}
    cli_config = tmp_path / "cli.toml"
    cli_config.write_text(f'[tools.audit]\npath = "{env.audit}"\n')
    done = subprocess.run([sys.executable, "-c",
                           "from tooldeck.cli import main; raise SystemExit(main())",
                           "stats", "--json", "--config", str(cli_config)],
                          capture_output=True, text=True, check=True, timeout=60)
    totals = json.loads(done.stdout)["result_cache"]
    assert (totals["hits"], totals["misses"], totals["stale"]) == (1, 6, 1)
