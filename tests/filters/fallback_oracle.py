"""``fallback`` as it was before it worked over line data: lists and sets of lines (test oracle).

A copy of ``Fallback.reduce``, ``is_data``, ``omissions.render``, the classifier's
``line_runs`` and ``repeats.without_repeats`` of commit 0423eab (main before stream23): the
text split into a list of lines, the protected lines a set of numbers, the repeats found over
one joined text of every candidate line. The fallback over line data must give exactly its
results (``test_fallback_memory.py``).
"""

from __future__ import annotations

import re
from collections import Counter

from tooldeck.filters import must_keep, repeats
from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.context import closing_lines, context_lines, edge_lines, outline_lines
from tooldeck.filters.diff_cut import cut_diff, is_diff
from tooldeck.filters.fallback import Fallback
from tooldeck.filters.groups import group_heads
from tooldeck.filters.match_list import is_match_list
from tooldeck.filters.omissions import (
    _content,
    fold_marker,
    line_shapes,
    shortened,
    stretch_marker,
)
from tooldeck.filters.sanitize import sanitize_output
from tooldeck.filters.spans import Span, intersect, lines_of, subtract, union
from tooldeck.filters.strategy import StageResult

# ---- the classifier ---------------------------------------------------------------------------


def old_without_repeats(data: bytes, runs: list[Span], exempt: list[Span]) -> list[Span]:
    seen: set[bytes] = set()
    dropped: list[Span] = []
    candidates: list[Span] = []
    exempt_lines = {start for span in intersect(runs, exempt) for start, _ in lines_of(data, *span)}
    for start, end in (span for run in runs for span in lines_of(data, *run)):
        raw = data[start:end]
        long_enough = len(raw) > repeats._SHORTEST_REPEAT
        if raw in seen and long_enough and not must_keep._located(data, end):
            dropped.append((start, end))
            continue
        seen.add(raw)
        if start not in exempt_lines:
            candidates.append((start, end))
    if len(candidates) >= repeats.REPEATED and data.count(b"\n") > repeats.REPEATS_FROM_LINES:
        text = b"".join(data[start:end] for start, end in candidates).decode(
            "utf-8", "surrogatepass"
        )
        lines = text.split("\n")
        templates = repeats._TEMPLATE_PARTS.sub("_", text).split("\n")
        groups: dict[tuple[str, str], list[Span]] = {}
        findings_whole = data.count(b"\n") <= repeats.FINDINGS_WHOLE_UP_TO
        for span, line, template in zip(candidates, lines, templates, strict=False):
            if findings_whole and repeats._FINDING_AT.match(line):
                continue
            subject = repeats._SUBJECT.match(line)
            key = (subject[0] if subject else "", template.strip())
            groups.setdefault(key, []).append(span)
        dropped += [
            span for group in groups.values() if len(group) >= repeats.REPEATED
            for span in group[1:-1]
        ]
    return subtract(runs, sorted(dropped)) if dropped else runs


def old_line_runs(data: bytes) -> list[Span]:
    self = must_keep.must_keep_classifier()
    runs: list[Span] = []
    scan = self._scans(must_keep._mask_tags(data))
    def listing() -> tuple[must_keep.LineMatcher, ...]:
        return self._short_listings(scan.data, scan)

    protected = self._classified(scan.data, listing, scan)
    protected = self._without_long_changes(data, protected, scan, listing)
    bare = subtract(scan(self._source), scan(self._strong))
    entries = union(scan(self._listing), scan(self._package))
    exempt = union(entries, bare)
    protected = old_without_repeats(data, protected, exempt)
    for start, end in protected:
        end = must_keep._after_followers(data, end)
        if runs and start <= runs[-1][1]:
            runs[-1] = (runs[-1][0], max(end, runs[-1][1]))
        else:
            runs.append((start, end))
    return runs


def old_must_keep_line_numbers(text: str) -> set[int]:
    if not text:
        return set()
    data = text.encode("utf-8", "surrogatepass") + b"\n"
    numbers: set[int] = set()
    line, offset = 0, 0
    for start, end in old_line_runs(data):
        line += data.count(b"\n", offset, start)
        run = data.count(b"\n", start, end)
        numbers.update(range(line, line + run))
        line, offset = line + run, end
    return numbers


# ---- the omissions ----------------------------------------------------------------------------


def old_marker(gap: list[str]) -> str | None:
    if len(gap) <= 400:
        sample = _content(gap, len(gap))
    else:
        sample = _content(gap, 200) + _content(gap[::-1], 200)[::-1]
    if not sample:
        return None
    shapes = line_shapes("\n".join(sample))
    shape, _ = Counter(shapes).most_common(1)[0]
    like = [line for line, other in zip(sample, shapes, strict=True) if other == shape]
    if len(like) == len(sample):
        return fold_marker(gap, like)
    return stretch_marker(gap, like)


def old_render(lines: list[str], keep: set[int]) -> list[str]:
    out: list[str] = []
    cursor = 0
    for index in [*sorted(keep), len(lines)]:
        if index > cursor:
            gap = lines[cursor:index]
            marker = old_marker(gap)
            if marker is not None:
                short = len(gap) <= len(marker)
                if short and sum(len(line) + 1 for line in gap) <= len(marker) + 1:
                    out.extend(gap)
                else:
                    out.append(marker)
        if index < len(lines):
            out.append(shortened(lines[index]))
        cursor = index + 1
    return out


# ---- the fallback -----------------------------------------------------------------------------

_ALARM = re.compile(r"(?i)error|fail|warn|panic|fatal|exception|traceback|denied|killed")
_NARRATION = re.compile(r"^[ \t]*(?:[A-Z][a-z]+ing\b|Setting up |(?:Get|Hit|Ign):\d)", re.MULTILINE)
_BLANK = re.compile(r"^[ \t\f\v]*$", re.MULTILINE)


def old_nonblank(lines: list[str], most: int, *, backwards: bool = False) -> list[int]:
    found: list[int] = []
    order = range(len(lines) - 1, -1, -1) if backwards else range(len(lines))
    for index in order:
        if lines[index].strip():
            found.append(index)
            if len(found) == most:
                break
    return found


def old_is_data(lines: list[str], protected: set[int], text: str) -> bool:
    if is_match_list(lines):
        return True
    banner = set(old_nonblank(lines, 3))
    if any(_ALARM.search(lines[index]) for index in protected if index not in banner):
        return False
    narrating = sum(1 for _ in _NARRATION.finditer(text))
    nonblank = len(lines) - sum(1 for _ in _BLANK.finditer(text))
    return narrating * 5 < nonblank


def old_reduce(strategy: Fallback, clean: str) -> str:
    """The previous ``Fallback.reduce`` on sanitized text: its text (confidence: Fallback)."""
    params = strategy.params
    line_count = clean.count("\n") + 1
    if line_count < params.min_lines or line_count <= params.max_lines:
        return clean
    protected = old_must_keep_line_numbers(clean)
    lines = clean.split("\n")
    if is_diff(lines):
        return "\n".join(cut_diff(lines, protected, params.max_lines, params.head // 2))
    head, tail, edge_chars = params.head, params.tail, params.edge_chars
    group = strategy._group
    groups = group_heads(lines, group, params.group_head) if group else None
    listing = params.output == "listing"
    if listing or (params.output == "auto" and old_is_data(lines, protected, clean)):
        grouped = groups is not None and groups.grouped
        if len(lines) <= (params.group_lines if grouped else params.data_lines):
            return clean
        head = tail = params.data_edge
        edge_chars = 2000
    keep = set(protected)
    if strategy._keep is not None:
        keep.update(index for index, line in enumerate(lines) if strategy._keep.matches(line))
    keep |= context_lines(lines, sorted(keep))
    keep |= closing_lines(lines)
    if params.outline:
        keep |= outline_lines(lines)
    if groups is not None:
        keep |= groups.taken
    keep.update(edge_lines(old_nonblank(lines, head), lines, head, edge_chars))
    last = old_nonblank(lines, tail, backwards=True)
    keep.update(edge_lines(last, lines, tail, edge_chars))
    return "\n".join(old_render(lines, keep))


def oracle_fallback(strategy: Fallback, raw: str) -> StageResult:
    """The previous ``fallback`` strategy's ``apply``."""
    return StageResult(old_reduce(strategy, sanitize_output(raw)), FilterConfidence.FALLBACK)
