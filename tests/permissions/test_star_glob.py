"""The ``*``-only fast path decides exactly what the RE2 translation of the glob decides."""

from __future__ import annotations

import re2
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.permission_rules import StarGlob, glob_to_regex

patterns = st.text(alphabet="ab*/ \n.", max_size=12)
texts = st.text(alphabet="abAB/ \n.", max_size=24)


@given(patterns, texts)
def test_star_glob_equals_regex(pattern: str, text: str) -> None:
    regex = re2.compile(glob_to_regex(pattern))
    assert StarGlob(pattern).search(text.lower()) == (regex.search(text) is not None)
