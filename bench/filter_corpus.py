"""The filters on the corpus of real outputs, tune and held-back halves reported apart.

Run with ``python bench/filter_corpus.py`` (a few seconds). Every output goes through the
default engine as the ``filters`` plugin runs it (:func:`tooldeck.filters.plugin.filter_output`,
then the stats line appended), and the text the model would receive is checked against the
output's answer key. For each half it prints: the median character reduction on outputs of
2 KB or more, the facts lost (must be 0), the outputs no rule matched, the worst five by facts
lost and by reduction, and the time the filter path took over the half.

It also splits the outputs of 2 KB or more by path: those a rule matched and those only the
generic path reduced (no rule: the engine's fallback alone), and says what the generic path
alone (:func:`generic_received`: the rules switched off) makes of the outputs a rule matched:
its median and the facts it would lose there. An outside judge's commands mostly reach no
rule, so the generic path's figures are the ones that carry over. The bound is the median a
filter would reach keeping only the protected lines (:func:`protected_only`: no notices,
context, ends or stats line): no reduction that keeps every protected line goes past it.

``--half tune`` limits the per-output listing to one half (held-back outputs are only ever
reported in aggregate unless asked); ``--list`` prints every tune output's line.

Lost facts are also counted by where they went (:func:`where_lost`): the stage that dropped
the line (a rule's strategy type, the generic reduction, or nothing cut: sanitising or
redaction changed it), whether the output was read as data or a report, and where the line
sat (first or last 20 lines, or the middle) — aggregates that say which decision to revisit
without showing a held-back line.
"""

from __future__ import annotations

import argparse
import collections
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus" / "filters"))

from corpus import ANSI, HELD_BACK, TUNE, Case, load_cases, lost_facts  # type: ignore[import-not-found]

from tooldeck.filters.command import normalized_command
from tooldeck.filters.engine import FilterEngine, is_file_view, is_short
from tooldeck.filters.fact_kinds import LISTING_RULES, MUST_KEEP_RULES, SOURCE_RULES
from tooldeck.filters.fallback import is_data
from tooldeck.filters.must_keep import must_keep_line_numbers
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.plugin import filter_output
from tooldeck.filters.rulers import compact_rulers
from tooldeck.filters.sanitize import collapse_blank_lines, strip_terminal
from tooldeck.models import ToolOutput

LARGE = 2048

_KINDS = [(kind, LineMatcher([pattern], label="kind"))
          for kind, pattern in (*MUST_KEEP_RULES, *SOURCE_RULES, *LISTING_RULES)]
_SHAPES = (
    ("diff line", r"^[-+](?![-+]{2} )"),
    ("indented +/- line", r"^\s+\d*\s*[-+~] "),
    ("path:line", r"\S+:\d+"),
    ("one token", r"^\s*\S+\s*$"),
    ("columns", r"\S(?:\s{2,}|\t)\S"),
    ("holds a number", r"\d"),
)


def fact_kind(case: Case, fact: str) -> str:
    """The kind of the line holding ``fact``: the first classifier kind, else its shape.

    Only this label (never the line) is printed for a held-back fact.
    """
    stripped = ANSI.sub("", case.text).replace("\r", "\n")
    line = next((line for line in stripped.split("\n") if fact in line), fact)
    for kind, pattern in _KINDS:
        if pattern.matches(line):
            return kind
    return next((f"no kind: {name}" for name, shape in _SHAPES if re.search(shape, line)),
                "no kind: words")


def _holds(fact: str, text: str) -> bool:
    return any(fact in line for line in ANSI.sub("", text).split("\n"))


def where_lost(engine: FilterEngine, case: Case, fact: str) -> str:
    """Which decision dropped ``fact``: a label made of the stage, the output's kind, and
    the position of the fact's line. Only this label is printed for a held-back fact.
    """
    exact = strip_terminal(case.text)
    command = case.command
    if is_short(exact) or is_file_view(normalized_command(command).split()):
        return "not cut: sanitising or redaction changed it"
    text = compact_rulers(collapse_blank_lines(exact))
    if not _holds(fact, text):
        return "blank lines or rulers compacted"
    stage = "generic reduction"
    for rule in engine.matching_rules(command):
        output = rule.strategy.apply_clean(text, case.exit_code).output
        if not _holds(fact, output):
            stage = f"rule {rule.name} ({rule.strategy.name})"
            break
        text = output
    lines = text.split("\n")
    kind = "data" if is_data(lines, must_keep_line_numbers(text)) else "report"
    index = next((number for number, line in enumerate(lines) if fact in line), 0)
    place = "first 20" if index < 20 else "last 20" if index >= len(lines) - 20 else "middle"
    return f"{stage}, {kind} of {'> 150' if len(lines) > 150 else '<= 150'} lines, {place}"


def received(engine: FilterEngine, case: Case) -> tuple[str, tuple[str, ...], str | None]:
    """The text the model receives for ``case``, the rules that ran, and the confidence."""
    output = ToolOutput(tool_name="bash", summary=case.text, exit_code=case.exit_code)
    result = filter_output(engine, case.command, output)
    text = result.output
    if result.stats_line is not None:
        text = f"{text}\n{result.stats_line}"
    confidence = None if result.confidence is None else result.confidence.value
    return text, result.rules, confidence


def generic_received(engine: FilterEngine, case: Case) -> str:
    """The text the model would receive for ``case`` if no rule matched its command."""
    result = engine.apply(case.command, case.text, case.exit_code, rules=[])
    text = result.output
    if result.stats_line is not None:
        text = f"{text}\n{result.stats_line}"
    return text


def protected_only(case: Case) -> float:
    """The reduction of ``case`` if only its protected lines were kept, as they are.

    No omission notice, context, ends or stats line: a bound on what a filter that keeps
    every protected line can reach on this output.
    """
    text = compact_rulers(collapse_blank_lines(strip_terminal(case.text)))
    lines = text.split("\n")
    kept = sum(len(lines[index]) + 1 for index in must_keep_line_numbers(text))
    return 1 - kept / max(len(case.text), 1)


def _median(values: list[float]) -> str:
    return f"{statistics.median(values) * 100:.1f}%" if values else "-"


def path_split(engine: FilterEngine, rows: list[tuple[Case, tuple[str, ...], float]]) -> list[str]:
    """The rule-vs-generic split of the outputs of 2 KB or more, aggregates only.

    :param engine: the engine.
    :param rows: ``(case, rules, reduction)`` for every output of 2 KB or more.
    :returns: the lines to print.
    """
    ruled = [(case, reduction) for case, rules, reduction in rows if rules]
    generic = [reduction for _, rules, reduction in rows if not rules]
    alone: list[float] = []
    alone_lost = alone_outputs = 0
    for case, _ in ruled:
        text = generic_received(engine, case)
        alone.append(1 - len(text) / max(len(case.text), 1))
        lost = len(lost_facts(case, text))
        alone_lost += lost
        alone_outputs += bool(lost)
    return [
        f"  a rule matched: {len(ruled)} outputs, median {_median([r for _, r in ruled])}",
        f"  no rule (generic path): {len(generic)} outputs, median {_median(generic)}",
        f"  generic path alone on the rule-matched ones: median {_median(alone)},"
        f" {alone_lost} facts lost (in {alone_outputs} outputs)",
        f"  generic path on all of them: median {_median(generic + alone)}",
        f"  bound, only the protected lines kept: median"
        f" {_median([protected_only(case) for case, _, _ in rows])}",
    ]


def report(engine: FilterEngine, half: str, *, detail: bool, listing: bool) -> None:
    """Print the figures of one half."""
    rows = []
    seconds = 0.0
    for case in load_cases(half):
        start = time.perf_counter()
        text, rules, confidence = received(engine, case)
        seconds += time.perf_counter() - start
        lost = lost_facts(case, text)
        reduction = 1 - len(text) / max(len(case.text), 1)
        rows.append((case, rules, confidence, lost, reduction, len(text)))
    large = [row for row in rows if len(row[0].text) >= LARGE]
    median = statistics.median([row[4] for row in large]) * 100 if large else 0.0
    lost_total = sum(len(row[3]) for row in rows)
    unmatched = [row for row in rows if not row[1]]
    megabytes = sum(len(row[0].text) for row in rows) / 1e6
    print(f"## {half}: {len(rows)} outputs, {len(large)} of them >= {LARGE} bytes")
    print(f"median reduction on outputs >= 2 KB: {median:.1f}%")
    print(f"facts lost: {lost_total} (in {sum(1 for row in rows if row[3])} outputs)")
    print(f"outputs with no matching rule: {len(unmatched)}")
    print(f"filter path: {seconds * 1000:.1f} ms for {megabytes:.2f} MB")
    print("outputs >= 2 KB by path:")
    for line in path_split(engine, [(row[0], row[1], row[4]) for row in large]):
        print(line)
    kinds = collections.Counter(fact_kind(row[0], fact) for row in rows for fact in row[3])
    if kinds:
        listed = ", ".join(f"{kind} {count}" for kind, count in kinds.most_common())
        print(f"facts lost by kind of line: {listed}")
        where = collections.Counter(
            where_lost(engine, row[0], fact) for row in rows for fact in row[3]
        )
        print("facts lost by where they went:")
        for label, count in where.most_common():
            print(f"  {count:3}  {label}")
    if not detail:
        print()
        return
    by_lost = sorted((row for row in rows if row[3]), key=lambda row: -len(row[3]))[:5]
    print("worst five by facts lost:")
    for case, rules, _, lost, _, _ in by_lost:
        print(f"  {case.relative:<40} {len(lost)} lost  rules={','.join(rules) or '-'}")
        for fact in lost[:3]:
            print(f"      {fact!r}")
    print("worst five by reduction (outputs >= 2 KB):")
    for case, rules, confidence, _, reduction, _ in sorted(large, key=lambda row: row[4])[:5]:
        print(
            f"  {case.relative:<40} {reduction * 100:5.1f}%  {len(case.text):>7} chars"
            f"  rules={','.join(rules) or '-'} confidence={confidence}"
        )
    if listing:
        print("every output:")
        for case, rules, confidence, lost, reduction, chars in rows:
            print(
                f"  {case.relative:<40} {len(case.text):>7} -> {chars:>6} {reduction * 100:6.1f}%"
                f" lost={len(lost)} rules={','.join(rules) or '-'} {confidence}"
            )
    print()


def main() -> int:
    """Print both halves' figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half", choices=[TUNE, HELD_BACK], help="detail for one half only")
    parser.add_argument("--list", action="store_true", help="list every tune output")
    parser.add_argument("--tune-only", action="store_true", help="skip the held-back half")
    args = parser.parse_args()
    engine = FilterEngine.from_settings()
    for half in (TUNE,) if args.tune_only else (TUNE, HELD_BACK):
        detail = args.half == half or (args.half is None and half == TUNE)
        report(engine, half, detail=detail, listing=args.list and half == TUNE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
