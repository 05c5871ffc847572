"""Server lifecycle with real processes: crash and restart, bounded start, no orphans."""

from __future__ import annotations

import asyncio
import gc
import json
import shutil
import sys
from pathlib import Path

import pytest

from tooldeck.errors import ConfigError, ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.plugins.mcp_client import McpClientPlugin
from tooldeck.plugins.mcp_client.connection import backoff_delay

from .kit import SERVER, HeldBackoff, alive, allow, audit, make_deck, server_table

# the installed instance is swapped for one whose backoff the test holds
OWN_PLUGIN = '[plugins]\ndisable = ["mcp_client"]\n'


async def _settle_now() -> None:
    return None


async def test_a_crashed_server_comes_back_and_a_reload_replaces_it(tmp_path: Path) -> None:
    backoff = HeldBackoff()
    deck = make_deck(OWN_PLUGIN + server_table("demo", trust="verified")
                     + allow("mcp_demo__pid") + allow("mcp_demo__die") + allow("mcp_demo__echo"),
                     tmp_path, file=True, settle_wait=_settle_now,
                     extra_plugins={"mcp_held": McpClientPlugin(wait=backoff)})
    try:
        first = int((await deck.call(ToolCall("mcp_demo__pid", {}))).text)
        crash = await deck.call(ToolCall("mcp_demo__die", {}, caller_id="crash"))
        assert crash.error is not None
        assert crash.error.category is ErrorCategory.SERVER_ERROR
        assert "went away during the call to die" in crash.error.message
        # held in its backoff: every call fails at once, with a category the model can act on
        down = await deck.call(ToolCall("mcp_demo__echo", {"text": "x"}))
        assert down.error is not None
        assert down.error.category is ErrorCategory.SERVER_ERROR
        assert "mcp server 'demo' is unavailable" in down.error.message
        assert down.error.retryable
        backoff.released.set()
        for _ in range(400):  # the restart takes a process start; poll for it, bounded
            back = await deck.call(ToolCall("mcp_demo__pid", {}))
            if back.ok:
                break
            await asyncio.sleep(0.05)
        assert back.ok, back.text
        second = int(back.text)
        assert second != first and not alive(first)
        assert backoff.delays[0] == backoff_delay(0) == 0.5
        records = [r for r in audit(tmp_path, "tool_call") if r.get("caller_id") == "crash"]
        assert records[0]["error_category"] == "server_error"
        assert records[0]["mcp_server_id"] == "demo"
        # a reload brings its own servers; the retired runtime's stop once its calls are done
        config = tmp_path / "tooldeck.toml"
        config.write_text(config.read_text() + allow("mcp_demo__read_file"))
        assert await deck.reload(), deck.last_reload_error
        third = int((await deck.call(ToolCall("mcp_demo__pid", {}))).text)
        assert third != second and not alive(second)
    finally:
        await deck.aclose()
    assert not alive(third)  # aclose stopped the current runtime's server: no orphan


def test_backoff_doubles_and_is_capped() -> None:
    assert [backoff_delay(n) for n in range(8)] == [0.5, 1, 2, 4, 8, 16, 30, 30]
    assert backoff_delay(10_000) == 30


async def test_a_server_that_never_answers_does_not_hold_the_build(tmp_path: Path) -> None:
    sh = shutil.which("sh")
    assert sh is not None
    pid_file = tmp_path / "pid"
    mute = ('[mcp]\nstartup_timeout_secs = 0.3\n[[mcp.servers]]\nname = "mute"\n'
            f'command = {json.dumps(sh)}\n'
            # holds stdout open (fd 3) but never writes; reads stdin and leaves at its end
            f'args = ["-c", {json.dumps(f"echo $$ > {pid_file}; exec cat 3>&1 >/dev/null")}]\n'
            'trust = "verified"\n' + allow("mcp_mute__anything"))
    deck = make_deck(mute, tmp_path)
    try:
        warning = next(w for w in deck.runtime.warnings if "'mute' did not start" in w)
        assert "did not start within 0.3 s (startup_timeout_secs)" in warning
        assert not any(t.id.startswith("mcp_mute") for t in deck.tools())
        # a rule naming one of its tools stays valid while it is down
        assert "mcp_mute__anything" in deck.runtime.declared_tools
        assert not alive(int(pid_file.read_text()))
    finally:
        await deck.aclose()


async def test_a_missing_command_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    deck = make_deck('[[mcp.servers]]\nname = "ghost"\ncommand = "/nonexistent/mcp-server"\n',
                     tmp_path)
    try:
        warning = next(w for w in deck.runtime.warnings if "'ghost' did not start" in w)
        assert "/nonexistent/mcp-server" in warning or "No such file" in warning
    finally:
        await deck.aclose()


def test_a_refused_configuration_leaves_no_server_running(tmp_path: Path) -> None:
    sh = shutil.which("sh")
    assert sh is not None
    pid_file = tmp_path / "pid"
    script = f'echo $$ > {pid_file}; exec "{sys.executable}" "{SERVER}"'
    toml = (f'[[mcp.servers]]\nname = "demo"\ncommand = {json.dumps(sh)}\n'
            f'args = ["-c", {json.dumps(script)}]\ntrust = "verified"\n'
            + allow("mcp_demo__ech"))  # a typo: the permissions plugin refuses the policy
    with pytest.raises(ConfigError, match="did you mean 'mcp_demo__echo'"):
        make_deck(toml, tmp_path)
    gc.collect()  # the abandoned build's settings go, and its servers with them
    assert not alive(int(pid_file.read_text()))
