"""The dedupe_adjacent type and its journalctl rule through a real deck's filter engine."""

from __future__ import annotations

from tooldeck.filters.plugin import ENGINE
from tooldeck.filters.verify import verify_rules

ENABLED = """
    [plugins]
    enable = ["dedupe_adjacent"]
"""

JOURNAL = "\n".join(["-- Boot 1 --", *["kernel: eth0: link up"] * 120, "systemd: Started."])
"""Long enough to be cut: shorter outputs (2 KB, 20 lines) reach the model whole."""


def test_the_journalctl_rule_collapses_runs(make_deck) -> None:
    engine = make_deck(ENABLED).runtime.stash_get(ENGINE)
    result = engine.apply("journalctl -b", JOURNAL, 0)
    assert "journalctl-dedupe" in result.rules
    assert "kernel: eth0: link up (x120)" in result.output


def test_the_rule_ships_with_the_plugin_and_its_tests_pass(make_deck) -> None:
    engine = make_deck(ENABLED).runtime.stash_get(ENGINE)
    mine = [rule for rule in engine.rules if rule.source == "plugin dedupe_adjacent"]
    assert [rule.name for rule in mine] == ["journalctl-dedupe"]
    assert verify_rules(mine) == []


def test_a_user_file_can_switch_it_off(make_deck, tmp_path) -> None:
    (tmp_path / "filters.toml").write_text('[[rules]]\nname = "journalctl-dedupe"\n'
                                           "enabled = false\n")
    engine = make_deck(ENABLED + f'\n    [tools.filters]\n    filters_path = '
                                 f'"{tmp_path / "filters.toml"}"\n').runtime.stash_get(ENGINE)
    assert "journalctl-dedupe" not in [rule.name for rule in engine.rules]
