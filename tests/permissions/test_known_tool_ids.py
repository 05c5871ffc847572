"""``[tools.permissions.<id>]`` must name a tool some installed plugin defines.

A misspelt or wrongly cased table (``Bash``) used to be accepted and ignored: ``bash`` then
ran under the legacy rules, not the ones the operator wrote.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tooldeck.cli import main
from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.lookup import load_document
from tooldeck.models import ToolCall
from tooldeck.plugins.permissions import PermissionSettings, closest_tool

DENY_ALL = 'pattern = "*"\naction = "deny"\n'


def write(tmp_path: Path, text: str) -> Path:
    config = tmp_path / "tooldeck.toml"
    config.write_text(f'[tools.audit]\npath = "{tmp_path / "audit.jsonl"}"\n{text}',
                      encoding="utf-8")
    return config


@pytest.mark.parametrize(("table", "hint"), [
    ("Bash", "did you mean 'bash'? Tool ids are case-sensitive"),
    ("GREP", "did you mean 'grep'?"),
    ("grpe", "did you mean 'grep'?"),
    ("list_directroy", "did you mean 'list_directory'?"),
    ("zzqx", "the closest defined tool id is "),
])
def test_a_table_for_an_unknown_tool_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, hint: str
) -> None:
    config = write(tmp_path, f"[[tools.permissions.{table}]]\n{DENY_ALL}")
    with pytest.raises(ConfigError) as caught:
        Deck.from_config(config, environ={})
    message = str(caught.value)
    assert message.startswith(f"{config}: tools.permissions.{table}: unknown tool {table!r}")
    assert hint in message
    assert caught.value.key == f"tools.permissions.{table}"
    assert caught.value.path == str(config)
    assert main(["config", "check", str(config)]) == 2
    assert f"tools.permissions.{table}: unknown tool" in capsys.readouterr().err


def test_tools_a_setting_leaves_out_may_still_have_rules(tmp_path: Path) -> None:
    # checkpoints are off: the undo tools are declared, not offered
    config = write(tmp_path, f"[[tools.permissions.shell_undo]]\n{DENY_ALL}")
    deck = Deck.from_config(config, environ={})
    try:
        assert "shell_undo" not in deck.runtime.tools
        assert "shell_undo" in deck.runtime.declared_tools
        result = deck.call_sync(ToolCall("shell_undo", {}))
        assert result.error is not None and result.error.category.label == "tool_not_found"
    finally:
        deck.close()


def test_rules_of_a_disabled_plugin_are_kept_with_a_warning(tmp_path: Path) -> None:
    config = write(tmp_path, '[plugins]\ndisable = ["web"]\n'
                             f"[[tools.permissions.fetch]]\n{DENY_ALL}")
    deck = Deck.from_config(config, environ={})
    try:
        (warning,) = [w for w in deck.runtime.warnings if "tools.permissions" in w]
        assert warning == (f"{config}: tools.permissions.fetch: no running plugin defines tool "
                           "'fetch'; the rules are kept for the plugins not running (web)")
    finally:
        deck.close()


def test_a_typo_of_a_running_tool_is_refused_even_with_a_plugin_disabled(
    tmp_path: Path,
) -> None:
    config = write(tmp_path, '[plugins]\ndisable = ["web"]\n'
                             f"[[tools.permissions.Bash]]\n{DENY_ALL}")
    with pytest.raises(ConfigError, match="did you mean 'bash'"):
        Deck.from_config(config, environ={})


def test_a_reload_with_a_misspelt_table_keeps_the_policy(tmp_path: Path) -> None:
    config = write(tmp_path, f"[[tools.permissions.bash]]\n{DENY_ALL}")
    deck = Deck.from_config(config, environ={})
    try:
        config.write_text(config.read_text().replace("permissions.bash", "permissions.Bash"))
        assert asyncio.run(deck.reload()) is False
        assert "tools.permissions.Bash: unknown tool 'Bash'" in (deck.last_reload_error or "")
        result = deck.call_sync(ToolCall("bash", {"command": "echo hi"}))
        assert result.error is not None and result.error.category.label == "policy_blocked"
    finally:
        deck.close()


def test_the_embedded_default_names_only_defined_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    doc = load_document()
    assert doc.text == embedded_default_text()
    deck = Deck.from_config(doc, environ={})
    try:
        assert not [w for w in deck.runtime.warnings if "tools.permissions" in w]
        tables = deck.runtime.settings.get(PermissionSettings).root
        assert "shell_undo" in tables
        assert set(tables) <= deck.runtime.declared_tools
    finally:
        deck.close()


def test_closest_tool() -> None:
    known = ["bash", "bash_status", "grep", "read"]
    assert closest_tool("BASH", known) == ("bash", True)
    assert closest_tool("bsah", known) == ("bash", True)
    assert closest_tool("qqqqqqq", known)[1] is False
    assert closest_tool("x", []) == (None, False)
