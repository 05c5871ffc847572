"""Rule matchers: exact, prefix or regex, applied to the last meaningful command segment."""

from __future__ import annotations

import enum
from collections.abc import Sequence

import attrs

from tooldeck.filters import command as command_module
from tooldeck.filters.patterns import Regex, compile_pattern, re2_options

__all__ = ["CommandMatcher", "MatchKind", "any_matcher"]


class MatchKind(str, enum.Enum):
    """How a rule recognises its command."""

    EXACT = "exact"
    PREFIX = "prefix"
    REGEX = "regex"


@attrs.frozen
class CommandMatcher:
    """Matches a command by equality, raw prefix (no word boundary) or RE2 search.

    The command is reduced to :func:`tooldeck.filters.command.command_segment` first, so
    ``cd x && cargo test 2>&1 | tail`` is matched as ``cargo test``.

    :param kind: the match kind.
    :param value: the text or pattern.
    """

    kind: MatchKind
    value: str
    _regex: Regex | None = attrs.field(default=None, init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.kind is MatchKind.REGEX:
            object.__setattr__(self, "_regex", compile_pattern(self.value, label="match regex"))

    def matches(self, command: str) -> bool:
        """Whether the rule applies to ``command``.

        :param command: the full shell command.
        :returns: ``True`` when the command's last meaningful segment matches.
        """
        return self.matches_segment(command_module.command_segment(command))

    def matches_segment(self, segment: str) -> bool:
        """Whether the rule applies to an already reduced command segment.

        :param segment: :func:`~tooldeck.filters.command.command_segment` of the command.
        :returns: ``True`` on a match.
        """
        if self.kind is MatchKind.EXACT:
            return segment == self.value
        if self.kind is MatchKind.PREFIX:
            return segment.startswith(self.value)
        assert self._regex is not None
        return self._regex.search(segment) is not None


def any_matcher(matchers: Sequence[CommandMatcher]) -> Regex | None:
    """One RE2 alternation of every matcher: "does any rule apply?" in a single search.

    Most commands match no rule; asking each rule costs one search per rule. Each
    alternative is wrapped in its own group, which keeps a regex's inline flags to itself.

    :param matchers: the rules' matchers.
    :returns: the combined pattern, or ``None`` when there is nothing to combine or RE2
        cannot hold the union (then every rule is asked, as before).
    """
    import re2

    parts = []
    for matcher in matchers:
        if matcher.kind is MatchKind.EXACT:
            parts.append(rf"\A{re2.escape(matcher.value)}\z")
        elif matcher.kind is MatchKind.PREFIX:
            parts.append(rf"\A{re2.escape(matcher.value)}")
        else:
            parts.append(f"(?:{matcher.value})")
    if not parts:
        return None
    try:
        compiled: Regex = re2.compile("|".join(parts), re2_options(32 << 20))
    except re2.error:
        return None
    return compiled
