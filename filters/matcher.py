"""Rule matchers: exact, prefix or regex, applied to the last meaningful command segment."""

from __future__ import annotations

import enum
from collections.abc import Sequence

import attrs

from tooldeck.filters import command as command_module
from tooldeck.filters.patterns import Regex, compile_pattern, re2_options

__all__ = ["CommandMatcher", "MatchKind", "MatcherSet", "matcher_set"]


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
    :param unless: an RE2 pattern; a segment it is found in does not match.
    """

    kind: MatchKind
    value: str
    unless: str | None = None
    _regex: Regex | None = attrs.field(default=None, init=False, eq=False, repr=False)
    _unless: Regex | None = attrs.field(default=None, init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.kind is MatchKind.REGEX:
            object.__setattr__(self, "_regex", compile_pattern(self.value, label="match regex"))
        if self.unless is not None:
            object.__setattr__(self, "_unless", compile_pattern(self.unless, label="match unless"))

    def excludes(self, segment: str) -> bool:
        """Whether ``unless`` takes the segment away from the rule.

        :param segment: the normalised command.
        :returns: ``True`` when the ``unless`` pattern is found in it.
        """
        return self._unless is not None and self._unless.search(segment) is not None

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
            found = segment == self.value
        elif self.kind is MatchKind.PREFIX:
            found = segment.startswith(self.value)
        else:
            assert self._regex is not None
            found = self._regex.search(segment) is not None
        return found and not self.excludes(segment)


class MatcherSet:
    """Which of many matchers fit a command, in one RE2 pass (an ``RE2::Set``).

    Most commands match no rule, and a matching one is asked of every rule: one search per rule
    made matching the larger part of filtering a short output. The set answers with the
    indices of every matcher that fits.

    :param matchers: the matchers, in rule order.
    :raises ValueError: when RE2 cannot hold the set (the caller asks each matcher instead).
    """

    def __init__(self, matchers: Sequence[CommandMatcher]) -> None:
        import re2

        self._set = re2.Set.SearchSet(re2_options(32 << 20))
        self._excluding = {index: matcher for index, matcher in enumerate(matchers)
                           if matcher.unless is not None}
        try:
            for matcher in matchers:
                self._set.Add(_set_pattern(matcher))
            self._set.Compile()
        except re2.error as exc:
            raise ValueError(str(exc)) from None

    def matching(self, segment: str) -> list[int]:
        """The indices of the matchers that fit ``segment``, ascending.

        :param segment: the normalised command.
        :returns: the indices.
        """
        found = sorted(self._set.Match(segment) or ())
        if not self._excluding:
            return found
        excluding = self._excluding
        return [index for index in found
                if index not in excluding or not excluding[index].excludes(segment)]


def _set_pattern(matcher: CommandMatcher) -> str:
    import re2

    if matcher.kind is MatchKind.EXACT:
        return rf"\A{re2.escape(matcher.value)}\z"
    if matcher.kind is MatchKind.PREFIX:
        return rf"\A{re2.escape(matcher.value)}"
    return f"(?:{matcher.value})"


def matcher_set(matchers: Sequence[CommandMatcher]) -> MatcherSet | None:
    """A :class:`MatcherSet` of ``matchers``, or ``None`` when there are none or RE2 refuses.

    :param matchers: the rules' matchers, in rule order.
    :returns: the set, or ``None`` (then every matcher is asked, one by one).
    """
    if not matchers:
        return None
    try:
        return MatcherSet(matchers)
    except ValueError:
        return None
