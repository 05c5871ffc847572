"""The last meaningful command of a command line, for output-filter matching.

``cd /p && cargo clippy 2>&1 | tail -20`` → ``cargo clippy``: take the last statement (after
``&&``, ``||``, ``;``, ``&`` or a newline), the first stage of its pipeline, and drop that
command's redirections and ``VAR=value`` prefixes. A trailing ``echo``/``printf``/``true``/``:``
after a program that made output is only a note and is passed over (``npx tsc -p . && echo
built`` → ``npx tsc -p .``; ``cd x && echo hi`` stays ``echo hi``). ``None`` when that changes
nothing (the whole command is already the last command) or nothing is left. Text that does not
parse falls back to Zeph's string rule: after the last ``&&``, cut at the first ``|`` and then
at the first ``2>``.
"""

from __future__ import annotations

from tree_sitter import Node

from tooldeck.shell_analysis.normalize import node_text
from tooldeck.shell_analysis.parse import parse_tree

__all__ = ["last_command"]

_SKIPPED = frozenset({"comment", "heredoc_body"})
_PREFIX = frozenset({"variable_assignment"})
_SUFFIX = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})

_MESSAGES = frozenset({b"echo", b"printf", b"true", b":"})
"""Commands that only print a fixed note or succeed (``&& echo built``, ``; true``): a
statement of theirs after another program's is not the program whose output is read."""
_MOVES = frozenset({b"cd", b"pushd", b"popd"})
"""Commands that only change directory: they make no output of their own to match."""


def _last_statement(node: Node, source: bytes) -> Node | None:
    statements = [c for c in node.named_children if c.type not in _SKIPPED]
    names = [_command_name(statement, source) for statement in statements]
    # a trailing note goes when a program before it made the output (not ``cd x && echo hi``)
    while (len(statements) > 1 and names[-1] in _MESSAGES
           and any(name not in _MESSAGES and name not in _MOVES for name in names[:-1])):
        statements.pop()
        names.pop()
    return statements[-1] if statements else None


def _command_name(node: Node, source: bytes) -> bytes | None:
    """The command word of a simple command (redirections aside), else ``None``."""
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        if body is None:
            return None
        node = body
    if node.type != "command":
        return None
    name = node.child_by_field_name("name")
    return None if name is None else source[name.start_byte : name.end_byte]


def _core(node: Node, source: bytes) -> Node:
    while True:
        if node.type == "list":
            last = _last_statement(node, source)
            if last is None:
                return node
            node = last
        elif node.type == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is None:
                return node
            node = body
        elif node.type == "pipeline" and node.named_child_count:
            node = node.named_children[0]
        else:
            return node


def _command_text(node: Node, source: bytes) -> str:
    if node.type != "command":
        return node_text(node, source)
    kept = [c for c in node.children if c.type not in _PREFIX and c.type not in _SUFFIX]
    if not kept:
        return ""
    return source[kept[0].start_byte : kept[-1].end_byte].decode("utf-8", "replace")


def _string_fallback(command: str) -> str | None:
    trimmed = command.strip()
    last = trimmed.rsplit("&&", 1)[-1].strip()
    if last == trimmed:
        return None
    last = last.split("|", 1)[0].split("2>", 1)[0].strip()
    return last or None


def last_command(command: str) -> str | None:
    """Extract the last meaningful command for filter matching.

    :param command: the full command line.
    :returns: e.g. ``cargo clippy`` for ``cd /p && cargo clippy 2>&1 | tail -20``, or ``None``.
    """
    source = command.encode("utf-8", "surrogatepass")
    tree = parse_tree(source)
    if tree is None or tree.root_node.has_error:  # over the budget or malformed
        return _string_fallback(command)
    root = tree.root_node
    statement = _last_statement(root, source)
    if statement is None:
        return None
    text = _command_text(_core(statement, source), source).strip()
    if not text or text == command.strip():
        return None
    return text
