r"""Word normalisation: turn tree-sitter word nodes into :class:`Word` values.

| written                          | value     | rule                                          |
| -------------------------------- | --------- | --------------------------------------------- |
| ``\sudo``, ``su\do``             | ``sudo``  | an unquoted backslash escapes the next char   |
| ``su\<newline>do``               | ``sudo``  | a line continuation joins the word (1)        |
| ``'su'``, ``s'u'do``             | ``sudo``  | single quotes removed, content literal        |
| ``"su""do"``                     | ``sudo``  | double quotes removed; ``\$ \` \" \\`` undone |
| ``$'\x73udo'``, ``$'\163udo'``   | ``sudo``  | ANSI-C escapes decoded (2)                    |
| ``$"sudo"``                      | ``sudo``  | locale-translated string taken literally      |
| ``$HOME``, ``${HOME}``           | ``~``     | the home directory, so path rules see it      |
| ``$x``, ``${x}``, ``$(…)``       | (nothing) | run-time value: the word is *dynamic*         |
| unquoted ``* ? [``, ``{a,b}``    | as is     | the word is *globbed* (the shell rewrites it) |
| ``wh``oami`` left a plain word   | ``whoami``| dynamic: bash runs the backquoted part (3)    |

1. Tree-sitter splits a word at a continuation; nodes separated by nothing but continuations
   are joined back, as bash does.
2. ``\xHH``, ``\NNN`` (octal), ``\uHHHH``, ``\UHHHHHHHH``, ``\cX`` and the C escapes.
3. tree-sitter-bash parses some backquotes inside a word as text; bash runs them.

Case is kept here; command words are lowercased when reduced to a command name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tree_sitter import Node

from tooldeck.shell_analysis.model import Word

__all__ = ["decode_ansi_c", "node_text", "word_from_nodes", "words_from_nodes"]

_CONTINUATION = "\\\n"
_GLOB = re.compile(r"(?<!\\)[*?\[]")
_BRACE = re.compile(r"(?<!\\)\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}")
_DQ_ESCAPE = re.compile(r"\\([$`\"\\\n])")
_UNQUOTED_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_BACKTICKS = re.compile(r"(?<!\\)`[^`]*`")
_DYNAMIC_TYPES = frozenset(
    {
        "simple_expansion",
        "expansion",
        "command_substitution",
        "process_substitution",
        "arithmetic_expansion",
    }
)
_PLAIN_TYPES = frozenset({"word", "number"})
_HOME_SPELLINGS = frozenset({"$HOME", "${HOME}"})
_C_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_ANSI_C = re.compile(
    r"\\(?:x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|([0-7]{1,3})|c(.)|(.))",
    re.DOTALL,
)


def node_text(node: Node, source: bytes) -> str:
    """Return a node's source text, never raising on odd bytes.

    :param node: any tree-sitter node.
    :param source: the original bytes (the tree may have been parsed from a sanitised copy
        of the same length, see :func:`tooldeck.shell_analysis.parse.parse_tree`).
    :returns: the text decoded as UTF-8 (surrogates passed through, invalid bytes replaced).
    """
    raw = source[node.start_byte : node.end_byte]
    try:
        return raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace")


def decode_ansi_c(body: str) -> str:
    r"""Decode the body of an ANSI-C string ``$'…'`` as bash does.

    :param body: the text between ``$'`` and ``'``.
    :returns: the decoded string (``\x73udo`` → ``sudo``, ``\163`` → ``s``).
    """

    def one(match: re.Match[str]) -> str:
        hex2, uni4, uni8, octal, ctrl, other = match.groups()
        if hex2 is not None:
            return chr(int(hex2, 16))
        if uni4 is not None or uni8 is not None:
            code = int(uni4 or uni8, 16)
            return chr(code) if code <= 0x10FFFF else "\ufffd"
        if octal is not None:
            return chr(int(octal, 8) & 0xFF)
        if ctrl is not None:
            return chr(ord(ctrl) & 0x1F)
        return _C_ESCAPES.get(other, "\\" + other)

    return _ANSI_C.sub(one, body)


def _unquoted(text: str) -> str:
    return _UNQUOTED_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


def _double_quoted(text: str) -> str:
    return _DQ_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


class _Builder:
    """Accumulates one word's value, dynamic flag and unquoted skeleton (for glob checks)."""

    __slots__ = ("dynamic", "skeleton", "source", "value")

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.value: list[str] = []
        self.skeleton: list[str] = []
        self.dynamic = False

    def literal(self, text: str, *, quoted: bool) -> None:
        self.value.append(text)
        self.skeleton.append("q" * len(text) if quoted else text)

    def unknown(self) -> None:
        self.dynamic = True
        self.skeleton.append("q")

    def add(self, node: Node) -> None:
        kind = node.type
        if kind == "raw_string":
            self.literal(node_text(node, self.source)[1:-1], quoted=True)
        elif kind == "string":
            self._string(node)
        elif kind == "ansi_c_string":
            self.literal(decode_ansi_c(node_text(node, self.source)[2:-1]), quoted=True)
        elif kind == "translated_string":
            for child in node.named_children:
                self.add(child)
        elif kind in _DYNAMIC_TYPES:
            self._expansion(node)
        elif kind in ("concatenation", "variable_assignment"):
            self._children_with_gaps(node)
        elif node.named_child_count == 0:
            raw = node_text(node, self.source)
            self.value.append(_unquoted(raw))
            self.skeleton.append(raw)
        else:
            self.unknown()

    def _expansion(self, node: Node) -> None:
        text = node_text(node, self.source)
        stripped = text.lstrip()
        if len(stripped) != len(text):
            self.literal(text[: len(text) - len(stripped)], quoted=True)
        if stripped in _HOME_SPELLINGS:
            self.literal("~", quoted=True)
        else:
            self.unknown()

    def _children_with_gaps(self, node: Node) -> None:
        position = node.start_byte
        for child in node.children:
            if child.start_byte > position:
                gap = self.source[position : child.start_byte]
                self.literal(_unquoted(gap.decode("utf-8", "replace")), quoted=False)
            self.add(child)
            position = child.end_byte

    def _string(self, node: Node) -> None:
        position = node.start_byte + 1
        for child in node.children:
            if child.type == '"':
                continue
            if child.start_byte > position:
                gap = self.source[position : child.start_byte]
                self.literal(_double_quoted(gap.decode("utf-8", "replace")), quoted=True)
            if child.type == "string_content":
                self.literal(_double_quoted(node_text(child, self.source)), quoted=True)
            elif child.type in _DYNAMIC_TYPES:
                self._expansion(child)
            elif not child.is_named:
                self.literal(node_text(child, self.source), quoted=True)
            else:
                self.unknown()
            position = child.end_byte
        end = node.end_byte - 1
        if end > position:
            gap = self.source[position:end]
            self.literal(_double_quoted(gap.decode("utf-8", "replace")), quoted=True)

    def word(self, source: str) -> Word:
        skeleton = "".join(self.skeleton)
        globbed = bool(_GLOB.search(skeleton) or _BRACE.search(skeleton))
        if _BACKTICKS.search(skeleton):  # unquoted backquotes left as text: bash runs them
            value = _BACKTICKS.sub("", "".join(self.value))
            return Word(value, source, True, globbed)
        return Word("".join(self.value), source, self.dynamic, globbed)


def word_from_nodes(nodes: Sequence[Node], source: bytes) -> Word:
    """Build one word from adjacent nodes (bash joins what touches without blanks).

    :param nodes: one or more word nodes with no blank between them.
    :param source: the bytes the tree was parsed from.
    :returns: the normalised :class:`Word`.
    """
    if len(nodes) == 1 and nodes[0].type in _PLAIN_TYPES and not nodes[0].named_child_count:
        raw = node_text(nodes[0], source)
        globbed = bool(_GLOB.search(raw) or ("{" in raw and _BRACE.search(raw)))
        if _BACKTICKS.search(raw):  # tree-sitter left ``wh``oami`` a plain word: bash does not
            return Word(_unquoted(_BACKTICKS.sub("", raw)), raw, True, globbed)
        return Word(_unquoted(raw) if "\\" in raw else raw, raw, False, globbed)
    builder = _Builder(source)
    for index, node in enumerate(nodes):
        following = nodes[index + 1] if index + 1 < len(nodes) else None
        if node.type == "$" and following is not None and following.type == "string":
            continue  # tree-sitter splits $"…" (translated string) outside the command name
        builder.add(node)
    text = source[nodes[0].start_byte : nodes[-1].end_byte]
    return builder.word(text.decode("utf-8", "replace"))


def _touching(left: Node, right: Node, source: bytes) -> bool:
    if left.end_byte == right.start_byte:
        return True
    gap = source[left.end_byte : right.start_byte]
    return len(gap) % 2 == 0 and gap == b"\\\n" * (len(gap) // 2)


def words_from_nodes(nodes: Sequence[Node], source: bytes) -> list[Word]:
    r"""Group word nodes into shell words and normalise each.

    Tree-sitter splits a word at a line continuation (``su\<newline>do``); bash does not,
    so nodes separated only by continuations, or by nothing, form one word.

    :param nodes: the argument-like children of a command, in order.
    :param source: the bytes the tree was parsed from.
    :returns: one :class:`Word` per shell word.
    """
    words: list[Word] = []
    group: list[Node] = []
    for node in nodes:
        if group and not _touching(group[-1], node, source):
            words.append(word_from_nodes(group, source))
            group = []
        group.append(node)
    if group:
        words.append(word_from_nodes(group, source))
    return words
