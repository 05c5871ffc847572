r"""The analysis budget: text that is no command, and commands too costly to analyse.

tree-sitter-bash's error recovery is super-linear on some malformed inputs: a 40 KB pipeline
ending in a dangling ``|``, a long run of ``)`` or ``a|a|a|…``. On these, one recovery step
copies every subtree left on the parse stack, so the cost grows with the square of the number
of operators, and no progress callback runs inside that step. Other inputs (``x)x)x)…``) are
linear but slow, and they do reach the callback. Hence two guards around every parse: a linear
count of operators before it, and a CPU-time deadline during it. The walk over the tree is
bounded as well, so that well-formed but huge input (a 10 000-stage pipeline) stays cheap.

| check          | when              | limit                     | outcome                       |
| -------------- | ----------------- | ------------------------- | ----------------------------- |
| text           | before anything   | NUL byte, lone surrogate  | refused: gates deny           |
| size           | before parsing    | 100 000 characters        | opaque (ask)                  |
| operators      | before parsing    | weight 2 000 (1)          | opaque (ask)                  |
| time           | parsing, walking  | 50 ms of CPU per analysis | opaque (ask)                  |
| syntax nodes   | walking           | 20 000                    | opaque (ask)                  |
| segments       | walking           | 1 000                     | opaque (ask)                  |

1. ``|`` and ``&`` weigh 2, ``(``, ``)``, ``<``, ``>`` and backticks 1, counted outside
   single-quoted strings and outside heredoc bodies with a quoted delimiter (``<<'EOF'``):
   both are literal text, which tree-sitter reads as one token.

Exhaustion never allows: what was walked before it is kept (a blocked command there is still
blocked) and the analysis is opaque, with a reason starting ``command too complex to
analyse``. The CPU-time deadline depends on the machine, so it is only a backstop set well
above what ordinary commands need; the deterministic limits come first.
"""

from __future__ import annotations

import re
import time

import tree_sitter
import tree_sitter_bash

__all__ = [
    "MAX_COMMAND_CHARS",
    "MAX_NODES",
    "MAX_OPERATOR_WEIGHT",
    "MAX_SECONDS",
    "MAX_SEGMENTS",
    "TOO_COMPLEX",
    "Budget",
    "operator_weight",
    "refusal",
]

MAX_COMMAND_CHARS = 100_000
"""Longer commands are not parsed: they are opaque."""

MAX_OPERATOR_WEIGHT = 2_000
"""Most operator weight (see the module table) one script may have before it is parsed."""

MAX_SECONDS = 0.05
"""CPU seconds one analysis may spend parsing and walking, nested scripts included."""

MAX_NODES = 20_000
"""Most syntax nodes one analysis visits, nested scripts included."""

MAX_SEGMENTS = 1_000
"""Most segments (simple commands) one analysis collects."""

TOO_COMPLEX = "command too complex to analyse"
"""How every budget reason starts."""

_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_LITERAL = re.compile(rb"""("(?:[^"\\]|\\.)*")|'[^']*'|\\.""", re.DOTALL)
_HEREDOC_START = re.compile(rb"""<<-?[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|\\([\w.-]+))""")
_MAX_HEREDOCS = 32
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


def operator_weight(source: bytes) -> int:
    """The operator weight of a script (see the module table), found in one linear pass.

    :param source: the script as UTF-8 bytes.
    :returns: the weight; above :data:`MAX_OPERATOR_WEIGHT` the script is not parsed.
    """
    code = _LITERAL.sub(rb"\1", _without_literal_heredocs(source))
    heavy = code.count(b"|") + code.count(b"&")
    light = sum(code.count(c) for c in (b"(", b")", b"<", b">", b"`"))
    return 2 * heavy + light


class Budget:
    """What one analysis may still spend; shared by the top-level script and nested ones.

    :param seconds: CPU seconds for parsing and walking together.
    """

    def __init__(self, seconds: float = MAX_SECONDS) -> None:
        self.deadline = time.thread_time() + seconds
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
        if time.thread_time() <= self.deadline:
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
        if len(source) <= _SHORT:  # too short to be slow: no callbacks, no counting
            return _PARSER.parse(source)
        if not self._in_time():
            return None
        weight = operator_weight(source)
        if weight > MAX_OPERATOR_WEIGHT:
            self._exhaust(f"operator weight {weight} is over {MAX_OPERATOR_WEIGHT}")
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
