"""Newlines that tree-sitter-bash reads inside one simple command.

Bash ends a simple command at every newline that is not escaped or quoted. tree-sitter-bash
0.25 does not always: after a pipeline of three or more commands, in ``a | b | c⏎d && e``, it
reads ``c d`` as one command and ``e`` as the next. ``ls | sort | echo⏎rm -rf $HOME && true``
therefore hid the ``rm`` as an argument of ``echo``, and ``… | sort⏎wc -l && …`` in an agent's
loop became ``sort wc -l``. The first look (:mod:`.plain`), which splits like bash, and the
parser disagreed on such a command; the fast path's property test found it.

:func:`split_joined_lines` finds those newlines: any newline between two parts of one parsed
``command`` node is one bash would have ended the command at (here-document bodies belong to
their redirection, and quoted newlines to their word, so neither lies between two parts). It
writes a ``;`` over each one, and spaces over a comment that ends there (a ``;`` would extend
the comment), which keeps every offset; the parser (:mod:`.parse`) then parses again.
"""

from __future__ import annotations

import itertools

import tree_sitter
import tree_sitter_bash

_COMMANDS = tree_sitter.Query(tree_sitter.Language(tree_sitter_bash.language()),
                              "(command) @command")


def split_joined_lines(root: tree_sitter.Node, source: bytes) -> bytes | None:
    """The source with each newline the parser read inside a simple command made a ``;``.

    :param root: the root of the tree parsed from ``source``.
    :param source: the parsed bytes.
    :returns: the rewritten bytes, of the same length, or ``None`` when no command of the tree
        spans a newline between its parts.
    """
    lines: bytearray | None = None
    for node in tree_sitter.QueryCursor(_COMMANDS).captures(root).get("command", ()):
        for before, after in itertools.pairwise(node.children):
            at = source.find(b"\n", before.end_byte, after.start_byte)
            if at < 0:
                continue
            lines = bytearray(source) if lines is None else lines
            if before.type == "comment":
                lines[before.start_byte:before.end_byte] = b" " * (before.end_byte
                                                                   - before.start_byte)
            lines[at] = ord(";")
            break
    return None if lines is None else bytes(lines)
