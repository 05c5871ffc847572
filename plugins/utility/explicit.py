"""Does the user's message ask for a tool? Then the utility gate lets the turn's calls run.

Rule 1 of the decision order (Zeph §7.6): a call the user asked for is never skipped. The
phrases, matched case-insensitively anywhere in the message:

==================  ==========================================================================
phrase              matches
==================  ==========================================================================
using-a-tool        "using a tool"
name-the-tool       "call / use / run / invoke / execute" (then "the") then one word, then
                    "tool": "use the shell tool", "run grep tool"
result-of           "show me the result of:" (the colon is required)
run-colon           "run:" and "execute:" (spaces before the colon allowed)
what-does           "what does", "what would", "what is the output of"
inline-shell        an inline code span holding one of ``| > < $ ; &``: "try `ls | wc -l`"
==================  ==========================================================================

Like Zeph's, the phrases are deliberately few and loose at the edges: "what does this
function do?" matches (a tool call too many costs little), "run the tests" and a code span
without shell syntax do not. Only the user's own words may be checked: the tool loop hands
the deck the run's user message, never model text or tool output. Patterns are RE2, so
matching is linear in the message.
"""

from __future__ import annotations

import re2

__all__ = ["PHRASES", "explicit_request"]

PHRASES: dict[str, str] = {
    "using-a-tool": r"using\s+a\s+tool",
    "name-the-tool": r"(call|use|run|invoke|execute)\s+(the\s+)?[a-z_]+\s+tool",
    "result-of": r"show\s+me\s+the\s+result\s+of\s*:",
    "run-colon": r"(run|execute)\s*:",
    "what-does": r"what\s+(does|would|is\s+the\s+output\s+of)",
    "inline-shell": r"`[^`]*[|><$;&][^`]*`",
}
"""The phrases, by name (the table above)."""

_OPTIONS = re2.Options()
_OPTIONS.case_sensitive = False
_ANY = re2.compile("|".join(f"(?:{pattern})" for pattern in PHRASES.values()), _OPTIONS)


def explicit_request(message: str) -> bool:
    """Whether ``message`` asks for a tool in one of the :data:`PHRASES`.

    :param message: the user's own message.
    :returns: ``True`` when a phrase matches.
    """
    return _ANY.search(message) is not None
