"""Tables validated by pydantic with dotted-key messages, trusted building, the rule schema."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from typing import Annotated, Any

import pytest
from annotated_types import Ge, MinLen

from tooldeck.filters.dedup import DedupParams, NormalizeRule
from tooldeck.filters.rules import MatchSpec, RuleSpec, RuleTest, parse_rules
from tooldeck.filters.strategy import StrategyConfigError, StrategyParams, StrategyRegistry
from tooldeck.filters.tables import TableError, build_table, validate_table
from tooldeck.filters.truncate import TruncateParams


@dataclasses.dataclass(frozen=True, kw_only=True)
class Inner(StrategyParams):
    size: Annotated[int, Ge(1)]


@dataclasses.dataclass(frozen=True, kw_only=True)
class Outer(StrategyParams):
    count: Annotated[int, Ge(0)] = 0
    names: Annotated[list[str], MinLen(0)] = dataclasses.field(default_factory=list)
    flag: bool = False
    code: int | None = None
    inner: Inner | None = None
    items: list[Inner] = dataclasses.field(default_factory=list)


def problem(cls: type[Any], table: object) -> str:
    with pytest.raises(TableError) as caught:
        validate_table(cls, table)
    return str(caught.value)


def test_a_valid_table_builds_the_class() -> None:
    built = validate_table(Outer, {"count": 2, "names": ["a"], "flag": True, "code": None,
                                   "items": [{"size": 1}, {"size": 2}]})  # fmt: skip
    assert built == Outer(count=2, names=["a"], flag=True, items=[Inner(size=1), Inner(size=2)])
    assert validate_table(Outer, {"inner": {"size": 3}}).inner == Inner(size=3)


def test_defaults_apply_to_an_empty_table() -> None:
    assert validate_table(Outer, {}) == Outer()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"count": -1}, "count: Input should be greater than or equal to 0, got -1"),
        ({"count": 1.5}, "count: Input should be a valid integer, got a number with a "
                         "fractional part, got 1.5"),
        ({"names": "a"}, "names: Input should be a valid list, got 'a'"),
        ({"names": ["a", 2]}, "names.1: Input should be a valid string, got 2"),
        ({"items": [{"size": 0}]},
         "items.0.size: Input should be greater than or equal to 1, got 0"),
        ({"items": [{}]}, "items.0.size: missing (required)"),
        ({"inner": {"sise": 1}},
         "inner.size: missing (required); inner.sise: unknown key (expected one of: size)"),
    ],
)  # fmt: skip
def test_each_problem_names_its_key(table: dict[str, Any], message: str) -> None:
    assert problem(Outer, table) == message


def test_every_problem_is_reported_at_once() -> None:
    message = problem(Outer, {"cont": 1, "count": -1, "flag": "maybe"})
    assert "cont: unknown key (expected one of: code, count, flag, inner, items, names)" in message
    assert "count: Input should be greater than or equal to 0, got -1" in message
    assert "flag: Input should be a valid boolean" in message


def test_a_missing_required_key_is_named() -> None:
    assert problem(TruncateParams, {"head": 1}) == "max_lines: missing (required)"


def test_something_other_than_a_table_is_rejected() -> None:
    assert problem(Outer, ["count"]) == "expected a table, got a list"


def test_cross_field_checks_run_after_the_fields() -> None:
    assert problem(TruncateParams, {"max_lines": 10, "head": 8, "tail": 5}) == (
        "head (8) + tail (5) must not exceed max_lines (10)"
    )
    with pytest.raises(TableError, match=r"normalize_patterns.0: replacement '\$1' contains"):
        validate_table(DedupParams, {"normalize_patterns": [{"pattern": "x",
                                                             "replacement": "$1"}]})


def test_strategy_params_from_table_raises_strategy_config_error() -> None:
    with pytest.raises(StrategyConfigError, match="max_lines: missing"):
        TruncateParams.from_table({})
    assert TruncateParams.from_table({"max_lines": 5, "head": 1, "tail": 1}).tail == 1


def test_dedup_nested_tables_are_built() -> None:
    params = DedupParams.from_table({"normalize_patterns": [{"pattern": "x", "replacement": "y"}]})
    assert params.normalize_patterns == [NormalizeRule(pattern="x", replacement="y")]
    assert len(DedupParams().normalize_patterns) == 4


def test_a_pydantic_model_is_reported_the_same_way() -> None:
    import pydantic

    class Model(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(extra="forbid")
        level: int = 1

    assert problem(Model, {"level": "high", "lvl": 1}) == (
        "level: Input should be a valid integer, unable to parse string as an integer, "
        "got 'high'; lvl: unknown key (expected one of: level)"
    )


def test_trusted_building_builds_nested_tables_without_pydantic() -> None:
    code = (
        "import sys\n"
        "from tooldeck.filters.dedup import DedupParams, NormalizeRule\n"
        "from tooldeck.filters.tables import build_table\n"
        "p = build_table(DedupParams, {'normalize_patterns': [{'pattern': 'x', "
        "'replacement': 'y'}]})\n"
        "assert p.normalize_patterns == [NormalizeRule(pattern='x', replacement='y')]\n"
        "print({'pydantic', 'annotated_types'} & set(sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "set()"
    with pytest.raises(ValueError, match="must not exceed"):
        build_table(TruncateParams, {"max_lines": 1, "head": 5})


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
         "name: String should have at least 1 character, got ''"),
        ('name = "r"\nmatch = { prefix = 1 }\nstrategy = { type = "truncate" }',
         "match.prefix: Input should be a valid string, got 1"),
        ('name = "r"\nmatch = { prefix = "x" }\nstrategy = "truncate"',
         "strategy: Input should be a valid dictionary, got 'truncate'"),
        ('name = "r"\nmatch = { prefix = "x" }\nstrategy = { type = "truncate" }\nlabel = "x"',
         "label: unknown key (expected one of: enabled, match, name, strategy, tests)"),
        ('name = "r"\nmatch = { prefix = "x" }\nstrategy = { type = "truncate" }\n'
         'tests = [{ input = "a" }]',
         "tests.0.expected: missing (required)"),
        ('name = "r"\nmatch = { prefix = "x", exact = "x" }\nstrategy = { type = "truncate" }',
         "match: match config must have exactly one of: exact, prefix, regex"),
    ],
)  # fmt: skip
def test_rule_problems_name_the_key_path(
    registry: StrategyRegistry, rule: str, message: str
) -> None:
    loaded = parse_rules(f"[[rules]]\n{rule}\n", registry, source="f.toml")
    assert loaded.rules == ()
    label = "'r'" if 'name = "r"' in rule else "''"
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
    message = problem(Outer, {"names": "x" * 100})
    assert message == f"names: Input should be a valid list, got '{'x' * 49}… (102 characters)"
