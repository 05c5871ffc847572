"""Parameter classes without pydantic: ``from_table``, the validators, and the rule schema."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tooldeck.filters.dedup import DedupParams, NormalizeRule
from tooldeck.filters.params import (
    TableError,
    boolean,
    from_table,
    integer,
    nested,
    nested_list,
    optional_integer,
    string_list,
)
from tooldeck.filters.rules import MatchSpec, RuleSpec, RuleTest, parse_rules
from tooldeck.filters.strategy import StrategyConfigError, StrategyParams, StrategyRegistry
from tooldeck.filters.truncate import TruncateParams


@attrs.frozen(kw_only=True)
class Inner(StrategyParams):
    size: int = attrs.field(validator=integer(minimum=1))


@attrs.frozen(kw_only=True)
class Outer(StrategyParams):
    count: int = attrs.field(default=0, validator=integer(minimum=0))
    names: list[str] = attrs.field(factory=list, validator=string_list(min_length=0))
    flag: bool = attrs.field(default=False, validator=boolean)
    code: int | None = attrs.field(default=None, validator=optional_integer)
    inner: Inner | None = attrs.field(default=None, validator=nested(Inner, optional=True))
    items: list[Inner] = attrs.field(factory=list, validator=nested_list(Inner))


def problem(cls: type[Any], table: object) -> str:
    with pytest.raises(TableError) as caught:
        from_table(cls, table)
    return str(caught.value)


def test_a_valid_table_builds_the_class() -> None:
    built = from_table(Outer, {"count": 2, "names": ["a"], "flag": True, "code": None,
                               "items": [{"size": 1}, {"size": 2}]})  # fmt: skip
    assert built == Outer(count=2, names=["a"], flag=True, items=[Inner(size=1), Inner(size=2)])
    assert from_table(Outer, {"inner": {"size": 3}}).inner == Inner(size=3)


def test_defaults_apply_to_an_empty_table() -> None:
    assert from_table(Outer, {}) == Outer()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"count": True}, "count: expected an integer >= 0, got True"),
        ({"count": "3"}, "count: expected an integer >= 0, got '3'"),
        ({"count": -1}, "count: expected an integer >= 0, got -1"),
        ({"count": 1.5}, "count: expected an integer >= 0, got 1.5"),
        ({"names": "a"}, "names: expected a list of strings, got 'a'"),
        ({"names": ["a", 2]}, "names.1: expected a string, got 2"),
        ({"flag": 1}, "flag: expected true or false, got 1"),
        ({"code": False}, "code: expected an integer, got False"),
        ({"items": {"size": 1}}, "items: expected a list of tables, got a dict"),
        ({"items": [{"size": 1}, "x"]}, "items.1: expected a table, got 'x'"),
        ({"items": [{"size": 0}]}, "items.0.size: expected an integer >= 1, got 0"),
        ({"items": [{}]}, "items.0.size: missing (required)"),
        ({"inner": 3}, "inner: expected a table, got 3"),
        ({"inner": {"sise": 1}},
         "inner.sise: unknown key (expected one of: size); inner.size: missing (required)"),
    ],
)  # fmt: skip
def test_each_problem_names_its_key(table: dict[str, Any], message: str) -> None:
    assert problem(Outer, table) == message


def test_every_problem_is_reported_at_once() -> None:
    message = problem(Outer, {"cont": 1, "count": -1, "flag": "yes"})
    assert message == (
        "cont: unknown key (expected one of: code, count, flag, inner, items, names);"
        " count: expected an integer >= 0, got -1; flag: expected true or false, got 'yes'"
    )


def test_a_missing_required_key_is_named() -> None:
    assert problem(TruncateParams, {"head": 1}) == "max_lines: missing (required)"


def test_something_other_than_a_table_is_rejected() -> None:
    assert problem(Outer, ["count"]) == "expected a table, got a list"


def test_cross_field_checks_run_after_the_fields() -> None:
    assert problem(TruncateParams, {"max_lines": 10, "head": 8, "tail": 5}) == (
        "head (8) + tail (5) must not exceed max_lines (10)"
    )


def test_direct_construction_is_validated_too() -> None:
    with pytest.raises(TableError, match="max_lines: expected an integer >= 1, got 0"):
        TruncateParams(max_lines=0)
    with pytest.raises(TableError, match=r"replacement: '\$1' contains an unescaped"):
        NormalizeRule(pattern="x", replacement="$1")


def test_strategy_params_from_table_raises_strategy_config_error() -> None:
    with pytest.raises(StrategyConfigError, match="max_lines: missing"):
        TruncateParams.from_table({})
    assert TruncateParams.from_table({"max_lines": 5, "head": 1, "tail": 1}).tail == 1


def test_dedup_nested_tables_are_built() -> None:
    params = DedupParams.from_table({"normalize_patterns": [{"pattern": "x", "replacement": "y"}]})
    assert params.normalize_patterns == [NormalizeRule(pattern="x", replacement="y")]
    assert len(DedupParams().normalize_patterns) == 4


def test_a_third_party_attrs_validator_is_reported_with_its_key() -> None:
    @attrs.frozen(kw_only=True)
    class Checked:
        level: int = attrs.field(default=1, validator=attrs.validators.instance_of(int))

    message = problem(Checked, {"level": "high"})
    assert message.startswith("level: ") and "'level' must be <class 'int'>" in message


# --- the rule schema ---------------------------------------------------------------------


def test_rule_spec_from_a_full_table() -> None:
    spec = RuleSpec.from_table({
        "name": "r", "match": {"prefix": "make"}, "strategy": {"type": "truncate"},
        "enabled": False, "tests": [{"input": "a", "expected": "b", "exit_code": None}],
    })  # fmt: skip
    assert spec == RuleSpec(
        name="r", match=MatchSpec(prefix="make"), strategy={"type": "truncate"}, enabled=False,
        tests=[RuleTest(input="a", expected="b", exit_code=None)],
    )  # fmt: skip
    assert spec.tests[0].command is None


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ('name = ""\nmatch = { prefix = "x" }\nstrategy = { type = "truncate" }',
         "name: expected a non-empty string, got ''"),
        ('name = "r"\nmatch = "x"\nstrategy = { type = "truncate" }',
         "match: expected a table, got 'x'"),
        ('name = "r"\nmatch = { prefix = 1 }\nstrategy = { type = "truncate" }',
         "match.prefix: expected a string, got 1"),
        ('name = "r"\nmatch = { prefix = "x" }\nstrategy = "truncate"',
         "strategy: expected a table, got 'truncate'"),
        ('name = "r"\nmatch = { prefix = "x" }\nstrategy = { type = "truncate" }\nenabled = 1',
         "enabled: expected true or false, got 1"),
        ('name = "r"\nmatch = { prefix = "x" }\nstrategy = { type = "truncate" }\nlabel = "x"',
         "label: unknown key (expected one of: enabled, match, name, strategy, tests)"),
        ('name = "r"\nmatch = { prefix = "x" }\nstrategy = { type = "truncate" }\n'
         'tests = [{ input = "a" }, { input = "a", expected = "b", exit_code = "1" }]',
         "tests.0.expected: missing (required);"
         " tests.1.exit_code: expected an integer, got '1'"),
        ('match = { prefix = "x", exact = "x" }\nstrategy = { type = "truncate" }',
         "name: missing (required);"
         " match: match config must have exactly one of: exact, prefix, regex"),
    ],
)  # fmt: skip
def test_rule_problems_name_the_key_path(
    registry: StrategyRegistry, rule: str, message: str
) -> None:
    loaded = parse_rules(f"[[rules]]\n{rule}\n", registry, source="f.toml")
    assert loaded.rules == ()
    label = "'r'" if 'name = "r"' in rule else ("''" if 'name = ""' in rule else "#1")
    assert loaded.warnings == (f"f.toml: skipping rule {label}: {message}",)


def test_a_rule_that_is_not_a_table_is_skipped(registry: StrategyRegistry) -> None:
    loaded = parse_rules('rules = ["x"]\n', registry, source="f.toml")
    assert loaded.warnings == ("f.toml: skipping rule #1: expected a table, got 'x'",)


def test_strategy_problems_keep_the_strategy_prefix(registry: StrategyRegistry) -> None:
    text = '[[rules]]\nname = "r"\nmatch = { prefix = "x" }\nstrategy = { type = "truncate" }\n'
    assert parse_rules(text, registry, source="f.toml").warnings == (
        "f.toml: skipping rule 'r': strategy 'truncate': max_lines: missing (required)",
    )


def test_a_long_value_is_shortened_in_the_message() -> None:
    message = problem(Outer, {"count": "x" * 100})
    assert message == f"count: expected an integer >= 0, got '{'x' * 49}… (102 characters)"
