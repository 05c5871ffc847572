"""The grep prefilter may only ever over-approximate the per-line matcher."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.errors import ToolError
from tooldeck.plugins.files.line_matcher import LineMatcher
from tooldeck.plugins.files.text import split_lines

FRAGMENTS = [
    "a",
    "b",
    "^",
    "$",
    "\\b",
    "\\B",
    ".",
    "[^a]",
    "a*",
    "\\s",
    "(a|b)",
    "\\r",
    "\\n",
    "x?",
    "\\A",
    "\\z",
    "(?i)",
    "(?s)",
    "(?-m)",
    "é",
    "É",
    "[[:space:]]",
    "\\S+",
]


@settings(max_examples=500, deadline=None)
@given(
    pattern=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=5).map("".join),
    text=st.text(alphabet=st.sampled_from("abé \r\n\tx"), max_size=30),
    case_sensitive=st.booleans(),
)
def test_prefilter_never_hides_a_matching_line(
    pattern: str, text: str, case_sensitive: bool
) -> None:
    try:
        matcher = LineMatcher.compile(pattern, case_sensitive=case_sensitive)
    except ToolError:  # RE2 rejects some combinations; nothing to check then
        return
    if any(matcher.matches(line) for line in split_lines(text)):
        assert matcher.may_match(text.encode())


def test_patterns_with_text_anchors_or_flags_skip_the_prefilter() -> None:
    for pattern in ("\\Afoo", "foo\\z", "(?i)foo", "(?-m)^foo"):
        assert LineMatcher.compile(pattern).text_regex is None
    assert LineMatcher.compile("^foo$").text_regex is not None
