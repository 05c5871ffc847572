r"""A cheap first look: commands made only of plain words, split without the parser.

Most commands an agent sends are a few plain words joined by list operators (``git status``,
``pytest -q 2>&1 | tail -20``, ``cd src && ls``). For those, this module finds the simple
commands with one regular expression instead of a tree-sitter parse and walk, and the
analyzer (:mod:`.parse`) builds the very same :class:`.CommandAnalysis` from them; anything
else goes to the parser. The subset is chosen so that no construct in it can mean two things:

| accepted                                        | example                    |
| ----------------------------------------------- | -------------------------- |
| words of ``A-Z a-z 0-9 _ . / : , + @ % = ~ ^ -`` | ``git log -n 10 HEAD~1``   |
| single quotes (no newline inside)               | ``grep -n 'def x' a.py``   |
| a backslash before a letter, digit or ``_./-``  | ``\ls -la``               |
| double quotes without ``$ ` \ !`` or newline    | ``git commit -m "fix it"`` |
| ``&& || ; | |& &``, newlines between commands   | ``make && ./run``          |
| ``[N]> [N]>> [N]< &> &>> [N]>&`` after the      | ``cmd > out.log 2>&1``     |
| words, one target each (N from 1 to 9)          |                            |

Everything else is refused here (and parsed): ``$``, backquotes, other backslashes, ``# ( ) { }
[ ] * ? !``, non-ASCII text, heredocs and here-strings, a first word holding ``=`` or one of
bash's reserved words or declaration builtins, a word after a redirection, an operator with
no command on either side, commands longer than :data:`MAX_PLAIN_CHARS`, and the spellings
tree-sitter reads its own way (a command word with ``@ % + : ^ , =`` or a leading ``-``,
an argument starting with ``=``, ``-`` before a redirection, a redirection of fd 0).

The differential tests (``tests/shell_analysis/test_plain_fast_path.py``) check that every command
accepted here is analysed exactly as the parser analyses it.
"""

from __future__ import annotations

import re

import attrs

from tooldeck.shell_analysis.model import Word

__all__ = ["MAX_PLAIN_CHARS", "PlainCommand", "Redirect", "plain_commands"]

MAX_PLAIN_CHARS = 2000
"""Longer commands are always parsed (the analysis budget then applies as usual)."""

_SUBSET = re.compile(
    r"""(?:[A-Za-z0-9_./:,+@%=~^ \t\n|&;<>-]|\\[A-Za-z0-9_./-]|'[^'\n]*'|"[^"$`\\!\n]*")*""")
# a simple command's text, then the operator that ends it ("" at the end of the command)
_PIECE = re.compile(r"""((?:>&|&>>?|[^'"&|;\n]|'[^']*'|"[^"]*")*)(&&|\|\||\|&|[;|&\n]|\Z)""")
# inside one simple command: (blank, redirection operator, word)
_PART = re.compile(
    r"""([ \t]+)|([1-9]?(?:&>>|&>|>>|>&|>|<))|"""
    r"""((?:[A-Za-z0-9_./:,+@%=~^-]|\\[A-Za-z0-9_./-]|'[^']*'|"[^"]*")+)""")
_QUOTED = re.compile(r"""'([^']*)'|"([^"]*)"|\\(.)""")
_FIRST_WORDS = frozenset({
    "if", "then", "elif", "else", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "select", "function", "in", "coproc", "declare", "typeset", "export", "local",
    "readonly", "unset",
})
_CONTINUED = frozenset({"&&", "||", "|", "|&"})
_PIPES = frozenset({"|", "|&"})
_SPECIAL = frozenset("<>'\"=\\")
# tree-sitter-bash reads some command words its own way ("a@", "a%", "a+:", "- A=1"), and
# "==" or "=~" as test operators: such commands are left to it
_COMMAND_WORD = re.compile(
    r"""(?:\\?[A-Za-z0-9_./~]|'[A-Za-z0-9_./~-]+'|"[A-Za-z0-9_./~-]+")"""
    r"""(?:[A-Za-z0-9_./~-]|\\[A-Za-z0-9_./-]|'[A-Za-z0-9_./~-]*'|"[A-Za-z0-9_./~-]*")*""")


@attrs.frozen
class Redirect:
    """One redirection of a plain command.

    :param operator: the operator without its file descriptor (``>``, ``>>``, ``<``, ``>&`` …).
    :param target: the word it redirects to.
    """

    operator: str
    target: Word


@attrs.frozen
class PlainCommand:
    """One simple command found by the cheap look.

    :param words: its words (none is dynamic or globbed).
    :param text: its source text, from the first word to the last (redirections excluded).
    :param piped: whether a pipe feeds its standard input.
    :param redirects: its redirections, in source order.
    """

    words: tuple[Word, ...]
    text: str
    piped: bool
    redirects: tuple[Redirect, ...]


_KNOWN: dict[str, Word] = {}
_KNOWN_LIMIT = 4096


def _unquote(match: re.Match[str]) -> str:
    single, double, escaped = match.groups()
    return single if single is not None else double if double is not None else escaped


def _word(raw: str) -> Word:
    """The word a raw token spells (words are immutable: common ones are made once)."""
    found = _KNOWN.get(raw)
    if found is not None:
        return found
    if "'" not in raw and '"' not in raw and "\\" not in raw:
        found = Word(raw, raw)
    else:
        found = Word(_QUOTED.sub(_unquote, raw), raw)
    if len(_KNOWN) < _KNOWN_LIMIT:
        _KNOWN[raw] = found
    return found


def _simple(body: str, piped: bool) -> PlainCommand | None:
    """One simple command (``body`` has no blank at either end), or ``None`` to refuse it."""
    if _SPECIAL.isdisjoint(body):
        raws = body.split()
        first = raws[0]
        if first in _FIRST_WORDS or _COMMAND_WORD.fullmatch(first) is None:
            return None
        return PlainCommand(tuple(map(_word, raws)), body, piped, ())
    words: list[Word] = []
    redirects: list[Redirect] = []
    pending: str | None = None
    offset = end = 0
    blank_before = False
    for blank, operator, raw in _PART.findall(body):
        if blank:
            offset += len(blank)
            blank_before = True
            continue
        if operator:
            if pending is not None or not blank_before or (words and words[-1].source == "-"):
                return None  # tree-sitter drops a "-" word before a redirection
            pending = operator.lstrip("123456789")
            offset += len(operator)
        elif pending is not None:
            if "\\" in raw:
                return None  # tree-sitter splits such a target in two
            redirects.append(Redirect(pending, _word(raw)))
            pending = None
            offset += len(raw)
        else:
            if redirects or raw[0] == "=":
                return None  # a word after a redirection, "==", "=~": the parser reads these oddly
            words.append(_word(raw))
            offset += len(raw)
            end = offset
        blank_before = False
    if pending is not None or offset != len(body) or not words:
        return None
    first = words[0].source
    if first in _FIRST_WORDS or _COMMAND_WORD.fullmatch(first) is None:
        return None
    return PlainCommand(tuple(words), body[:end], piped, tuple(redirects))


def plain_commands(command: str) -> list[PlainCommand] | None:
    """Split a plain command into its simple commands, or refuse it.

    :param command: the command text.
    :returns: the simple commands in source order, or ``None`` when the command is outside
        the subset of the module table (the parser must then analyse it).
    """
    if len(command) > MAX_PLAIN_CHARS or not command.isascii() or "\n\\" in command or (
            _SUBSET.fullmatch(command) is None):
        return None  # a line that starts with a backslash: the parser's own reading (parse.py)
    found: list[PlainCommand] = []
    position = 0
    piped = False
    dangling = False  # the last command ended with && || | |&: another must follow
    for match in _PIECE.finditer(command):
        if match.start() != position:
            return None
        position = match.end()
        piece, operator = match.groups()
        body = piece.strip(" \t")
        if body:
            simple = _simple(body, piped)
            if simple is None:
                return None
            found.append(simple)
            piped = operator in _PIPES
            dangling = operator in _CONTINUED
        elif operator not in ("\n", ""):
            return None  # an operator with no command before it
        if not operator:
            break
    if dangling or position != len(command):
        return None
    return found
