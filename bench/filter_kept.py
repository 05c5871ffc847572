"""Why the filters keep what no answer key names, on the tune half.

Run with ``python bench/filter_kept.py`` (seconds). For every tune output of 2 KB or more
(optionally only those whose reduction is in ``--band LOW HIGH`` percent), the text the model
receives is matched back, line by line in order, to the text the rules start from (terminal
clean-up, blank runs made one, rulers shortened). Every kept line that holds no fact of the
output's answer key is counted, with its characters, under the reason it was kept:

- ``shown whole: …`` — nothing was cut (short, data up to its size, a diff or log the model
  asked for, a result that would not save its stats line);
- ``protected: <kind>`` — the classifier protects it (the first kind whose pattern matches;
  ``context`` is a follower kept with the line before it);
- ``edge: first`` / ``edge: last`` — among the first or last eight lines of text;
- ``closing block`` — a line holding a number after the last blank line or ruler;
- ``blank`` — a blank line between kept ones;
- ``other`` — a rule's ``keep`` pattern, the context of a protected line, a rule's strategy.

Omission markers and the stats line are counted apart. The table, sorted by characters, names
the largest classes of kept-but-not-fact text: the levers. ``--examples N`` prints N sample
lines of each reason. Only the tune half is read: the held-back half is never opened here.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus" / "filters"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import ANSI, TUNE, Case, load_cases  # type: ignore[import-not-found]
from filter_corpus import received  # type: ignore[import-not-found]

from tooldeck.filters.command import normalized_command
from tooldeck.filters.context import closing_lines
from tooldeck.filters.engine import FilterEngine, is_file_view, is_short
from tooldeck.filters.fact_kinds import LISTING_RULES, MUST_KEEP_RULES, SOURCE_RULES
from tooldeck.filters.must_keep import must_keep_line_numbers
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.rulers import compact_rulers
from tooldeck.filters.sanitize import collapse_blank_lines, strip_terminal

LARGE = 2048
EDGE = 8
_KINDS = [(kind, LineMatcher([pattern], label="kind"))
          for kind, pattern in (*MUST_KEEP_RULES, *SOURCE_RULES, *LISTING_RULES)]
_MARKERS = ("… ", "... (", "(", "[shell] ", "[unfiltered output", "--- ")


def _kind(line: str) -> str:
    return next((kind for kind, pattern in _KINDS if pattern.matches(line)), "context")


def _aligned(source: list[str], kept: list[str]) -> list[int | None]:
    """For each kept line, the number of the source line it is (in order), else ``None``."""
    found: list[int | None] = []
    cursor = 0
    for line in kept:
        index = next((number for number in range(cursor, min(len(source), cursor + 4000))
                      if source[number] == line), None)
        found.append(index)
        if index is not None:
            cursor = index + 1
    return found


def reasons(engine: FilterEngine, case: Case) -> list[tuple[str, str]]:
    """``(reason, line)`` for every kept line of ``case`` that holds no key fact."""
    exact = strip_terminal(case.text)
    text, _, _ = received(engine, case)
    body = text.split("\n")
    facts = case.facts
    unkeyed = [(number, line) for number, line in enumerate(body)
               if not any(fact in ANSI.sub("", line) for fact in facts)]
    if is_file_view(normalized_command(case.command).split()) or is_short(exact):
        return [("shown whole: short", line) for _, line in unkeyed]
    source_text = compact_rulers(collapse_blank_lines(exact))
    source = source_text.split("\n")
    if len(text) >= len(exact) - 100:
        return [("shown whole: data, diff, log or no saving", line) for _, line in unkeyed]
    protected = must_keep_line_numbers(source_text)
    closing = closing_lines(source)
    texty = [number for number, line in enumerate(source) if line.strip()]
    first, last = set(texty[:EDGE]), set(texty[-EDGE:])
    where = _aligned(source, body)
    out: list[tuple[str, str]] = []
    for number, line in unkeyed:
        index = where[number]
        if index is None:
            label = "marker or stats" if line.startswith(_MARKERS) else "reshaped line"
        elif not line.strip():
            label = "blank"
        elif index in protected:
            label = f"protected: {_kind(line)}"
        elif index in first:
            label = "edge: first"
        elif index in last:
            label = "edge: last"
        elif index in closing:
            label = "closing block"
        else:
            label = "other (keep, context, rule)"
        out.append((label, line))
    return out


def main() -> int:
    """Print the kept-but-unkeyed characters by reason."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--band", nargs=2, type=float, metavar=("LOW", "HIGH"),
                        help="only outputs whose reduction is in this percent band")
    parser.add_argument("--examples", type=int, default=0, help="sample lines per reason")
    parser.add_argument("--by-tool", action="store_true", help="split each reason by tool")
    args = parser.parse_args()
    engine = FilterEngine.from_settings()
    chars: collections.Counter[str] = collections.Counter()
    lines: collections.Counter[str] = collections.Counter()
    tools: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    samples: dict[str, list[str]] = collections.defaultdict(list)
    outputs = received_total = 0
    for case in load_cases(TUNE):
        if len(case.text) < LARGE:
            continue
        text, _, _ = received(engine, case)
        reduction = 100 * (1 - len(text) / len(case.text))
        if args.band and not args.band[0] <= reduction <= args.band[1]:
            continue
        outputs += 1
        received_total += len(text)
        for label, line in reasons(engine, case):
            chars[label] += len(line) + 1
            lines[label] += 1
            tools[label][case.tool] += len(line) + 1
            samples[label].append(f"{case.relative}: {line[:110]}")
    print(f"{outputs} tune outputs >= {LARGE} bytes, {received_total} characters received")
    print(f"{'reason':44} {'lines':>6} {'chars':>8}  by tool")
    for label, count in chars.most_common():
        by_tool = ", ".join(f"{tool} {size}" for tool, size in tools[label].most_common(4))
        print(f"{label:44} {lines[label]:6} {count:8}  {by_tool if args.by_tool else ''}")
        for sample in random.Random(0).sample(samples[label],
                                              min(args.examples, len(samples[label]))):
            print(f"      {sample}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
