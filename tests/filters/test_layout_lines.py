"""Layout lines (blank lines, bare rulers) told apart without the pattern on every line."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.filters.omissions import _content

# the pattern every line went through before (omissions' decoration rule)
PREVIOUS_DECORATION = re.compile(r"^\s*(?:([=_\-*#~─━═⎯])\1{2,})?\s*$")

line_parts = st.sampled_from(
    [" ", "\t", "\f", "\v", "\r", "\x1c", "\u00a0", "\u2028", "=", "-", "_", "*", "#", "~",
     "─", "━", "═", "⎯", "a", "é", "1", "==="]
)
lines = st.lists(line_parts, max_size=8).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(lines, max_size=12), st.integers(min_value=1, max_value=12))
def test_content_equals_the_pattern_on_every_line(gap: list[str], most: int) -> None:
    expected = [line for line in gap if not PREVIOUS_DECORATION.match(line)][:most]
    assert _content(gap, most) == expected
