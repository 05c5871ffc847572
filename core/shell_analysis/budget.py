r"""The analysis budget: text that is no command, and commands too costly to analyse.

tree-sitter-bash's error recovery is super-linear on some malformed input: a 40 KB pipeline
ending in a dangling ``|``, ``a|a|a|…``, a long run of ``)``, ``'`<'`<…`` followed by a
stray keyword. Tokens that cannot be reduced pile up on the parse stack, and one recovery step
copies all of them, so the cost grows with the square of their number; no progress callback
runs inside that step. Other input (``x)x)x)…``) is linear but slow, and does reach the
callback. Hence two guards around every parse, a linear count of operators before it and a
CPU-time deadline during it, and caps on the walk over the tree, so that well-formed but huge
input (a 10 000-stage pipeline) stays cheap too.

| check          | when              | limit                     | outcome                       |
| -------------- | ----------------- | ------------------------- | ----------------------------- |
| text           | before anything   | NUL byte, lone surrogate  | refused: gates deny           |
| size           | before parsing    | 100 000 characters        | opaque (ask)                  |
| operators      | before parsing    | 600 in one statement (1)  | opaque (ask)                  |
| time           | parsing, walking  | 40 ms of CPU per analysis | opaque (ask)                  |
|                |                   | (garbage collection aside)|                               |
| syntax nodes   | walking           | 10 000                    | opaque (ask)                  |
| segments       | walking           | 1 000                     | opaque (ask)                  |

1. The characters ``| & < > ( )`` and backticks between two ``;`` or newlines, after
   removing what is literal text: heredoc bodies with a quoted delimiter (``<<'EOF'``),
   single-quoted strings, double-quoted strings without ``$`` or backtick, and
   backslash-escaped characters. Separators let tree-sitter reduce what it holds, so only one
   statement at a time counts. At the limit, the worst shapes found take 10 to 40 ms to parse.

Exhaustion never allows: what was walked before it is kept (a blocked command there is still
blocked) and the analysis is opaque, with a reason starting ``command too complex to
analyse``. The CPU-time deadline depends on the machine, so it is only a backstop set well
above what ordinary commands need (tens of microseconds); the deterministic limits come first.
A script of at most 512 bytes is parsed without either guard (its worst case is ~15 ms).
"""

from __future__ import annotations

import gc
import re
import threading
import time

import tree_sitter
import tree_sitter_bash

__all__ = [
    "MAX_COMMAND_CHARS",
    "MAX_NODES",
    "MAX_RUN",
    "MAX_SECONDS",
    "MAX_SEGMENTS",
    "TOO_COMPLEX",
    "Budget",
    "densest_run",
    "refusal",
]

MAX_COMMAND_CHARS = 100_000
"""Longer commands are not parsed: they are opaque."""

MAX_RUN = 600
"""Most operators (see the module table) between two statement separators of a script."""

MAX_SECONDS = 0.04
"""CPU seconds one analysis may spend parsing and walking, nested scripts included."""

MAX_NODES = 10_000
"""Most syntax nodes one analysis visits, nested scripts included."""

MAX_SEGMENTS = 1_000
"""Most segments (simple commands) one analysis collects."""

TOO_COMPLEX = "command too complex to analyse"
"""How every budget reason starts."""

_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_LITERAL = re.compile(
    rb"""(")(?:[^"\\$`]|\\.)*"|("(?:[^"\\]|\\.)*")|(')[^']*'|\\.""", re.DOTALL
)
_OPERATORS = b"|&;<>()`"
_HEREDOC_START = re.compile(
    rb"""<<-?[ \t]*(?:'([^'\n]{1,64})'|"([^"\n]{1,64})"|\\([\w.-]{1,64}))"""
)
_MAX_HEREDOCS = 32
_LONG_RUN = re.compile(rb"[^;\n]{%d,}" % MAX_RUN)
_CHECK_EVERY = 256
_SHORT = 512
"""Scripts up to this many bytes are parsed directly: at most ~15 ms on the worst shapes."""


def refusal(text: str) -> str | None:
    """Why a text cannot be a shell command at all, or ``None``.

    A NUL byte cannot reach ``execve`` and a lone surrogate cannot be encoded: bash would never
    run the text as written, so gates deny it rather than ask.

    :param text: the command as given.
    :returns: the reason, naming the character and its position (never the raw character).
    """
    position = text.find("\x00")
    if position >= 0:
        return f"the command contains a NUL byte (position {position})"
    found = None if text.isascii() else _LONE_SURROGATE.search(text)
    if found is not None:
        code = ord(found.group())
        return f"the command contains a lone surrogate U+{code:04X} (position {found.start()})"
    return None


def _without_literal_heredocs(source: bytes) -> bytes:
    """``source`` without the bodies of heredocs whose delimiter is quoted (literal text)."""
    if b"<<" not in source:
        return source
    pieces: list[bytes] = []
    position = 0
    for count, start in enumerate(_HEREDOC_START.finditer(source)):
        if count >= _MAX_HEREDOCS:
            break
        if start.start() < position:
            continue  # inside a body already removed, or a second heredoc on the same line
        delimiter = re.escape(start.group(1) or start.group(2) or start.group(3))
        body = source.find(b"\n", start.end())
        if body < 0:
            break
        end = re.compile(rb"^\t*" + delimiter + rb"$", re.MULTILINE).search(source, body + 1)
        if end is None:
            break
        pieces.append(source[position : body + 1])
        position = end.start()
    pieces.append(source[position:])
    return b"".join(pieces)


def densest_run(source: bytes) -> int:
    """The most operators between two statement separators of a script (see the module table).

    One linear pass: literal text goes (heredoc bodies with a quoted delimiter, quoted strings
    that hold no code, escaped characters), then the text is cut at ``;`` and newlines and
    the operators of each piece are counted. Pieces shorter than :data:`MAX_RUN` bytes cannot
    exceed it and are not counted.

    :param source: the script as UTF-8 bytes.
    :returns: the largest count, or 0 when no piece is long enough to matter.
    """
    code = _LITERAL.sub(rb"\1\2\3", _without_literal_heredocs(source))
    densest = 0
    for run in _LONG_RUN.finditer(code):
        text = run.group()
        densest = max(densest, len(text) - len(text.translate(None, _OPERATORS)))
    return densest


class _CollectorTime(threading.local):
    """CPU time this thread spent in the garbage collector, and when the current pass began."""

    spent = 0.0
    started: float | None = None


_COLLECTOR = _CollectorTime()


def _collector_clock(phase: str, _info: dict[str, int]) -> None:
    """``gc.callbacks`` entry: add each collection's CPU time to this thread's total."""
    if phase == "start":
        _COLLECTOR.started = time.thread_time()
    elif _COLLECTOR.started is not None:
        _COLLECTOR.spent += time.thread_time() - _COLLECTOR.started
        _COLLECTOR.started = None


gc.callbacks.append(_collector_clock)


def _analysis_time() -> float:
    """The CPU time of this thread outside the garbage collector.

    A collection of a large heap can take tens of milliseconds, and it runs in whichever
    thread happens to allocate: counted against an analysis, it would turn an ordinary
    command into an opaque one at random.
    """
    return time.thread_time() - _COLLECTOR.spent


class Budget:
    """What one analysis may still spend; shared by the top-level script and nested ones.

    :param seconds: CPU seconds for parsing and walking together, not counting time spent in
        the garbage collector. The clock starts with the first parse: a command the cheap
        first look (:mod:`.plain`) splits without the parser never reads it.
    """

    def __init__(self, seconds: float = MAX_SECONDS) -> None:
        self.deadline: float | None = None  # the clock starts with the first parse
        self.seconds = seconds
        self.nodes = 0
        self.checkpoint = _CHECK_EVERY
        self.segments = 0
        self.exhausted: str | None = None

    def _exhaust(self, why: str) -> bool:
        if self.exhausted is None:
            self.exhausted = f"{TOO_COMPLEX}: {why}"
        return False

    def _in_time(self) -> bool:
        now = _analysis_time()
        if self.deadline is None:
            self.deadline = now + self.seconds
        if now <= self.deadline:
            return True
        return self._exhaust(f"more than {self.seconds * 1000:.0f} ms of analysis")

    def parse(self, source: bytes) -> tree_sitter.Tree | None:
        """Parse a script within the budget.

        :param source: UTF-8 bytes, already made safe for tree-sitter.
        :returns: the tree, or ``None`` when the script is over the operator weight or the
            deadline passed while parsing (:attr:`exhausted` then says why).
        """
        if self.exhausted is not None:
            return None
        if self.deadline is None:
            self.deadline = _analysis_time() + self.seconds
        if len(source) <= _SHORT:  # too short to be slow: no callbacks, no counting
            return _PARSER.parse(source)
        if not self._in_time():
            return None
        densest = densest_run(source)
        if densest > MAX_RUN:
            self._exhaust(f"{densest} operators in one statement, more than {MAX_RUN}")
            return None
        view = memoryview(source)

        def read(offset: int, _point: tree_sitter.Point) -> memoryview:
            return view[offset:]

        def cancel(_offset: int, _has_error: bool) -> bool:
            return not self._in_time()

        try:
            tree = _PARSER.parse(read, progress_callback=cancel)
        except ValueError:  # the binding's way of saying the callback cancelled the parse
            tree = None
        if tree is None or self.exhausted is not None:
            _PARSER.reset()  # else the next parse would resume this one
            self._exhaust("the parser gave up")
            return None
        return tree

    def visit(self, count: int = 1) -> bool:
        """Count syntax nodes about to be visited.

        :param count: how many.
        :returns: false once the node limit or the deadline is passed.
        """
        self.nodes += count
        if self.nodes < self.checkpoint:
            return self.exhausted is None
        return self._check()

    def _check(self) -> bool:
        self.checkpoint = self.nodes + _CHECK_EVERY
        if self.exhausted is not None:
            return False
        if self.nodes > MAX_NODES:
            return self._exhaust(f"more than {MAX_NODES} syntax nodes")
        return self._in_time()

    def segment(self) -> bool:
        """Count one segment.

        :returns: false once the segment limit is passed (or the budget is already spent).
        """
        if self.exhausted is not None:
            return False
        self.segments += 1
        if self.segments > MAX_SEGMENTS:
            return self._exhaust(f"more than {MAX_SEGMENTS} simple commands")
        return True
