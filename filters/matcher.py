"""Rule matchers: exact, prefix or regex, applied to the last meaningful command segment."""

from __future__ import annotations

import enum

import attrs

from tooldeck.filters import command as command_module
from tooldeck.filters.patterns import Regex, compile_pattern

__all__ = ["CommandMatcher", "MatchKind"]


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
