"""What each protected kind of fact keeps on the tune half, against the answer keys.

Run with ``python bench/filter_protection.py`` (seconds). For every tune output of 2 KB or
more, the text as the classifier sees it (terminal clean-up, blank runs made one, rulers
shortened) is classified (:func:`tooldeck.filters.must_keep.must_keep_line_numbers`); each
protected line is labelled with the first kind whose pattern matches it (``context`` when
none does: a follower kept with the line before it) and counted, with its characters, as
*keyed* when it holds a fact of the output's answer key. The table, sorted by characters,
says which kinds keep lines no key names, and in which tool families: the candidates for
narrowing. Keys name a sample of an output's facts (a few findings of a long lint run), so a
kind's unkeyed lines are over-protection only when no reader needs them either.

Only the tune half is read: the held-back half is never opened here.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus" / "filters"))

from corpus import ANSI, TUNE, load_cases  # type: ignore[import-not-found]

from tooldeck.filters.fact_kinds import LISTING_RULES, MUST_KEEP_RULES, SOURCE_RULES
from tooldeck.filters.must_keep import must_keep_line_numbers
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.rulers import compact_rulers
from tooldeck.filters.sanitize import collapse_blank_lines, strip_terminal

LARGE = 2048
_KINDS = [(kind, LineMatcher([pattern], label="kind"))
          for kind, pattern in (*MUST_KEEP_RULES, *SOURCE_RULES, *LISTING_RULES)]


def kind_of(line: str) -> str:
    """The first kind whose pattern matches ``line``, else ``context``."""
    return next((kind for kind, pattern in _KINDS if pattern.matches(line)), "context")


def main() -> int:
    """Print the table of protected lines by kind on the tune half."""
    lines_by_kind: collections.Counter[str] = collections.Counter()
    keyed: collections.Counter[str] = collections.Counter()
    chars: collections.Counter[str] = collections.Counter()
    unkeyed_by_tool: dict[str, collections.Counter[str]] = collections.defaultdict(
        collections.Counter
    )
    total = protected_chars = 0
    for case in load_cases(TUNE):
        if len(case.text) < LARGE:
            continue
        text = compact_rulers(collapse_blank_lines(strip_terminal(case.text)))
        total += len(text)
        lines = text.split("\n")
        for index in must_keep_line_numbers(text):
            line = lines[index]
            kind = kind_of(line)
            size = len(line) + 1
            lines_by_kind[kind] += 1
            chars[kind] += size
            protected_chars += size
            if any(fact in ANSI.sub("", line) for fact in case.facts):
                keyed[kind] += 1
            else:
                unkeyed_by_tool[kind][case.tool] += size
    print(f"tune outputs >= {LARGE} bytes: {total} characters, {protected_chars} in protected"
          f" lines ({protected_chars / max(total, 1):.1%})")
    print(f"{'kind':26} {'lines':>6} {'keyed':>6} {'chars':>8}  unkeyed characters by tool")
    for kind in sorted(lines_by_kind, key=lambda name: -chars[name]):
        tools = ", ".join(f"{tool} {count}" for tool, count in
                          unkeyed_by_tool[kind].most_common(4))
        print(f"{kind:26} {lines_by_kind[kind]:6} {keyed[kind]:6} {chars[kind]:8}  {tools}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
