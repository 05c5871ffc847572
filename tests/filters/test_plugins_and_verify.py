"""Third-party strategy types registered like the built-ins, and inline rule tests."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pydantic
import pytest

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.rules import Rule, parse_rules
from tooldeck.filters.strategy import (
    Reduction,
    Strategy,
    StrategyConfigError,
    StrategyParams,
    StrategyRegistrationError,
    StrategyRegistry,
)
from tooldeck.filters.verify import verify_rules

from .test_plugin import Shout


class UpperParams(pydantic.BaseModel):
    """A third party's parameters as a pydantic model: still accepted (``model_validate``)."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    suffix: str = "!"


class Upper(Strategy[UpperParams]):
    """A throwaway third-party strategy: upper-cases the output, and drops lines with 'error'."""

    name = "shout"
    Params = UpperParams

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        kept = [line.upper() for line in clean.split("\n") if "error" not in line]
        return Reduction("\n".join(kept) + self.params.suffix, FilterConfidence.FULL)


SHOUT_RULES = """
[[rules]]
name = "shout-echo"
match = { prefix = "echo" }
strategy = { type = "shout", suffix = "?" }

[[rules.tests]]
command = "cd x && echo hi"
input = "hi there"
expected = "HI THERE?"
"""


def test_third_party_strategy_is_registered_and_used(registry: StrategyRegistry) -> None:
    registry.register(Upper, owner="acme-filters")
    loaded = parse_rules(SHOUT_RULES, registry)
    assert loaded.warnings == ()
    result = FilterEngine(loaded.rules).apply_rules("echo hi", "hi there", 0)
    assert (result.output, result.rules) == ("HI THERE?", ("shout-echo",))
    assert verify_rules(loaded.rules) == []
    registry.unregister("shout")
    assert "shout" not in registry.names()


def test_third_party_strategy_cannot_drop_must_keep_lines(registry: StrategyRegistry) -> None:
    registry.register(Upper, owner="acme-filters")
    result = registry.build({"type": "shout"}).apply("good\nan error occurred\nfine", 1)
    assert result.output.endswith("kept from the unfiltered output ---\nan error occurred")
    assert result.restored_lines == 1


def test_unknown_strategy_before_registration(registry: StrategyRegistry) -> None:
    assert "unknown strategy type 'shout'" in parse_rules(SHOUT_RULES, registry).warnings[0]


def test_name_collision_names_both_owners(registry: StrategyRegistry) -> None:
    class Impostor(Upper):
        name = "truncate"

    with pytest.raises(StrategyRegistrationError, match=r"'builtin'.*'acme'"):
        registry.register(Impostor, owner="acme")


def test_registry_lists_the_builtins(registry: StrategyRegistry) -> None:
    assert registry.names() == sorted(
        ["strip_noise", "truncate", "keep_matching", "strip_annotated", "test_summary",
         "group_by_rule", "git_status", "git_diff", "dedup", "fallback"]
    )  # fmt: skip


def test_builtin_inline_tests_pass(rules: tuple[Rule, ...]) -> None:
    assert [failure.describe() for failure in verify_rules(rules)] == []


def test_verify_reports_output_and_match_failures(registry: StrategyRegistry) -> None:
    text = """
[[rules]]
name = "strip"
match = { prefix = "make" }
strategy = { type = "strip_noise", patterns = ['^noise'] }

[[rules.tests]]
input = "noise\\nkept"
expected = "kept"

[[rules.tests]]
command = "cmake ."
input = "x"
expected = "x"
"""
    failures = verify_rules(parse_rules(text, registry).rules)
    assert [(failure.rule, failure.index, failure.reason) for failure in failures] == [
        ("strip", 0, "output differs"),
        ("strip", 1, "command does not match"),
    ]
    assert failures[0].actual == 'kept\n(1 noise lines removed, like "noise")'
    assert "rule 'strip' test #1: output differs" in failures[0].describe()


def test_inline_test_uses_exit_code(registry: StrategyRegistry) -> None:
    text = """
[[rules]]
name = "annotated"
match = { prefix = "cargo" }
strategy = { type = "strip_annotated", patterns = ['^NOISE'] }

[[rules.tests]]
exit_code = 1
input = "error[E1]: a"
expected = "error[E1]: a"
"""
    assert verify_rules(parse_rules(text, registry).rules) == []


def test_plugin_parameters_are_validated(registry: StrategyRegistry) -> None:
    registry.register(Upper)
    bad: dict[str, Any] = {"type": "shout", "suffix": 3}
    with pytest.raises(ValueError, match="suffix"):
        registry.build(bad)


def test_pydantic_params_errors_name_the_strategy_and_the_key(registry: StrategyRegistry) -> None:
    registry.register(Upper, owner="acme-filters")
    with pytest.raises(StrategyConfigError) as caught:
        registry.build({"type": "shout", "suffix": 3, "sufix": "?"})
    message = str(caught.value)
    assert message.startswith("strategy 'shout': ")
    assert "suffix: Input should be a valid string, got 3" in message
    assert "sufix: unknown key (expected one of: suffix)" in message
    assert registry.build({"type": "shout", "suffix": "?"}).params == UpperParams(suffix="?")


def test_dataclass_params_of_a_third_party_are_validated(registry: StrategyRegistry) -> None:
    registry.register(Shout, owner="acme-filters")
    with pytest.raises(StrategyConfigError) as caught:
        registry.build({"type": "shout", "suffix": 3, "sufix": "?"})
    assert str(caught.value) == (
        "strategy 'shout': suffix: Input should be a valid string, got 3;"
        " sufix: unknown key (expected one of: suffix)"
    )
    result = registry.build({"type": "shout", "suffix": "?"}).apply("hi")
    assert result.output == "HI?"


def test_params_neither_dataclass_nor_pydantic_are_refused_at_registration(
    registry: StrategyRegistry,
) -> None:
    class PlainParams(StrategyParams):  # annotations on the base class, not a dataclass
        suffix: str = "!"

    class Plain(Upper):
        name = "plain"
        Params = PlainParams  # type: ignore[assignment]

    with pytest.raises(StrategyRegistrationError, match=r"'plain' of 'acme'.*Params must be"):
        registry.register(Plain, owner="acme")
    assert "plain" not in registry.names()


def test_builtin_strategies_and_rules_do_not_import_pydantic() -> None:
    code = (
        "import sys\n"
        "from tooldeck.filters.registry import default_strategy_registry\n"
        "from importlib import resources\n"
        "from tooldeck.filters.rules import parse_rules\n"
        "text = resources.files('tooldeck.filters').joinpath('builtin_rules.toml')"
        ".read_text()\n"
        "loaded = parse_rules(text, default_strategy_registry(), trusted=True)\n"
        "assert len(loaded.rules) > 40 and not loaded.warnings, loaded.warnings\n"
        "print('pydantic' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
