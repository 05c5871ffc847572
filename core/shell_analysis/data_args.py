"""Data is not code: the arguments of commands that only print or record text.

Confirm patterns are meant for what a command *does*; a commit message, an ``echo`` or a
``grep`` pattern that mentions ``rm -rf`` does nothing. :func:`code_view` drops those
arguments from a segment before the patterns are matched:

| command                                   | dropped                                    |
| ----------------------------------------- | ------------------------------------------ |
| ``echo``, ``printf``, ``:``, ``true``     | every argument                             |
| ``git commit|tag|merge|notes|stash|revert`` | ``-m``/``--message``/``--author`` values   |
| ``git log|show|shortlog``                 | ``--grep``/``--author``/``-S``/``-G`` values |
| ``gh … create|edit|comment|review``       | ``--title -t --body -b --notes`` values    |
| ``grep`` family, ``git grep``             | the pattern (first operand, or ``-e`` values) |

What a substitution inside such an argument runs is a segment of its own and is still
judged (``git commit -m "$(rm -rf x)"`` asks for the ``rm``).

Patterns that are shell syntax (:data:`SHELL_SYNTAX_PATTERNS`: ``$(``, backtick, ``<(``,
``>(``, ``<<<``) stand for "something runs that I cannot see"; on a command the analyzer saw
whole, every such construct became segments that are judged, so these patterns are not
matched on the code view (a backtick inside ``node -e 'console.log(`x`)'`` is JavaScript).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tooldeck.shell_analysis.model import CommandAnalysis, Segment, Word
from tooldeck.shell_analysis.program_text import grep_patterns

__all__ = ["PRINTERS", "SHELL_SYNTAX_PATTERNS", "code_view", "is_data_word"]

PRINTERS: frozenset[str] = frozenset({"echo", "printf", ":", "true", "false"})
"""Commands whose arguments are only printed."""

SHELL_SYNTAX_PATTERNS: frozenset[str] = frozenset({"$(", "`", "<(", ">(", "<<<"})
"""Confirm patterns that name shell syntax, not a command (see the module docstring)."""

_GREPS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep"})
_GIT_MESSAGE = frozenset({"commit", "tag", "merge", "notes", "stash", "revert", "am"})
_GIT_SEARCH = frozenset({"log", "show", "shortlog", "whatchanged", "reflog"})
_GH_WRITERS = frozenset({"create", "edit", "comment", "review", "close", "merge"})
_MESSAGE_OPTIONS = frozenset({"-m", "--message", "--author"})
_SEARCH_OPTIONS = frozenset({"--grep", "--author", "--committer", "-S", "-G"})
_GH_OPTIONS = frozenset({"--title", "-t", "--body", "-b", "--notes", "-n", "--subject"})


def _drop_values(args: Sequence[Word], options: frozenset[str]) -> list[Word]:
    kept: list[Word] = []
    skip = False
    for word in args:
        if skip:
            skip = False
            continue
        value = word.value
        if value in options:
            kept.append(word)
            skip = True
        elif value.partition("=")[0] in options and "=" in value:
            kept.append(Word(value.partition("=")[0], word.source))
        elif any(value.startswith(o) and len(o) == 2 and len(value) > 2 for o in options):
            kept.append(Word(value[:2], word.source))
        else:
            kept.append(word)
    return kept


def _grep_args(args: Sequence[Word]) -> list[Word]:
    patterns = grep_patterns(args)
    return [w for i, w in enumerate(args) if i not in patterns]


def _code_args(argv0: str, args: Sequence[Word]) -> list[Word]:
    if argv0 in PRINTERS:
        return []
    if argv0 in _GREPS:
        return _grep_args(args)
    sub = next((w.value for w in args if not w.value.startswith("-")), "")
    if argv0 == "git":
        if sub in _GIT_MESSAGE:
            return _drop_values(args, _MESSAGE_OPTIONS)
        if sub in _GIT_SEARCH:
            return _drop_values(args, _SEARCH_OPTIONS)
        if sub == "grep":
            index = next(i for i, w in enumerate(args) if w.value == "grep")
            return [*args[: index + 1], *_grep_args(args[index + 1 :])]
    if argv0 == "gh" and _GH_WRITERS.intersection(w.value for w in args[:3]):
        return _drop_values(args, _GH_OPTIONS)
    return list(args)


def _segment_view(segment: Segment) -> Segment:
    if not segment.command_positions:
        return segment
    last = segment.command_positions[-1]
    args = segment.words[last + 1 :]
    kept = _code_args(segment.command, args)
    if len(kept) == len(args) and all(a is b for a, b in zip(kept, args, strict=True)):
        return segment
    words = (*segment.words[: last + 1], *kept)
    return attrs.evolve(segment, words=words, text=" ".join(w.value for w in words))


def is_data_word(segment: Segment, word: Word) -> bool:
    """Tell whether a word of a segment is only data (a commit message, a grep pattern).

    :param segment: one analysed segment.
    :param word: one of its words (compared by identity).
    :returns: true when the code view of the segment leaves the word out.
    """
    return not any(w is word for w in _segment_view(segment).words)


def code_view(analysis: CommandAnalysis) -> tuple[str, CommandAnalysis]:
    """The command as code only: data arguments dropped, words resolved.

    :param analysis: a command analysis (callers use it only when it is not opaque).
    :returns: the text (segments' resolved words, one per line) and an analysis with the
        same segments minus their data arguments.
    """
    segments = tuple(_segment_view(s) for s in analysis.segments)
    text = "\n".join(" ".join(w.value for w in s.words) for s in segments)
    if all(view is segment for view, segment in zip(segments, analysis.segments, strict=True)):
        return text, analysis  # no data argument: the analysis is its own code view
    return text, attrs.evolve(analysis, segments=segments)
