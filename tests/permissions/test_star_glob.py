"""The ``*``-only fast path decides exactly what the RE2 translation of the glob decides."""

from __future__ import annotations

import re2
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.models import Verdict
from tooldeck.permission_rules import (
    CompiledRule,
    StarGlob,
    compile_glob,
    first_match,
    glob_to_regex,
)

patterns = st.text(alphabet="ab*/ \n.", max_size=12)
texts = st.text(alphabet="abAB/ \n.", max_size=24)


@given(patterns, texts)
def test_star_glob_equals_regex(pattern: str, text: str) -> None:
    regex = re2.compile(glob_to_regex(pattern))
    assert StarGlob(pattern).search(text.lower()) == (regex.search(text) is not None)


@given(st.lists(st.text(alphabet="ab*?/ .", max_size=8), min_size=1, max_size=6), texts)
def test_first_match_is_the_first_rule_whose_glob_matches(globs: list[str], text: str) -> None:
    options = re2.Options()
    rules = [CompiledRule(glob, Verdict.DENY, compile_glob(glob, options), i)
             for i, glob in enumerate(globs)]
    expected = next((i for i, glob in enumerate(globs)
                     if re2.search(glob_to_regex(glob), text) is not None), None)
    found = first_match(rules, text)
    assert (None if found is None else found.index) == expected


def test_a_literal_rule_is_tested_without_its_matcher() -> None:
    rule = CompiledRule("*SUDO*", Verdict.DENY, StarGlob("*SUDO*"), 0)
    assert rule.literal == "sudo" and first_match([rule], "echo; Sudo id") is rule
    assert CompiledRule("git *", Verdict.ALLOW, StarGlob("git *"), 0).literal is None
