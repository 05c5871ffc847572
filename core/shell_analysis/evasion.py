"""Changes made so that a person reading the result later does not see them: ask.

InternalAllTheThings' "Linux - Evasion" page and Atomic Red Team T1070.006 / T1036.005:

| rule        | fires when                                                          | verdict |
| ----------- | ------------------------------------------------------------------- | ------- |
| invisible   | a word holds a character that prints as nothing or reorders the     | ask     |
|             | text around it (zero-width space and joiners, bidi controls, BOM):  |         |
|             | ``touch $'index\u200D.php'`` makes a twin of ``index.php``          |         |
| hidden-text | a terminal control program's output (``$(clear)``, ``$(tput …)``,   | ask     |
|             | ``$(reset)``) is written into a file: the lines before it vanish    |         |
|             | when the file is printed                                            |         |
| timestomp   | ``touch`` chooses which time stamp to set (``-a``/``-m``) and sets  | ask     |
|             | it from a date or another file (``-t``, ``-d``, ``-r``): a change   |         |
|             | dated to look old (``touch -a -m -r /bin/ls x``)                    |         |

A plain ``touch -d '1 hour ago' f`` (a build test) names no stamp and stays allowed.
"""

from __future__ import annotations

import re

from tooldeck.shell_analysis.findings import ASK, Finding
from tooldeck.shell_analysis.model import CommandAnalysis, Segment

__all__ = ["TERMINAL_CONTROLS", "TIMESTOMP_HEADS", "hidden_text_finding", "invisible_finding",
           "timestomp_finding"]

_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
"""Zero-width spaces and joiners, bidi embeddings, overrides and isolates, word joiners, BOM."""
TERMINAL_CONTROLS: frozenset[str] = frozenset({"clear", "tput", "reset"})
"""Programs whose output moves the cursor or clears the screen (:func:`hidden_text_finding`)."""
_STAMP_FLAGS = frozenset("am")
_TIME_FLAGS = frozenset("tdr")
_TIME_LONG = ("--date", "--reference")

TIMESTOMP_HEADS: frozenset[str] = frozenset({"touch"})
"""Command names :func:`timestomp_finding` looks at."""


def invisible_finding(segment: Segment) -> Finding | None:
    """Ask when a word holds an invisible or reordering character.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if segment.text.isascii() and "\\u" not in segment.text and "\\U" not in segment.text:
        return None  # cheap first look: only a literal or an ANSI-C \u escape can hold one
    for word in segment.words:
        found = _INVISIBLE.search(word.value)
        if found is not None:
            return Finding(ASK, "invisible", f"{word.source!r} holds the invisible character "
                           f"U+{ord(found.group()):04X}")
    return None


def hidden_text_finding(analysis: CommandAnalysis) -> Finding | None:
    """Ask when a terminal control program's output is written into a file.

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    if not analysis.redirect_targets:
        return None
    for segment in analysis.segments:
        if segment.origin == "substitution" and segment.command in TERMINAL_CONTROLS:
            return Finding(ASK, "hidden-text", f"{segment.command!r} output is written into "
                           f"{analysis.redirect_targets[0]!r}: it hides the lines before it")
    return None


def timestomp_finding(segment: Segment) -> Finding | None:
    """Ask when ``touch`` sets a chosen stamp to a given date or another file's.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    args = segment.argv[1:]
    letters = set("".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--")))
    chooses = bool(letters & _STAMP_FLAGS) or any(a.startswith("--time=") for a in args)
    dated = bool(letters & _TIME_FLAGS) or any(a.startswith(_TIME_LONG) for a in args)
    if chooses and dated:
        return Finding(ASK, "timestomp", f"{segment.text!r} back-dates a file's time stamps")
    return None
