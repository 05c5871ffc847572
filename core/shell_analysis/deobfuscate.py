r"""Zeph's string normaliser, kept as a fast first pass for substring rules (confirm patterns).

The parse tree is the authority for blocking; this normaliser only widens what confirm patterns
see. Steps, in order (input truncated to 8 KiB):

| step | rewrite                                                             |
| ---- | ------------------------------------------------------------------- |
| 1    | ``\xNN`` decoded when ASCII (a decoded backslash becomes ``[bs]``)  |
| 2    | ``\NNN`` octal decoded when the result is printable (0x20 to 0x7E)  |
| 3    | ``\uNNNN`` decoded                                                  |
| 4    | backslash-newline removed                                           |
| 5    | ``${VAR}`` and ``$VAR`` → ``[var:VAR]``                             |
| 6    | backtick substitutions → ``[subshell: cmd]``                        |
| 7    | ``$( … )`` (depth-aware) → ``[subshell: …]``                        |
| 8    | quote characters removed (``'cu'"rl"`` → ``curl``)                  |
| 9    | whitespace collapsed to single spaces, trimmed                      |
"""

from __future__ import annotations

import re

__all__ = ["MAX_DEOBFUSCATE_CHARS", "deobfuscate"]

MAX_DEOBFUSCATE_CHARS = 8192
"""Only this many characters are normalised."""

_HEX = re.compile(r"\\x([0-9a-fA-F]{2})")
_OCTAL = re.compile(r"\\([0-7]{1,3})")
_UNICODE = re.compile(r"\\u([0-9a-fA-F]{4})")
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_BACKTICK = re.compile(r"`([^`]*)`")
_WHITESPACE = re.compile(r"\s+")


def _hex(match: re.Match[str]) -> str:
    code = int(match.group(1), 16)
    if code >= 0x80:
        return match.group(0)
    return "[bs]" if code == 0x5C else chr(code)


def _octal(match: re.Match[str]) -> str:
    code = int(match.group(1), 8)
    return chr(code) if 0x20 <= code <= 0x7E else match.group(0)


def _dollar_paren(text: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(text):
        start = text.find("$(", index)
        if start < 0:
            out.append(text[index:])
            break
        depth, cursor = 1, start + 2
        while cursor < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[cursor], 0)
            cursor += 1
        if depth:
            out.append(text[index:])
            break
        inner = _dollar_paren(text[start + 2 : cursor - 1]).strip()
        out.append(f"{text[index:start]}[subshell: {inner}]")
        index = cursor
    return "".join(out)


def deobfuscate(command: str) -> str:
    """Normalise a command the way Zeph does before substring checks.

    :param command: the raw command.
    :returns: the normalised text (see the module table).
    """
    text = command[:MAX_DEOBFUSCATE_CHARS]
    # each step is skipped when the text (as the steps before left it) lacks its trigger
    if "\\" in text:
        text = _HEX.sub(_hex, text)
        text = _OCTAL.sub(_octal, text)
        text = _UNICODE.sub(lambda m: chr(int(m.group(1), 16)), text)
        text = text.replace("\\\n", "")
    if "$" in text:
        text = _VARIABLE.sub(lambda m: f"[var:{m.group(1) or m.group(2)}]", text)
    if "`" in text:
        text = _BACKTICK.sub(lambda m: f"[subshell: {m.group(1).strip()}]", text)
    if "$(" in text:
        text = _dollar_paren(text)
    text = text.replace("'", "").replace('"', "")
    return _WHITESPACE.sub(" ", text).strip()
