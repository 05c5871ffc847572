r"""Scripts a command writes and then runs: judged by what they contain.

``printf 'rm -rf ~\n' > run.sh && sh run.sh`` runs ``rm -rf ~``, yet every rule saw only a
file of the project being written and a file of the project being run. When a segment writes
text known statically (``echo``, ``printf``, ``cat``/``tee`` fed a heredoc or here-string) to a
file and a later segment runs that file (``sh f``, ``bash f``, ``source f``, ``./f``,
``python3 f``…), the walker analyses the text as that program's code: a shell script as a
nested script (as ``bash -c`` would be), an interpreter's as its one-liner (as ``python3 -c``).
This only adds segments to judge; the write and the run keep their own judgement.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from tooldeck.shell_analysis.carriers import SHELLS, Stdin, stdin_program
from tooldeck.shell_analysis.model import Word, command_name

__all__ = ["STAGING_OPERATORS", "staged_key", "staged_program", "written_text"]

STAGING_OPERATORS = frozenset({">", ">>", ">|"})
"""The redirections that put a command's standard output into a file."""

_SOURCERS = frozenset({"source", "."})
_MAKES = frozenset({"make", "gmake"})
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_ECHO_OPTION = re.compile(r"-[neE]+")
_ESCAPES = {"\\n": "\n", "\\t": "\t", "\\\\": "\\"}


def staged_key(path: str) -> str:
    """The name a staged file is known by: ``./run.sh`` and ``run.sh`` are one file.

    :param path: a static path as written.
    :returns: the path normalised lexically.
    """
    return os.path.normpath(path)


def _printf_text(fmt: str) -> str:
    for escape, character in _ESCAPES.items():
        fmt = fmt.replace(escape, character)
    return fmt


def written_text(words: Sequence[Word], stdin: Stdin) -> str | None:
    r"""The text a segment writes on its standard output, when it is known statically.

    :param words: the segment's words, command word first.
    :param stdin: what it reads on standard input.
    :returns: the text for ``echo ARGS``, ``printf FORMAT`` (escapes ``\n``, ``\t``
        decoded), and ``cat``/``tee`` fed a static heredoc or here-string; else ``None``.
    """
    if not words or not all(w.stable for w in words):
        return None
    name = command_name(words[0].value)
    args = [w.value for w in words[1:]]
    if name == "echo":
        while args and _ECHO_OPTION.fullmatch(args[0]):
            args = args[1:]
        return " ".join(args) + "\n"
    if name == "printf" and args:
        return _printf_text(" ".join(args))
    if name in ("cat", "tee") and stdin.kind in ("heredoc", "here-string") and not stdin.dynamic:
        return stdin.text
    return None


def staged_program(final: Sequence[Word], staged: Mapping[str, str]
                   ) -> tuple[str, str, list[Word] | None] | None:
    """What a segment runs when it runs a file the command wrote before.

    :param final: the final command's words (wrappers peeled).
    :param staged: the text written so far, by :func:`staged_key`.
    :returns: ``(file, text, None)`` for a shell script (``sh f``, ``source f``, ``./f``),
        ``(file, text, one_liner)`` for an interpreter's program file (``python3 f`` as
        ``python3 -c TEXT``), or ``None`` when no staged file is run; ``file`` is the run
        file's :func:`staged_key`.
    """
    if not final or not final[0].stable:
        return None
    name = command_name(final[0].value)
    if name in _MAKES:
        return _make_recipes(final, staged)
    key = staged_key(final[0].value)
    program = staged.get(key) if "/" in final[0].value else None
    if program is not None:  # ./run.sh
        return key, program, None
    operands = [w for w in final[1:] if not w.value.startswith("-")]
    if not operands or not operands[0].stable:
        return None
    key = staged_key(operands[0].value)
    text = staged.get(key)
    if text is None:
        return None
    if name in SHELLS or name in _SOURCERS:
        return key, text, None
    one_liner = stdin_program([final[0]], Stdin("heredoc", text))
    return (key, text, one_liner) if one_liner is not None else None


def _make_recipes(final: Sequence[Word], staged: Mapping[str, str]
                  ) -> tuple[str, str, list[Word] | None] | None:
    r"""The recipe lines of a makefile the command wrote, as one shell script.

    ``printf 'all:\n\tsudo id\n' > Makefile && make``: make runs each tab-indented line.
    """
    args = [w.value for w in final[1:]]
    named = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-f", "--file", "--makefile")]
    candidates = named or list(_MAKEFILES)
    for candidate in candidates:
        text = staged.get(staged_key(candidate))
        if text is not None:
            recipes = [line.strip() for line in text.split("\n") if line.startswith("\t")]
            return staged_key(candidate), "\n".join(recipes), None
    return None
