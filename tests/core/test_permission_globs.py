"""Properties of the permission glob translation (hypothesis)."""

from __future__ import annotations

import re2
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tooldeck.errors import ConfigError
from tooldeck.permission_rules import PermissionRule, StarGlob, compile_rules, glob_to_regex

META = "*?[\\"
ASCII_LITERAL = st.text(
    alphabet=st.characters(codec="ascii", exclude_characters=META), max_size=24
)
UNICODE_LITERAL = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters=META), max_size=24
)
GLOBBY = st.text(alphabet=st.sampled_from([*META, "]", "!", "^", "-", "a", "Z", "/", "\n", "."]),
                 max_size=16)


def full_match(pattern: str, text: str) -> bool:
    return re2.search(glob_to_regex(pattern), text) is not None


@settings(max_examples=250, deadline=None)
@given(st.one_of(st.text(), GLOBBY))
def test_translation_raises_nothing_but_value_error(pattern: str) -> None:
    try:
        translated = glob_to_regex(pattern)
    except ValueError:
        return
    assert translated.startswith("(?is)^") and translated.endswith("$")


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(min_size=1, max_size=64), GLOBBY.filter(bool)))
def test_compiling_a_rule_raises_nothing_but_config_error(pattern: str) -> None:
    rule = PermissionRule(pattern=pattern, action="allow")
    try:
        (compiled,) = compile_rules("bash", [rule], "policy.toml")
    except ConfigError as exc:
        assert "tools.permissions.bash[0]: invalid pattern" in str(exc)
        return
    assert isinstance(compiled.matches("anything"), bool)


@settings(max_examples=250, deadline=None)
@given(ASCII_LITERAL, ASCII_LITERAL)
def test_literal_pattern_matches_exactly_the_case_insensitively_equal_text(
    pattern: str, text: str
) -> None:
    assert full_match(pattern, text) is (pattern.lower() == text.lower())


@settings(max_examples=200, deadline=None)
@given(UNICODE_LITERAL)
@example("\u0131")  # dotless i: found by hypothesis
def test_literal_pattern_matches_itself_in_any_case(pattern: str) -> None:
    assert full_match(pattern, pattern)
    # "any case" is Unicode case folding: dotless i (U+0131) upper-cases to 'I', but 'I'
    # folds to 'i', not back to U+0131
    same_when_folded = pattern.upper().casefold() == pattern.casefold()
    assert full_match(pattern.upper(), pattern) or not same_when_folded \
        or len(pattern.upper()) != len(pattern)
    assert not full_match(pattern, pattern + "x")


@settings(max_examples=200, deadline=None)
@given(ASCII_LITERAL, st.text(max_size=24), st.text(max_size=24))
def test_star_on_both_sides_is_substring_search(
    needle: str, before: str, after: str
) -> None:
    assert full_match(f"*{needle}*", before + needle + after)


STAR_ONLY = st.lists(st.sampled_from(["*", "a", "b", "ab", " ", "sudo", "é"]), max_size=6).map(
    "".join
)


@settings(max_examples=500, deadline=None)
@given(STAR_ONLY, st.text(alphabet="abé *sudo", max_size=16))
def test_star_glob_agrees_with_the_regex_translation(pattern: str, text: str) -> None:
    """The str-method matcher of ``*``-only globs (``*lit*`` a substring test) equals RE2."""
    assert StarGlob(pattern).search(text.lower()) is full_match(pattern, text)
