"""Structural matches in one file: definitions whose name contains the symbol, and references."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import attrs
from tree_sitter import Node, Parser

from tooldeck.plugins.files.code_search.languages import definition_name

__all__ = ["Hit", "structural_hits"]

_SNIPPET_CHARS = 200


@attrs.frozen
class Hit:
    """One match in one file.

    :param line_start: first line (1-based).
    :param line_end: last line.
    :param snippet: the matched text, whitespace runs flattened to one space.
    :param reference: ``True`` for a use of the symbol, ``False`` for its definition.
    """

    line_start: int
    line_end: int
    snippet: str
    reference: bool = False


_PER_THREAD = threading.local()


def _parser(language: str) -> Parser:
    """The calling thread's parser for ``language`` (parsers are not shared across threads)."""
    from tree_sitter_language_pack import get_parser

    parsers: dict[str, Parser] = _PER_THREAD.__dict__.setdefault("parsers", {})
    if language not in parsers:
        parsers[language] = get_parser(language)  # type: ignore[arg-type]
    return parsers[language]


def _flat(text: bytes) -> str:
    flat = " ".join(text.decode("utf-8", "replace").split())
    return flat if len(flat) <= _SNIPPET_CHARS else flat[: _SNIPPET_CHARS - 1] + "…"


def _nodes(root: Node) -> Iterator[Node]:
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None:
            yield node
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while True:
            if not cursor.goto_parent():
                return
            if cursor.goto_next_sibling():
                break


def _is_name(node: Node) -> bool:
    """A leaf naming something: an identifier of any kind, or the command a Bash line runs."""
    if node.child_count:
        return False
    if node.type.endswith("identifier"):
        return True
    return node.type == "word" and node.parent is not None and node.parent.type == "command_name"


def structural_hits(source: bytes, language: str, symbol: str, *,
                    references: bool) -> list[Hit]:
    """Definitions whose name contains ``symbol`` (any case), and optionally its uses.

    :param source: the file's bytes.
    :param language: its grammar.
    :param symbol: the name or part of it.
    :param references: also list identifiers equal to ``symbol`` (any case) that do not name
        a definition.
    :returns: the hits in file order.
    """
    needle = symbol.lower()
    tree = _parser(language).parse(source)
    lines = source.split(b"\n")
    hits: list[Hit] = []
    names: set[tuple[int, int]] = set()
    for node in _nodes(tree.root_node):
        name = definition_name(node, language) if node.is_named else None
        if name is not None:
            names.add((name.start_byte, name.end_byte))
            if needle in (name.text or b"").decode("utf-8", "replace").lower():
                first = node.start_point.row
                hits.append(Hit(first + 1, node.end_point.row + 1,
                                _flat(b"\n".join(lines[first:first + 3]))))
        elif (references and _is_name(node)
              and (node.text or b"").decode("utf-8", "replace").lower() == needle
              and (node.start_byte, node.end_byte) not in names):
            row = node.start_point.row
            hits.append(Hit(row + 1, row + 1, _flat(lines[row]), reference=True))
    return hits
