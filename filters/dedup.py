"""``dedup``: collapse log lines that differ only in timestamps, ids, addresses or numbers."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Annotated

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import must_keep_line_numbers
from tooldeck.filters.patterns import compile_pattern, confine_to_line
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams
from tooldeck.filters.tables import Ge

__all__ = ["DEFAULT_NORMALIZERS", "Dedup", "DedupParams", "NormalizeRule"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class NormalizeRule(StrategyParams):
    """One normalisation: every match of ``pattern`` becomes ``replacement``.

    :param pattern: RE2 pattern.
    :param replacement: literal text; ``$`` must be escaped as ``$$`` (no group references).
    """

    pattern: str
    replacement: str

    def __post_init__(self) -> None:
        """A literal replacement: no group reference (``$$`` is a dollar), one line."""
        value = self.replacement
        if not isinstance(value, str):
            return  # a type error, reported by the validation
        if re.search(r"(?<!\$)\$(?!\$)", value.replace("$$", "")):
            raise ValueError(
                f"replacement {value!r} contains an unescaped '$' (group references are not"
                " supported; write '$$' for a literal dollar)"
            )
        if "\n" in value or "\\" in value:
            raise ValueError(f"replacement {value!r} must not contain a newline or backslash")


DEFAULT_NORMALIZERS: tuple[NormalizeRule, ...] = (
    NormalizeRule(
        pattern=r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}([.\d]*)?([Z+-][\d:]*)?",
        replacement="<TS>",
    ),
    NormalizeRule(
        pattern=r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        replacement="<UUID>",
    ),
    NormalizeRule(pattern=r"\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b", replacement="<IP>"),
    NormalizeRule(pattern=r"(?:port|pid|PID)[=: ]+\d+", replacement="<N>"),
)
"""The default normalisations: ISO timestamps, lowercase UUIDs, IPv4 addresses, ports/pids."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class DedupParams(StrategyParams):
    """Parameters of ``dedup``.

    :param normalize_patterns: normalisations applied before comparing lines.
    :param max_unique_patterns: groups tracked; later new patterns are counted, not shown.
    """

    normalize_patterns: list[NormalizeRule] = dataclasses.field(
        default_factory=lambda: list(DEFAULT_NORMALIZERS)
    )
    max_unique_patterns: Annotated[int, Ge(1)] = 10000


class _Substitution:
    """One compiled normalisation, applicable to a whole multi-line text at once."""

    def __init__(self, rule: NormalizeRule, position: int) -> None:
        compiled = compile_pattern(rule.pattern, label=f"normalize pattern #{position + 1}")
        self.replacement = rule.replacement.replace("$$", "$")
        self.builtin: re.Pattern[str] | None = None
        self.regex = compiled
        if rule in DEFAULT_NORMALIZERS:
            # Our own linear patterns: the standard engine substitutes in C, much faster.
            self.builtin = re.compile(rule.pattern)
        else:
            confined = confine_to_line(rule.pattern)
            if confined is not None:
                self.regex = compile_pattern(confined, label=f"normalize pattern #{position + 1}")

    def __call__(self, text: str) -> str:
        if self.builtin is not None:
            return self.builtin.sub(self.replacement, text)
        return self.regex.sub(self.replacement, text)


def _whole_text_normalizer(rules: list[NormalizeRule]) -> Callable[[str], str]:
    """One function applying every rule in turn over a text."""
    steps = [_Substitution(rule, position) for position, rule in enumerate(rules)]

    def normalize(text: str) -> str:
        for step in steps:
            text = step(text)
        return text

    return normalize


class Dedup(Strategy[DedupParams]):
    """Each group of equal-after-normalisation lines shown once as ``{first line} (x{count})``.

    Ends with ``{unique} unique patterns ({total} total lines)``. Full when something collapsed
    or the cap was hit; Fallback (unchanged) for fewer than 3 lines or all-unique lines.
    Must-keep lines are never dropped by the cap: they always get their own group.
    """

    name = "dedup"
    Params = DedupParams

    def __init__(self, params: DedupParams) -> None:
        super().__init__(params)
        self.normalize = _whole_text_normalizer(params.normalize_patterns)

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Collapse the repeated lines of ``clean``.

        :param clean: sanitized output.
        :param exit_code: unused.
        :returns: the reduction.
        """
        lines = clean.split("\n") if clean else []
        if len(lines) < 3:
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        keys = self.normalize(clean).split("\n")
        if len(keys) != len(lines):
            keys = [self.normalize(line) for line in lines]
        must_keep = must_keep_line_numbers(clean)
        cap = self.params.max_unique_patterns
        groups: dict[str, list[int]] = {}
        dropped = 0
        for number, key in enumerate(keys):
            group = groups.get(key)
            if group is not None:
                group[1] += 1
            elif len(groups) < cap or number in must_keep:
                groups[key] = [number, 1]
            else:
                dropped += 1
        if len(groups) == len(lines):
            return Reduction(clean, FilterConfidence.FALLBACK, must_keep_checked=True)
        out = [
            lines[first] if count == 1 else f"{lines[first]} (x{count})"
            for first, count in groups.values()
        ]
        summary = f"{len(groups)} unique patterns ({len(lines)} total lines)"
        if dropped:
            summary += f" (capped at {cap}; {dropped} lines of further patterns omitted)"
        out.append(summary)
        return Reduction("\n".join(out), FilterConfidence.FULL, must_keep_checked=True)
