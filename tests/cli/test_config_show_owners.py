"""``tooldeck config show`` names the owner of every section and the source of every key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooldeck.cli import main


def show(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    capsys.readouterr()
    assert main(["config", "show", "--json", *args]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_every_section_has_its_owner_and_every_key_its_source(
        in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (in_tmp / "my.toml").write_text("[tools.result_cache]\nttl_secs = 60\n")
    monkeypatch.setenv("TOOLDECK_TOOLS_EGRESS_LOG_BLOCKED", "false")
    data = show(capsys, "--config", "my.toml")
    owners = data["owners"]
    sections = data["sections"]
    assert isinstance(owners, dict) and isinstance(sections, dict)
    assert set(owners) == set(sections)
    assert owners["tools.result_cache"] == {"plugin": "result_cache", "kind": "built-in"}
    assert owners["tools.egress"] == {"plugin": "egress", "kind": "built-in"}
    assert owners["tools.audit"] == {"plugin": "core", "kind": "core"}
    cache = sections["tools.result_cache"]
    assert cache["ttl_secs"] == {"value": 60, "source": "my.toml"}
    assert cache["enabled"] == {"value": True, "source": "default"}
    assert sections["tools.egress"]["log_blocked"] == {
        "value": False, "source": "$TOOLDECK_TOOLS_EGRESS_LOG_BLOCKED"}


def test_a_disabled_plugins_section_is_shown_unowned(
        in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (in_tmp / "my.toml").write_text(
        '[plugins]\ndisable = ["result_cache"]\n[tools.result_cache]\nttl_secs = 60\n')
    data = show(capsys, "--config", "my.toml")
    assert data["owners"]["tools.result_cache"] == {"plugin": "", "kind": "unowned"}  # type: ignore[index]
    capsys.readouterr()
    assert main(["config", "show", "--config", "my.toml"]) == 0
    text = capsys.readouterr().out
    assert "[tools.result_cache]  # not validated: no enabled plugin owns it" in text
    assert "[tools.egress]  # plugin egress (built-in)" in text
