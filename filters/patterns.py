"""Safe regular expressions: RE2 compilation with limits, and whole-text line matching.

Every pattern that comes from a rule file is compiled with google-re2, whose matching time is
linear in the input: a user pattern cannot hang the process. RE2 rejects backreferences and
lookaround; such a pattern is reported as a :class:`PatternError` naming the pattern.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import Any, Protocol, overload

from tooldeck.filters.spans import LineData

__all__ = [
    "MAX_PATTERN_CHARS",
    "MAX_PATTERN_MEMORY",
    "FoundLines",
    "LineMatcher",
    "PatternError",
    "Regex",
    "RegexMatch",
    "compile_pattern",
    "confine_to_line",
    "re2_options",
]

MAX_PATTERN_CHARS = 512
"""Longest accepted pattern, in characters (exactly 512 is accepted)."""

MAX_PATTERN_MEMORY = 1 << 20
"""RE2 memory budget of one compiled user pattern, in bytes."""

_UNION_MEMORY = 32 << 20


class PatternError(ValueError):
    """A pattern that is too long or that RE2 cannot compile; the message says which and why."""


class RegexMatch(Protocol):
    """The part of a match object the filters use."""

    def group(self, index: int = 0, /) -> str | None:
        """The text of a group (``None`` when the group did not take part)."""

    def start(self, index: int = 0, /) -> int:
        """Start offset of a group."""

    def end(self, index: int = 0, /) -> int:
        """End offset of a group."""


class Regex(Protocol):
    """A compiled RE2 pattern (the subset of the ``re``-like API the filters use)."""

    @property
    def pattern(self) -> str:
        """The source text of the pattern."""

    @property
    def groups(self) -> int:
        """Number of capturing groups."""

    def search(self, text: str, /) -> RegexMatch | None:
        """First match anywhere in ``text``."""

    def sub(self, repl: str, text: str, /) -> str:
        """Replace every match with ``repl``."""

    def finditer(self, text: str, /) -> Iterator[RegexMatch]:
        """Every non-overlapping match, in order."""


def re2_options(max_mem: int) -> Any:
    """RE2 options with a memory cap and error logging off (errors are raised instead)."""
    import re2

    options = re2.Options()
    options.max_mem = max_mem
    options.log_errors = False
    return options


def _error_reason(exc: Exception) -> str:
    reason = exc.args[0] if exc.args else exc
    if isinstance(reason, bytes):
        return reason.decode("utf-8", "replace")
    return str(reason)


def compile_pattern(pattern: str, *, label: str = "pattern") -> Regex:
    """Compile one user pattern with RE2, enforcing the 512-character limit.

    :param pattern: the regular expression (RE2 syntax).
    :param label: how to name the pattern in an error message, e.g. ``"match regex"``.
    :returns: the compiled pattern.
    :raises PatternError: when the pattern is too long or not valid RE2 syntax.
    """
    if len(pattern) > MAX_PATTERN_CHARS:
        raise PatternError(
            f"{label} is {len(pattern)} characters long; the limit is {MAX_PATTERN_CHARS}"
        )
    return _compile(pattern, label, MAX_PATTERN_MEMORY)


def _compile(pattern: str, label: str, max_mem: int) -> Regex:
    import re2

    try:
        compiled: Regex = re2.compile(pattern, re2_options(max_mem))
    except re2.error as exc:
        raise PatternError(
            f"{label} {pattern!r} cannot be compiled by RE2: {_error_reason(exc)}"
            " (backreferences and lookaround are not supported)"
        ) from exc
    return compiled


def _compile_raw(pattern: str, label: str) -> Any:
    """Compile to the low-level RE2 object, which matches bytes without per-call decoding.

    Groups do not capture: only where the whole match ends is used, and a capturing group
    (e.g. in a user pattern) would make RE2 run its slower submatch engines over every match.
    """
    from re2 import _re2

    options = re2_options(_UNION_MEMORY)
    options.never_capture = True
    compiled = _re2.RE2(pattern.encode("utf-8"), options)
    if not compiled.ok():
        reason = _error_reason(Exception(compiled.error()))
        raise PatternError(f"{label} cannot be combined: {reason}")
    return compiled


def _escape_value(pattern: str, start: int) -> tuple[int, int] | None:
    r"""Parse a ``\x..``, ``\x{..}`` or octal escape at ``start``: (code point, end index)."""
    kind = pattern[start + 1]
    if kind == "x":
        if pattern[start + 2 : start + 3] == "{":
            close = pattern.find("}", start + 3)
            digits, end = pattern[start + 3 : close], close + 1
        else:
            digits, end = pattern[start + 2 : start + 4], start + 4
        base = 16
    else:
        end = start + 2
        while end < len(pattern) and end < start + 4 and pattern[end] in "01234567":
            end += 1
        digits, base = pattern[start + 1 : end], 8
    try:
        return int(digits, base), end
    except ValueError:
        return None


def _flags_allow_newline(pattern: str, start: int) -> bool:
    """True when the group at ``start`` (``(?flags...``) turns on the ``s`` flag."""
    end = start + 2
    while end < len(pattern) and pattern[end].isalpha():
        end += 1
    return "s" in pattern[start + 2 : end]


def confine_to_line(pattern: str) -> str | None:
    r"""Rewrite a pattern so that it can never match across a newline, or say it cannot be done.

    ``\s`` becomes a newline-free whitespace class, ``[^…]``, ``\D`` and ``\W`` exclude the
    newline, and ``\A``/``\z`` become line anchors. Patterns using constructs that could still
    reach a newline (``(?s)``, ``\n``, ``\p``, POSIX classes, ``\C``, ``\Q``) give ``None``.

    :param pattern: an RE2 pattern meant to be applied to one line at a time.
    :returns: an equivalent pattern safe to run over a whole multi-line text, or ``None``.
    """
    out: list[str] = []
    index, in_class, size = 0, False, len(pattern)
    while index < size:
        char = pattern[index]
        if char == "\n":
            return None
        if char == "\\":
            if index + 1 >= size:
                return None
            kind = pattern[index + 1]
            if kind in "nCpPQ":
                return None
            if kind == "x" or kind in "01234567":
                parsed = _escape_value(pattern, index)
                if parsed is None or parsed[0] == 10:
                    return None
                out.append(pattern[index : parsed[1]])
                index = parsed[1]
                continue
            if kind == "s":
                out.append(r"\t\f\r " if in_class else r"[\t\f\r ]")
            elif kind in "DW":
                if in_class:
                    return None
                out.append(rf"[^\{kind.lower()}\n]")
            elif kind == "A" and not in_class:
                out.append("^")
            elif kind == "z" and not in_class:
                out.append("$")
            else:
                out.append(pattern[index : index + 2])
            index += 2
            continue
        if in_class:
            if char == "[" and pattern[index + 1 : index + 2] == ":":
                return None
            in_class = char != "]"
            out.append(char)
            index += 1
            continue
        if char == "[":
            in_class = True
            out.append("[")
            index += 1
            if pattern[index : index + 1] == "^":
                out.append(r"^\n")
                index += 1
            if pattern[index : index + 1] == "]":
                out.append(r"\]")
                index += 1
            continue
        if (
            char == "("
            and pattern[index + 1 : index + 2] == "?"
            and _flags_allow_newline(pattern, index)
        ):
            return None
        out.append(char)
        index += 1
    return "".join(out)


class FoundLines(Sequence[tuple[int, int, int]]):
    """``(start, end, run_end)`` of lines found inside runs, kept in three arrays of offsets.

    A tuple of three Python integers takes about 130 bytes per line (a quarter of the input
    on a log whose noise holds many protected lines); the arrays take 24.
    """

    __slots__ = ("ends", "run_ends", "starts")

    def __init__(self) -> None:
        self.starts = array("q")
        self.ends = array("q")
        self.run_ends = array("q")

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int, int]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int, int] | list[tuple[int, int, int]]:
        if isinstance(index, slice):
            return list(zip(self.starts[index], self.ends[index], self.run_ends[index],
                            strict=True))
        return self.starts[index], self.ends[index], self.run_ends[index]

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        return zip(self.starts, self.ends, self.run_ends, strict=True)


class LineMatcher:
    """Decides which lines of a text match any of several patterns, scanning the whole text at once.

    Patterns keep per-line ``search`` semantics. When all of them can be confined to one line
    (:func:`confine_to_line`) a single RE2 scan finds whole runs of matching lines, which is what
    makes filtering tens of megabytes fast; otherwise lines are tested one by one.

    :param patterns: RE2 patterns, each already validated with :func:`compile_pattern`.
    :param label: how to name the patterns in an error message.
    """

    def __init__(self, patterns: Sequence[str], *, label: str = "pattern") -> None:
        if not patterns:
            raise PatternError(f"{label} list must not be empty")
        for position, pattern in enumerate(patterns):
            compile_pattern(pattern, label=f"{label} #{position + 1}")
        self.patterns = tuple(patterns)
        alternatives = "|".join(f"(?:{pattern})" for pattern in patterns)
        self._line_regex = _compile(alternatives, label, _UNION_MEMORY)
        confined = [confine_to_line(pattern) for pattern in patterns]
        self._run_regex: Any = None
        self._one_line_regex: Any = None
        self.confined_union: str | None = None
        """The patterns as one alternation confined to a line, ``None`` when not confinable."""
        if all(part is not None for part in confined):
            union = "|".join(f"(?:{part})" for part in confined)
            self.confined_union = union
            # Searched for unanchored, each finds the next run (or line) in one call: its end
            # with a forward scan, its start by reading the run (or line) back, which costs
            # less than the second call into RE2 an anchored search needs to find the start.
            self._one_line_regex = _compile_raw(rf"(?m)^[^\n]*(?:{union})[^\n]*\n", label)
            self._run_regex = _compile_raw(rf"(?m)(?:^[^\n]*(?:{union})[^\n]*\n)+", label)

    def matches(self, line: str) -> bool:
        """Whether one line (no newline inside) matches any pattern.

        :param line: the line.
        :returns: ``True`` on a match.
        """
        return self._line_regex.search(line) is not None

    def line_runs(self, data: LineData) -> list[tuple[int, int]]:
        """Byte spans of the runs of consecutive matching lines in ``data``.

        :param data: UTF-8 text in which every line, the last included, ends with a newline.
        :returns: ``(start, end)`` pairs, each from a line start to just after a newline,
            in order and not overlapping.
        """
        if self._run_regex is None:
            return self._line_runs_one_by_one(data)
        import re2

        runs: list[tuple[int, int]] = []
        append = runs.append
        search = self._run_regex.Match
        unanchored = re2._Anchor.UNANCHORED
        position, size = 0, len(data)
        while position < size:
            start, position = search(unanchored, data, position, size)[0]
            if start < 0:
                break
            append((start, position))
        return runs

    def any_line(self, data: LineData) -> bool:
        """Whether some line of ``data`` matches: one search, which stops at the first line found.

        :param data: UTF-8 text in which every line, the last included, ends with a newline.
        :returns: ``True`` when a line matches.
        """
        if self._one_line_regex is None:
            return bool(self._line_runs_one_by_one(data))
        import re2

        found = self._one_line_regex.Match(re2._Anchor.UNANCHORED, data, 0, len(data))[0]
        return bool(found[0] >= 0)

    def runs_with_stops(
        self, data: LineData, stop: LineMatcher
    ) -> tuple[list[tuple[int, int]], FoundLines] | None:
        """:meth:`line_runs`, plus the lines inside the runs that ``stop`` matches.

        The runs come from one scan of ``data``; the ``stop`` lines are then searched for
        inside the runs only: one RE2 call per ``stop`` line found and one per run (a call
        into RE2 costs a microsecond or more whatever it reads, so the number of calls, not
        the bytes read, is what this path pays for).

        :param data: UTF-8 text in which every line, the last included, ends with a newline.
        :param stop: the second set of patterns (e.g. the must-keep rules).
        :returns: the runs (as :meth:`line_runs`) and ``(start, end, run_end)`` of each line
            inside a run that ``stop`` matches (``end`` just after its newline, ``run_end``
            the end of its run); ``None`` when either matcher cannot be confined to a line.
        """
        if self.confined_union is None or stop.confined_union is None:
            return None
        runs = self.line_runs(data)
        return runs, stop.lines_within(data, runs)

    def lines_within(
        self, data: LineData, runs: Sequence[tuple[int, int]]
    ) -> FoundLines:
        """The matching lines inside ``runs``, each found by one search bounded by its run.

        Only for a matcher whose patterns are confined to a line (:attr:`confined_union`).

        :param data: UTF-8 text in which every line, the last included, ends with a newline.
        :param runs: sorted, non-overlapping, line-aligned spans of ``data``.
        :returns: ``(start, end, run_end)`` of each matching line, in order (``end`` just
            after its newline, ``run_end`` the end of the run holding it).
        """
        import re2

        search = self._one_line_regex.Match
        unanchored = re2._Anchor.UNANCHORED
        lines = FoundLines()
        add_start, add_end, add_run_end = (
            lines.starts.append, lines.ends.append, lines.run_ends.append
        )
        for position, run_end in runs:
            while position < run_end:
                start, position = search(unanchored, data, position, run_end)[0]
                if start < 0:
                    break
                add_start(start)
                add_end(position)
                add_run_end(run_end)
        return lines

    def _line_runs_one_by_one(self, data: LineData) -> list[tuple[int, int]]:
        runs: list[tuple[int, int]] = []
        offset = 0
        for raw_line in data.split(b"\n")[:-1]:
            after = offset + len(raw_line) + 1
            if self.matches(raw_line.decode("utf-8", "replace")):
                if runs and runs[-1][1] == offset:
                    runs[-1] = (runs[-1][0], after)
                else:
                    runs.append((offset, after))
            offset = after
        return runs
