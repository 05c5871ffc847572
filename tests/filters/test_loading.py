"""Zeph §4.3 loading rows, the 512-character and RE2 limits, and per-rule error isolation."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.errors import ConfigError
from tooldeck.filters.patterns import PatternError, compile_pattern
from tooldeck.filters.rules import builtin_rules, load_rules, parse_rules
from tooldeck.filters.strategy import StrategyRegistry

ONE_RULE = """
[[rules]]
name = "npm-quiet"
match = { prefix = "npm" }
strategy = { type = "strip_noise", patterns = ['^npm warn', '^npm notice'] }
"""


def test_no_path_gives_builtin_rules(registry: StrategyRegistry) -> None:
    loaded = load_rules(None, registry)
    assert len(loaded.rules) >= 25
    assert loaded.warnings == ()


def test_directory_without_file_gives_builtin_rules(
    registry: StrategyRegistry, tmp_path: Path
) -> None:
    assert len(load_rules(tmp_path, registry).rules) >= 25


def test_user_file_extends_builtin_rules(registry: StrategyRegistry, tmp_path: Path) -> None:
    # issue 20: one rule for one more tool must not switch off git log filtering
    (tmp_path / "filters.toml").write_text(ONE_RULE)
    builtin = [rule.name for rule in builtin_rules(registry).rules]
    for where in (tmp_path, tmp_path / "filters.toml"):
        loaded = load_rules(where, registry)
        assert [rule.name for rule in loaded.rules] == [*builtin, "npm-quiet"]
        assert loaded.rules[-1].source == str(tmp_path / "filters.toml")
        assert {r.source for r in loaded.rules[:-1]} == {"builtin"}


def test_replace_builtin_keeps_only_the_users_rules(registry: StrategyRegistry,
                                                    tmp_path: Path) -> None:
    (tmp_path / "filters.toml").write_text("replace_builtin = true\n" + ONE_RULE)
    assert [rule.name for rule in load_rules(tmp_path, registry).rules] == ["npm-quiet"]


def test_a_user_rule_overrides_or_switches_off_a_builtin_by_name(
        registry: StrategyRegistry, tmp_path: Path) -> None:
    builtin = [rule.name for rule in builtin_rules(registry).rules]
    first, second = builtin[0], builtin[1]
    override = ONE_RULE.replace('name = "npm-quiet"', f'name = "{first}"')
    (tmp_path / "filters.toml").write_text(
        override + f'\n[[rules]]\nname = "{second}"\nenabled = false\n')
    loaded = load_rules(tmp_path, registry)
    names = [rule.name for rule in loaded.rules]
    assert second not in names and names[0] == first
    assert loaded.rules[0].source == str(tmp_path / "filters.toml")


def test_disabled_rule_is_skipped(registry: StrategyRegistry) -> None:
    text = ONE_RULE + "enabled = false\n"
    assert parse_rules(text, registry).rules == ()


def test_file_of_one_mib_falls_back_to_builtin(registry: StrategyRegistry, tmp_path: Path) -> None:
    (tmp_path / "filters.toml").write_text(ONE_RULE + "# filler\n" * 120_000)
    loaded = load_rules(tmp_path, registry)
    assert len(loaded.rules) >= 25
    assert "exceeds 1 MiB limit" in loaded.warnings[0]


def test_invalid_toml_gives_no_rules(registry: StrategyRegistry, tmp_path: Path) -> None:
    (tmp_path / "filters.toml").write_text("[[invalid toml {{{")
    loaded = load_rules(tmp_path, registry)
    assert loaded.rules == ()
    assert "invalid TOML" in loaded.warnings[0]


def test_parse_rules_raises_config_error_naming_the_file(registry: StrategyRegistry) -> None:
    with pytest.raises(ConfigError, match=r"my\.toml"):
        parse_rules("[[x", registry, source="my.toml")


def test_broken_rule_is_skipped_with_a_warning_naming_it(registry: StrategyRegistry) -> None:
    text = """
[[rules]]
name = "broken"
match = { regex = "[broken" }
strategy = { type = "truncate", max_lines = 50 }

[[rules]]
name = "good"
match = { prefix = "make" }
strategy = { type = "truncate", max_lines = 50 }
"""
    loaded = parse_rules(text, registry, source="filters.toml")
    assert [rule.name for rule in loaded.rules] == ["good"]
    assert loaded.warnings[0].startswith("filters.toml: skipping rule 'broken':")


def test_empty_toml_gives_zero_rules(registry: StrategyRegistry) -> None:
    assert parse_rules("", registry).rules == ()


def test_custom_npm_rule_filters(registry: StrategyRegistry) -> None:
    rule = parse_rules(ONE_RULE, registry).rules[0]
    output = rule.strategy.apply("npm notice a\nnpm notice update\nDone installing").output
    assert output.split("\n") == ["Done installing", '(2 noise lines removed, like "npm notice a")']


def test_recompiling_a_rule_gives_identical_outputs(registry: StrategyRegistry) -> None:
    raw = "npm warn a\nkept\nnpm notice b"
    first = parse_rules(ONE_RULE, registry).rules[0].strategy.apply(raw)
    second = parse_rules(ONE_RULE, registry).rules[0].strategy.apply(raw)
    assert first == second


@pytest.mark.parametrize(
    ("match", "problem"),
    [
        ("{}", "exactly one of: exact, prefix, regex"),
        ('{ exact = "a", prefix = "b" }', "exactly one of: exact, prefix, regex"),
        ('{ regex = "[invalid" }', "cannot be compiled by RE2"),
        ('{ regex = "(a)\\\\1" }', "backreferences and lookaround are not supported"),
        ('{ regex = "foo(?=bar)" }', "invalid perl operator"),
        (f'{{ regex = "{"a" * 513}" }}', "limit is 512"),
    ],
)
def test_invalid_match_tables(registry: StrategyRegistry, match: str, problem: str) -> None:
    strategy = '{ type = "truncate", max_lines = 50 }'
    text = f'[[rules]]\nname = "r"\nmatch = {match}\nstrategy = {strategy}\n'
    loaded = parse_rules(text, registry)
    assert loaded.rules == ()
    assert problem in loaded.warnings[0]
    assert "'r'" in loaded.warnings[0]


def test_regex_of_exactly_512_chars_is_accepted() -> None:
    assert compile_pattern("a" * 512).search("a" * 512) is not None


def test_regex_of_513_chars_is_rejected() -> None:
    with pytest.raises(PatternError, match="512"):
        compile_pattern("a" * 513)


def test_unknown_strategy_type_lists_known_types(registry: StrategyRegistry) -> None:
    text = '[[rules]]\nname = "x"\nmatch = { prefix = "x" }\nstrategy = { type = "nope" }\n'
    warning = parse_rules(text, registry).warnings[0]
    assert "unknown strategy type 'nope'" in warning and "truncate" in warning


def test_redos_pattern_runs_in_linear_time(registry: StrategyRegistry) -> None:
    text = """
[[rules]]
name = "evil"
match = { prefix = "x" }
strategy = { type = "strip_noise", patterns = ['^(a+)+$'] }
"""
    strategy = parse_rules(text, registry).rules[0].strategy
    result = strategy.apply("a" * 50_000 + "b\nkept")
    assert result.output.startswith("a")
