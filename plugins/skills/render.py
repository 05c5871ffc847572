r"""Render a skill tool's parameters: ``{arg}`` placeholders filled with the call's values.

A skill tool is a template of another tool's call. Its ``params`` are that tool's parameters
with ``{arg}`` placeholders; a call fills them in. A value substituted into a ``command``
parameter is handed to a shell, so it must stay one shell word, whatever it contains.

=====================  ===================================================================
rule                   behaviour
=====================  ===================================================================
command-quoted         in a parameter named ``command`` (at any depth) every substituted
                       value is quoted with :func:`shlex.quote`: one word, no expansion
bare-placeholder       in a command template a placeholder must stand where a quoted word
                       may: not inside ``'...'``, ``"..."`` or backticks, not after ``$``
                       or ``\``, not in a comment, not after a here-document (``<<``),
                       and a string arg not inside ``[[ ]]``, ``(( ))``, ``$(( ))``,
                       ``$[ ]`` or an array subscript ``name[ ]`` (bash evaluates words
                       there as arithmetic); a template breaking this is refused when the
                       skill is loaded
no-nul                 a value with a NUL character is refused (no shell word can hold it)
no-subscript-code      a value for a command holding ``[`` and a command substitution
                       (``$(`` or a backtick) is refused: bash evaluates a quoted word as an
                       arithmetic expression in many places (``let``, ``declare -i``,
                       ``printf -v``, ``read``, ``[ -v ]``, array subscripts), and a
                       subscript there runs its command substitutions
typed-whole            a parameter whose whole text is one placeholder gets the typed
                       value (an integer stays an integer)
verbatim               elsewhere values are substituted as text
unknown-braces         in a command, ``{x}`` naming no arg is left as written (``awk
                       '{print}'``); elsewhere it is refused when the skill is loaded
=====================  ===================================================================

Quoting keeps a value one word; it cannot help a template that hands that word to an
interpreter (``eval {x}``, ``sh -c {x}``): such a skill runs code by design, and its rendered
command is judged by the shell policy like any other (docs/skills.md).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any

__all__ = ["COMMAND_KEY", "PLACEHOLDER", "command_template_problem", "render_params"]

COMMAND_KEY = "command"
"""The parameter whose substituted values are shell-quoted."""

PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]{0,31})\}")
"""``{arg}``: an arg name (lowercase letters, digits, ``_``) in braces."""


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _scan_states(template: str) -> list[str]:
    """The shell context at each character of ``template``: a small bash lexer.

    Contexts: ``plain``, ``'`` (single quotes), ``"`` (double quotes), ``` ` ```
    (backticks), ``comment``, ``heredoc`` (after ``<<``), ``arith`` (inside ``[[ ]]`` or
    ``(( ))``), ``escaped`` (the character after a backslash or ``$``).
    """
    states: list[str] = []
    quote: str | None = None
    comment = heredoc = False
    arith = 0
    escaped = False
    pair = False  # the character is the second of a two-character token
    for i, char in enumerate(template):
        prev = template[i - 1] if i else ""
        if pair:
            states.append(states[-1])
            pair = False
            continue
        if escaped:
            states.append("escaped")
            escaped = False
            continue
        if comment:
            states.append("comment")
            comment = char != "\n"
            continue
        if quote is not None:
            states.append(quote)
            if char == quote:
                quote = None
            elif char == "\\" and quote != "'":
                escaped = True
            continue
        state = "heredoc" if heredoc else ("arith" if arith else "plain")
        states.append(state if char not in "$\\" else "plain")
        if char in "'\"`":
            quote = char
        elif char == "$" and template.startswith(("$((", "$["), i):
            arith += 1
            escaped = True
        elif char == "$" and template[i + 1:i + 2] in ("'", '"'):
            pass  # $'...' and $"...": the quote opens at the next character
        elif char in "$\\":
            escaped = True
        elif char == "#" and (not prev or prev.isspace() or prev in ";&|("):
            comment = True
        elif template.startswith("<<", i):
            heredoc = True
        elif template.startswith(("[[", "(("), i):
            arith += 1
            pair = True
        elif char == "[" and (prev.isalnum() or prev == "_"):
            arith += 1  # an array subscript: name[...]
        elif template.startswith(("]]", "))"), i) and arith:
            arith -= 1
            pair = True
        elif char == "]" and arith:
            arith -= 1
    return states


_WHERE = {
    "'": "inside '...' quotes", '"': 'inside "..." quotes', "`": "inside backticks",
    "escaped": "right after '$' or '\\'", "comment": "in a comment",
    "heredoc": "after a here-document '<<'",
    "arith": "inside [[ ]], (( )), $[ ] or a subscript name[ ] (arithmetic)",
}


def command_template_problem(template: str, args: Mapping[str, str]) -> str | None:
    """Why a command template may not take shell-quoted values safely, or ``None``.

    :param template: the ``command`` parameter's text.
    :param args: the declared args, name -> type (``string``, ``integer``, ``boolean``).
    :returns: the first problem (rule ``bare-placeholder``), naming the placeholder.
    """
    states = _scan_states(template)
    for match in PLACEHOLDER.finditer(template):
        name = match.group(1)
        if name not in args:
            continue
        state = states[match.start()]
        if state == "arith" and args[name] != "string":
            continue
        if state != "plain":
            return (f"placeholder {{{name}}} is {_WHERE[state]}: write it as a bare word "
                    "(its value is shell-quoted for you)")
    return None


def _fill(text: str, values: Mapping[str, Any], quote: bool) -> Any:
    whole = PLACEHOLDER.fullmatch(text)
    if whole is not None and whole.group(1) in values and not quote:
        return values[whole.group(1)]

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            return match.group(0)
        word = _word(values[name])
        if not quote:
            return word
        if "[" in word and ("$(" in word or "`" in word):
            raise ValueError(f"{name}: a value holding '[' and a command substitution ('$(' or "
                             "'`') is refused: bash could run it as an array subscript")
        return shlex.quote(word)

    return PLACEHOLDER.sub(one, text)


def _render(node: Any, values: Mapping[str, Any], quote: bool) -> Any:
    if isinstance(node, str):
        return _fill(node, values, quote)
    if isinstance(node, Mapping):
        return {k: _render(v, values, quote or k == COMMAND_KEY) for k, v in node.items()}
    if isinstance(node, list):
        return [_render(item, values, quote) for item in node]
    return node


def render_params(params: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The underlying call's parameters: ``params`` with every placeholder filled in.

    :param params: the skill tool's parameter template (the front matter's ``params``).
    :param values: the call's validated arg values, by name.
    :returns: a new mapping; ``params`` is not changed.
    :raises ValueError: a value holds a NUL character (rule ``no-nul``), or a command's value
        could run as an array subscript (rule ``no-subscript-code``).
    """
    for name, value in values.items():
        if isinstance(value, str) and "\x00" in value:
            raise ValueError(f"{name}: a value may not contain a NUL character")
    return {k: _render(v, values, k == COMMAND_KEY) for k, v in params.items()}
