"""An untrusted ./tooldeck.toml may only tighten the user's policy (issue 12, point 13)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tooldeck.deck import Deck
from tooldeck.lookup import load_document
from tooldeck.trust import trust

LOOSEN = '[agent]\nautonomy = "full"\n'
TIGHTEN = '[tools]\nmax_tool_calls_per_session = 50\n[tools.shell]\nblocked_commands = ["make"]\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project directory as the working directory, with its own user dirs."""
    root = tmp_path / "repo"
    root.mkdir()
    monkeypatch.chdir(root)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("TOOLDECK_CONFIG", raising=False)
    return root


def effective() -> Deck:
    return Deck.from_config(load_document(), environ={})


def test_an_untrusted_loosening_file_is_not_applied(project: Path) -> None:
    (project / "tooldeck.toml").write_text(LOOSEN)
    deck = effective()
    assert deck.runtime.settings.core.agent.autonomy == "supervised"
    [note] = [w for w in deck.runtime.warnings if w.startswith("untrusted")]
    assert "agent.autonomy" in note and "tooldeck config trust" in note
    deck.close()


def test_an_untrusted_tightening_file_is_applied(project: Path) -> None:
    (project / "tooldeck.toml").write_text(TIGHTEN)
    deck = effective()
    assert deck.runtime.settings.core.tools.max_tool_calls_per_session == 50
    assert deck.runtime.settings.table("tools.shell")["blocked_commands"] == ["make"]
    # the embedded default's own rules still hold underneath
    assert "read" in deck.runtime.settings.table("tools.permissions")
    assert not [w for w in deck.runtime.warnings if w.startswith("untrusted")]
    deck.close()


def test_trust_is_by_content(project: Path) -> None:
    config = project / "tooldeck.toml"
    config.write_text(LOOSEN)
    trust(config)
    assert (project.parent / "data" / "tooldeck" / "trusted_configs.json").stat().st_mode \
        & 0o777 == 0o600
    deck = effective()
    assert deck.runtime.settings.core.agent.autonomy == "full"
    deck.close()
    config.write_text(LOOSEN + "# edited by someone else\n")
    deck = effective()
    assert deck.runtime.settings.core.agent.autonomy == "supervised", "changed: untrusted"
    deck.close()


def test_the_users_own_config_is_the_base(project: Path) -> None:
    user = project.parent / "config" / "tooldeck" / "tooldeck.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[agent]\nautonomy = "readonly"\n')
    (project / "tooldeck.toml").write_text('[agent]\nautonomy = "supervised"\n')
    deck = effective()
    # readonly -> supervised is not provably stricter: the user's readonly stays
    assert deck.runtime.settings.core.agent.autonomy == "readonly"
    deck.close()


@pytest.mark.parametrize("how", ["env", "flag"])
def test_a_config_the_user_names_is_fully_trusted(project: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  how: str) -> None:
    named = project / "tooldeck.toml"
    named.write_text(LOOSEN)
    if how == "env":
        monkeypatch.setenv("TOOLDECK_CONFIG", str(named))
        doc = load_document()
    else:
        doc = load_document(named)
    assert doc.data["agent"]["autonomy"] == "full" and not doc.notes


def test_a_reload_cannot_loosen_an_untrusted_file(project: Path) -> None:
    config = project / "tooldeck.toml"
    config.write_text(TIGHTEN)

    async def scenario() -> str:
        deck = Deck.from_config(load_document(), environ={}, settle_s=0.05)
        staged = project / ".tooldeck.toml.tmp"
        staged.write_text(TIGHTEN + LOOSEN)
        os.replace(staged, config)
        await deck.reload()
        autonomy = deck.runtime.settings.core.agent.autonomy
        await deck.aclose()
        return autonomy

    assert asyncio.run(scenario()) == "supervised"


def test_relative_paths_of_the_user_config_stay_where_they_were(project: Path) -> None:
    user = project.parent / "config" / "tooldeck" / "tooldeck.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[tools.audit]\npath = "logs/audit.jsonl"\n')
    (project / "tooldeck.toml").write_text(LOOSEN)
    deck = effective()
    deck.close()
    assert (user.parent / "logs" / "audit.jsonl").exists()
    assert not (project / "logs").exists(), "the user's audit log moved into the repository"


def test_a_tightening_file_does_not_move_the_users_relative_paths(project: Path) -> None:
    user = project.parent / "config" / "tooldeck" / "tooldeck.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[tools.audit]\npath = "logs/audit.jsonl"\n')
    (project / "tooldeck.toml").write_text(TIGHTEN)
    deck = effective()
    assert deck.runtime.settings.core.tools.max_tool_calls_per_session == 50
    deck.close()
    assert (user.parent / "logs" / "audit.jsonl").exists()
    assert not (project / "logs").exists()
