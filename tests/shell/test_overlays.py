"""Policy overlays in ``policy_dir``: tighten-only, hot-reloaded with real file events."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tooldeck.deck import Deck
from tooldeck.errors import ConfigError, ErrorCategory

pytestmark = pytest.mark.timeout(60)

BASE = '[tools.shell]\npolicy_dir = "policy.d"\n'


@pytest.fixture
def policy_dir(write_config: Any) -> Path:
    path = write_config(BASE).parent / "policy.d"
    path.mkdir()
    return path


def save_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def deck_with(make_deck: Any, body: str = "") -> Deck:
    deck: Deck = make_deck(BASE + body)
    return deck


async def test_blocked_command_overlay(make_deck: Any, helpers: Any, policy_dir: Path) -> None:
    overlay = policy_dir / "10-ping.toml"
    overlay.write_text('[tools.shell]\nblocked_commands = ["ping"]\n')
    vote = helpers.shell_vote(deck_with(make_deck), "ping example.com")
    assert (vote.verdict.value, vote.rule, vote.source) == ("deny", "blocklist", str(overlay))


async def test_confirm_overlay(make_deck: Any, helpers: Any, policy_dir: Path) -> None:
    (policy_dir / "c.toml").write_text('[tools.shell]\nconfirm_patterns = ["make release"]\n')
    vote = helpers.shell_vote(deck_with(make_deck), "make release VERSION=1.2")
    assert (vote.verdict.value, vote.rule) == ("ask", "confirm")


async def test_network_off_overlay(make_deck: Any, helpers: Any, policy_dir: Path) -> None:
    (policy_dir / "n.toml").write_text("[tools.shell]\nallow_network = false\n")
    deck = deck_with(make_deck, 'allowed_commands = ["curl"]\n')
    assert helpers.shell_vote(deck, "curl https://example.com").rule == "blocklist"


async def test_overlay_rules(make_deck: Any, helpers: Any, policy_dir: Path) -> None:
    overlay = policy_dir / "r.toml"
    overlay.write_text(
        '[[tools.permissions.bash]]\npattern = "git push*"\naction = "deny"\n'
        '[[tools.permissions.bash]]\npattern = "make *"\naction = "ask"\n'
        'match = ["make deploy"]\n')
    deck = deck_with(make_deck)
    denied = helpers.shell_vote(deck, "cd src && git push origin main")
    assert (denied.verdict.value, denied.rule, denied.source) == (
        "deny", "overlay-rule", str(overlay))
    asked = helpers.shell_vote(deck, "env A=1 make deploy")
    assert (asked.verdict.value, asked.rule) == ("ask", "overlay-rule")


async def test_overlay_ask_cannot_shadow_a_base_deny(make_deck: Any, helpers: Any,
                                                     policy_dir: Path) -> None:
    (policy_dir / "a.toml").write_text(
        '[[tools.permissions.bash]]\npattern = "git push*"\naction = "ask"\n')
    deck = deck_with(make_deck, '[[tools.permissions.bash]]\npattern = "git push*"\n'
                     'action = "deny"\n[[tools.permissions.bash]]\npattern = "*"\n'
                     'action = "allow"\n')
    assert helpers.verdict_of(deck, "git push")[0] == "deny"


@pytest.mark.parametrize(("text", "key"), [
    ('[tools.shell]\nallowed_commands = ["curl"]\n', "tools.shell.allowed_commands"),
    ("[tools.shell]\nallow_network = true\n", "tools.shell.allow_network"),
    ("[tools.shell]\ntimeout = 1\n", "tools.shell.timeout"),
    ("[tools.shell]\nallowed_paths = [\"/\"]\n", "tools.shell.allowed_paths"),
    ('[[tools.permissions.bash]]\npattern = "*"\naction = "allow"\n',
     "tools.permissions.bash[0]"),
    ('[[tools.permissions.read]]\npattern = "*"\naction = "deny"\n', "tools.permissions.read"),
    ("[agent]\nautonomy = \"full\"\n", "agent"),
    ("[tools.shell]\nblocked_commands = []\nconfirm_patterns = \"rm \"\n",
     "tools.shell.confirm_patterns"),
])
async def test_loosening_overlay_is_refused(make_deck: Any, policy_dir: Path, text: str,
                                            key: str) -> None:
    overlay = policy_dir / "loose.toml"
    overlay.write_text(text)
    with pytest.raises(ConfigError) as info:
        deck_with(make_deck)
    assert str(overlay) in str(info.value) and key in str(info.value)


async def test_invalid_toml_overlay_is_refused(make_deck: Any, policy_dir: Path) -> None:
    (policy_dir / "bad.toml").write_text("[tools.shell\n")
    with pytest.raises(ConfigError, match=r"bad\.toml"):
        deck_with(make_deck)


async def test_missing_policy_dir_is_an_error(make_deck: Any) -> None:
    with pytest.raises(ConfigError, match="policy_dir"):
        deck_with(make_deck)


async def test_overlay_examples_are_checked(make_deck: Any, policy_dir: Path) -> None:
    (policy_dir / "ex.toml").write_text(
        '[[tools.permissions.bash]]\npattern = "make *"\naction = "ask"\nmatch = ["cmake x"]\n')
    with pytest.raises(ConfigError, match="cmake x"):
        deck_with(make_deck)


async def test_policy_dir_and_overlays_are_registered(make_deck: Any, policy_dir: Path) -> None:
    overlay = policy_dir / "o.toml"
    overlay.write_text('[tools.shell]\nblocked_commands = ["ping"]\n')
    deck = deck_with(make_deck)
    assert policy_dir in deck.runtime.watch_paths
    assert overlay in deck.runtime.policy_files
    assert policy_dir.resolve() in deck.watched_dirs()


async def test_deleted_overlay_refuses_reload(make_deck: Any, helpers: Any,
                                              policy_dir: Path) -> None:
    overlay = policy_dir / "o.toml"
    overlay.write_text('[tools.shell]\nblocked_commands = ["ping"]\n')
    deck = deck_with(make_deck)
    overlay.unlink()
    assert await deck.reload() is False
    assert "policy file deleted" in (deck.last_reload_error or "")
    assert helpers.shell_vote(deck, "ping x").rule == "blocklist"


async def test_running_command_keeps_its_policy(make_deck: Any, helpers: Any,
                                                policy_dir: Path) -> None:
    deck = deck_with(make_deck)
    task = asyncio.create_task(helpers.run(deck, "sleep 0.5; echo finished"))
    await asyncio.sleep(0.1)
    (policy_dir / "o.toml").write_text('[tools.shell]\nblocked_commands = ["sleep"]\n')
    reload = asyncio.create_task(deck.reload())
    result = await task
    assert result.output.summary == "finished"
    assert await reload
    assert helpers.shell_vote(deck, "sleep 1").rule == "blocklist"


# ----------------------------------------------------------------- real file events


@pytest.fixture
async def watching(make_deck: Any, policy_dir: Path
                   ) -> AsyncIterator[tuple[Deck, asyncio.Queue[bool]]]:
    deck = deck_with(make_deck)
    outcomes: asyncio.Queue[bool] = asyncio.Queue()
    task = asyncio.create_task(deck.watch(on_reload=outcomes.put_nowait))
    await asyncio.sleep(0.3)
    yield deck, outcomes
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_tightening_overlay_denies_within_one_reload(
        watching: tuple[Deck, asyncio.Queue[bool]], helpers: Any, policy_dir: Path) -> None:
    deck, outcomes = watching
    assert (await helpers.run(deck, "echo ping-free")).ok
    assert helpers.shell_vote(deck, "ping example.com").verdict.value == "allow"
    save_atomically(policy_dir / "20-ping.toml", '[tools.shell]\nblocked_commands = ["ping"]\n')
    assert await asyncio.wait_for(outcomes.get(), 10) is True
    result = await helpers.run(deck, "ping example.com", confirm=True)
    assert result.error.category is ErrorCategory.POLICY_BLOCKED


async def test_loosening_overlay_is_rejected_and_old_policy_stays(
        watching: tuple[Deck, asyncio.Queue[bool]], helpers: Any, policy_dir: Path) -> None:
    deck, outcomes = watching
    save_atomically(policy_dir / "20-ping.toml", '[tools.shell]\nblocked_commands = ["ping"]\n')
    assert await asyncio.wait_for(outcomes.get(), 10) is True
    save_atomically(policy_dir / "30-loose.toml", '[tools.shell]\nallowed_commands = ["sudo"]\n')
    assert await asyncio.wait_for(outcomes.get(), 10) is False
    assert "30-loose.toml" in (deck.last_reload_error or "")
    assert "tools.shell.allowed_commands" in (deck.last_reload_error or "")
    assert helpers.shell_vote(deck, "ping x").rule == "blocklist"
    assert helpers.shell_vote(deck, "sudo id").rule == "blocklist"
