"""A failing ``[[rules.tests]]`` in the user's filters.toml refuses the policy, load or reload."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tooldeck.errors import ConfigError
from tooldeck.filters.plugin import ENGINE

from .deckkit import ExecToolPlugin, open_deck

RULE = """
[[rules]]
name = "quiet-build"
match = {{ prefix = "build" }}
strategy = {{ type = "strip_noise", patterns = ['^{noise} '] }}

[[rules.tests]]
input = '''
{noise} one
result
'''
expected = '''
result
{stats}
'''
"""
GOOD = RULE.format(noise="NOISE", stats='(1 noise lines removed, like "NOISE one")')
BAD = RULE.format(noise="NOISE", stats='(2 noise lines removed, like "NOISE one")')  # wrong count


def _save(path: Path, text: str) -> None:
    staging = path.with_name(f".{path.name}.tmp")
    staging.write_text(text, encoding="utf-8")
    os.replace(staging, path)


def test_a_failing_rule_test_refuses_the_policy(tmp_path: Path) -> None:
    _save(tmp_path / "filters.toml", BAD)
    with pytest.raises(ConfigError, match=r"rules\['quiet-build'\]\.tests\[0\]: .*output differs"):
        open_deck(tmp_path, "[tools.filters]\nfilters_path = 'filters.toml'\n",
                  tool=ExecToolPlugin())


async def test_a_failing_rule_test_blocks_a_reload_and_the_old_rules_keep_filtering(
        tmp_path: Path) -> None:
    rules = tmp_path / "filters.toml"
    _save(rules, GOOD)
    deck = open_deck(tmp_path, "[tools.filters]\nfilters_path = 'filters.toml'\n",
                     tool=ExecToolPlugin())
    try:
        before = deck.runtime.stash_get(ENGINE)
        _save(rules, BAD.replace("quiet-build", "quiet-build-2"))
        assert await deck.reload() is False
        assert "quiet-build-2" in (deck.last_reload_error or "")
        engine = deck.runtime.stash_get(ENGINE)
        assert engine is before
        assert "quiet-build" in [r.name for r in engine.rules]
        assert "quiet-build-2" not in [r.name for r in engine.rules]
    finally:
        await deck.aclose()


def test_policy_test_runs_the_filter_rule_tests(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from tooldeck.cli import main

    _save(tmp_path / "filters.toml", GOOD)
    config = tmp_path / "tooldeck.toml"
    config.write_text("[tools.filters]\nfilters_path = 'filters.toml'\n", encoding="utf-8")
    assert main(["policy", "test", str(config), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["plugin_examples"]["filter rule tests"] == 1
    assert main(["policy", "test", str(config)]) == 0
    assert ", 1 filter rule tests" in capsys.readouterr().out
    _save(tmp_path / "filters.toml", BAD)
    assert main(["policy", "test", str(config)]) == 1
    assert "rules['quiet-build'].tests[0]: rule 'quiet-build' test #1: output differs" in (
        capsys.readouterr().out)
