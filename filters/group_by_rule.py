"""``group_by_rule``: group linter warnings (e.g. clippy's) by rule, listing their locations."""

from __future__ import annotations

import dataclasses

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.patterns import LineMatcher, Regex, compile_pattern
from tooldeck.filters.selection import as_line_data
from tooldeck.filters.strategy import Reduction, Strategy, StrategyParams

__all__ = ["CARGO_NOISE_PREFIXES", "GroupByRule", "GroupByRuleParams", "is_cargo_noise"]

CARGO_NOISE_PREFIXES = (
    "Compiling", "Downloading", "Downloaded", "Updating", "Fetching", "Fresh", "Packaging",
    "Verifying", "Archiving", "Locking", "Adding", "Removing", "Checking", "Documenting",
    "Running", "Loaded", "Blocking", "Unpacking", "Finished",
)  # fmt: skip
"""Cargo progress words; a line starting with one (after indentation) is noise."""


def is_cargo_noise(line: str) -> bool:
    """Whether a line is cargo progress output (``Compiling …``, ``Finished …``, …).

    :param line: the line.
    :returns: ``True`` for progress lines.
    """
    return line.lstrip().startswith(CARGO_NOISE_PREFIXES)


@dataclasses.dataclass(frozen=True, kw_only=True)
class GroupByRuleParams(StrategyParams):
    """Parameters of ``group_by_rule``.

    :param location_pattern: RE2 pattern whose group 1 is a location (``file:line``).
    :param rule_pattern: RE2 pattern whose group 1 is a rule name.
    :param message_pattern: RE2 pattern whose group 1 is the message opening a diagnostic. When
        set, a diagnostic whose rule is not printed (clippy names a lint only the first time)
        takes the rule of an earlier diagnostic with the same message, else the message itself.
    """

    location_pattern: str
    rule_pattern: str
    message_pattern: str | None = None


def _first_group(regex: Regex, line: str) -> str | None:
    match = regex.search(line)
    if match is None:
        return None
    return match.group(1) if regex.groups else match.group(0)


class GroupByRule(Strategy[GroupByRuleParams]):
    """Warnings grouped per rule (sorted by name), each rule with its locations, then a total.

    A location line is remembered until a rule line claims it. A failed command whose output
    holds compiler errors passes unchanged (Fallback). Without any grouped warning, cargo
    progress lines are dropped (Partial) or the text passes unchanged (Fallback).
    """

    name = "group_by_rule"
    Params = GroupByRuleParams

    def __init__(self, params: GroupByRuleParams) -> None:
        super().__init__(params)
        self._location = compile_pattern(params.location_pattern, label="location_pattern")
        self._rule = compile_pattern(params.rule_pattern, label="rule_pattern")
        self._message = (
            compile_pattern(params.message_pattern, label="message_pattern")
            if params.message_pattern is not None
            else None
        )
        patterns = [params.location_pattern, params.rule_pattern]
        if params.message_pattern is not None:
            patterns.append(params.message_pattern)
        self._relevant = LineMatcher(patterns, label="group_by_rule pattern")

    def _group(self, clean: str) -> dict[str, list[str]]:
        data = as_line_data(clean)
        groups: dict[str, list[str]] = {}
        rule_of_message: dict[str, str] = {}
        pending: str | None = None
        message: str | None = None

        def flush_unnamed() -> None:
            if pending is not None and message is not None:
                groups.setdefault(rule_of_message.get(message, message), []).append(pending)

        for start, end in self._relevant.line_runs(data):
            for line in data[start : end - 1].decode("utf-8", "surrogatepass").split("\n"):
                location = _first_group(self._location, line)
                if location is not None:
                    pending = location
                    continue
                rule = _first_group(self._rule, line)
                if rule is not None and pending is not None:
                    groups.setdefault(rule, []).append(pending)
                    if message is not None:
                        rule_of_message[message] = rule
                    pending = message = None
                    continue
                opened = _first_group(self._message, line) if self._message else None
                if opened is not None:
                    flush_unnamed()
                    pending, message = None, opened
        flush_unnamed()
        return groups

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Group the warnings of ``clean``.

        :param clean: sanitized output.
        :param exit_code: a failure with compiler errors disables grouping.
        :returns: the reduction.
        """
        if exit_code not in (None, 0) and ("error[" in clean or "error:" in clean):
            return Reduction(clean, FilterConfidence.FALLBACK)
        groups = self._group(clean) if clean else {}
        if not groups:
            lines = clean.split("\n")
            kept = [line for line in lines if not is_cargo_noise(line)]
            if len(kept) == len(lines):
                return Reduction(clean, FilterConfidence.FALLBACK)
            return Reduction("\n".join(kept), FilterConfidence.PARTIAL)
        out: list[str] = []
        for rule in sorted(groups):
            locations = groups[rule]
            noun = "warning" if len(locations) == 1 else "warnings"
            out.append(f"{rule} ({len(locations)} {noun}):")
            out += [f"  {location}" for location in locations]
            out.append("")
        total = sum(len(locations) for locations in groups.values())
        out.append(f"{total} warnings total ({len(groups)} rules)")
        return Reduction("\n".join(out), FilterConfidence.FULL)
