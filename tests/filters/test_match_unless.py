"""A rule's ``match.unless``: a command the rule's pattern matches is still not the rule's."""

from __future__ import annotations

import pytest

from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.matcher import CommandMatcher, MatchKind, matcher_set
from tooldeck.filters.patterns import PatternError
from tooldeck.filters.rules import MatchSpec


def test_unless_takes_a_matching_command_away_from_every_kind_of_match() -> None:
    unless = r"\s--(co|fixtures)(\s|$)"
    for spec in (MatchSpec(regex=r"^pytest(\s|$)", unless=unless),
                 MatchSpec(prefix="pytest", unless=unless),
                 MatchSpec(exact="pytest --co", unless=unless)):
        matcher = spec.matcher()
        assert not matcher.matches_segment("pytest --co")
    matcher = MatchSpec(regex=r"^pytest(\s|$)", unless=unless).matcher()
    assert matcher.matches_segment("pytest -q tests/test_co.py")
    assert matcher.matches_segment("pytest --cov=src")  # a longer flag is another flag
    assert not matcher.matches_segment("pytest -q --fixtures")


def test_the_one_pass_set_honours_unless_like_each_matcher() -> None:
    matchers = [CommandMatcher(MatchKind.REGEX, r"^pytest(\s|$)", r"\s--co(\s|$)"),
                CommandMatcher(MatchKind.REGEX, r"^pytest\s.*--co(\s|$)"),
                CommandMatcher(MatchKind.PREFIX, "pytest")]
    found = matcher_set(matchers)
    assert found is not None
    for segment in ("pytest --co", "pytest -q", "pytest -q --co tests", "pytest --cov"):
        assert found.matching(segment) == [
            index for index, matcher in enumerate(matchers) if matcher.matches_segment(segment)
        ], segment


def test_an_invalid_unless_pattern_is_rejected() -> None:
    with pytest.raises(PatternError, match="match unless"):
        MatchSpec(regex="^x", unless="(").matcher()


@pytest.mark.parametrize("command", [
    "pytest --collect-only -q", "python -m pytest --co", "uv run pytest --fixtures",
    "pytest -p no:cacheprovider --markers", "cd proj && pytest --fixtures-per-test tests/a.py",
])
def test_pytest_listing_modes_are_listings_not_test_runs(command: str) -> None:
    rules = [rule.name for rule in FilterEngine.from_settings().matching_rules(command)]
    assert "pytest-listing" in rules and "pytest" not in rules


def test_a_collected_test_list_is_shown_whole_up_to_a_listing_size() -> None:
    # the tests a project has: the listing the command asked for, not a report on a run
    ids = [f"tests/test_price.py::test_price_linear[{n}]" for n in range(100)]
    ids += ["tests/test_sku.py::test_catalog_lookup", "", "101 tests collected in 0.31s"]
    text = "\n".join(ids)
    assert FilterEngine.from_settings().apply("pytest --co -q", text, 0).output == text
    assert FilterEngine.from_settings().apply("pytest -q", text, 0).output != text
