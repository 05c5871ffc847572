r"""Screen text the model will read for instructions planted in it (tool poisoning).

Text that reaches the model verbatim from outside tooldeck -- an MCP server's tool
descriptions and input schemas, a skill's description and instructions -- can carry
instructions for the model. Plugins that offer such text check it here; text with any
finding is *flagged*, and the plugin withholds it unless the operator allows it by name
(``allow_flagged_tools`` for MCP servers, ``allow_flagged`` for skills).

=====================  ===================================================================
rule                   flags text that
=====================  ===================================================================
invisible_text         contains zero-width, bidirectional-control, tag or other invisible
                       format characters (text the operator does not see but the model does)
override               tells the model to ignore, disregard or forget previous / prior /
                       system instructions, or announces new instructions or a new role
must_call              orders the model to call or invoke something (``you must call``,
                       ``always invoke``, ``before using any other tool``)
secrecy                asks to keep something from the user (``do not tell the user``,
                       ``without informing the user``)
hidden_tag             carries a pseudo-markup tag such as ``<IMPORTANT>``, ``<system>``,
                       ``<instructions>``, ``<secret>``, ``<hidden>``
sensitive_read         names secrets to read: ``~/.ssh``, ``id_rsa``, ``.aws/credentials``,
                       ``.netrc``, ``/etc/passwd``, ``.env``, private keys
exfiltration           asks to send, post or upload contents, data, keys, secrets, the
                       conversation... to a URL, server, webhook or email
=====================  ===================================================================

The text is NFKC-normalised (full-width letters become ASCII), invisible characters are
removed and whitespace collapsed before the word rules run, so spacing, case and hidden
characters do not get a phrase through. Patterns are RE2: matching is linear in the text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

import re2

__all__ = ["RULES", "schema_texts", "screen", "screen_tool"]

RULES: dict[str, str] = {
    "override": (
        r"\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+|the\s+|your\s+|of\s+)*"
        r"(previous|prior|above|earlier|preceding|system|other|original|safety)\s+"
        r"(instructions?|prompts?|rules?|directions?|messages?|guidelines?)"
        r"|\bnew\s+(system\s+)?instructions?\s*:|\byou\s+are\s+now\b|\bsystem\s+prompt\b"
    ),
    "must_call": (
        r"\byou\s+(must|should|have\s+to|need\s+to|are\s+required\s+to)\s+"
        r"(always\s+|first\s+|also\s+)?(call|invoke|execute)\b"
        r"|\balways\s+(call|invoke)\b"
        r"|\bbefore\s+(using|calling|invoking)\s+(any|this|other|the)\b"
    ),
    "secrecy": (
        r"\b(do\s+not|don'?t|never|must\s+not)\s+(tell|inform|mention|reveal|show|disclose|"
        r"notify|alert)\s+(this\s+|it\s+|anything\s+)?(to\s+)?(the\s+)?users?\b"
        r"|\bwithout\s+(telling|informing|notifying|alerting|asking)\s+(the\s+)?users?\b"
        r"|\b(keep|hide)\s+(this|it)\s+(secret|hidden)\b"
    ),
    "hidden_tag": r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin|critical)\b",
    "sensitive_read": (
        r"~/\.ssh|\.ssh/|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\.netrc\b|"
        r"/etc/(passwd|shadow)|(^|[\s/'\"`])\.env\b|\bprivate\s+keys?\b|\.git-credentials"
    ),
    "exfiltration": (
        r"\b(send|post|upload|forward|exfiltrate|transmit|leak|copy)\b.{0,40}?"
        r"\b(contents?|data|keys?|credentials?|secrets?|tokens?|passwords?|conversation|"
        r"history|chat|environment|everything)\b.{0,60}?"
        r"\b(to|into)\s+(https?://|(the\s+|this\s+|an?\s+)?(following\s+|external\s+|remote\s+)?"
        r"(url|server|endpoint|webhook|address|e-?mail|domain))"
    ),
}

_OPTIONS = re2.Options()
_OPTIONS.case_sensitive = False
_OPTIONS.dot_nl = True
_COMPILED = {name: re2.compile(pattern, _OPTIONS) for name, pattern in RULES.items()}

_INVISIBLE_RANGES = (
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0xFEFF, 0xFEFF),
    (0x00AD, 0x00AD), (0x180E, 0x180E), (0xE0000, 0xE007F), (0xFFF9, 0xFFFB),
)


def _invisible(char: str) -> bool:
    code = ord(char)
    if any(lo <= code <= hi for lo, hi in _INVISIBLE_RANGES):
        return True
    return unicodedata.category(char) == "Cf"


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if not _invisible(c))
    return " ".join(text.split())


def screen(text: str) -> list[str]:
    """The names of the rules ``text`` trips, in table order (empty: nothing found).

    :param text: a description or any other text the model would read.
    :returns: rule names, each at most once.
    """
    found = []
    if any(_invisible(c) for c in text):
        found.append("invisible_text")
    plain = _normalise(text)
    found += [name for name, pattern in _COMPILED.items() if pattern.search(plain)]
    return found


def schema_texts(schema: Any) -> Iterator[str]:
    """Every ``description`` and ``title`` string in a JSON Schema, and its property names."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key in ("description", "title") and isinstance(value, str):
                yield value
            elif key == "properties" and isinstance(value, Mapping):
                yield from (str(name) for name in value)
                yield from schema_texts(value)
            else:
                yield from schema_texts(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from schema_texts(item)


def screen_tool(description: str, schema: Mapping[str, Any]) -> list[str]:
    """The rules a tool trips in its description or anywhere in its input schema.

    :param description: the tool's description as the server sent it.
    :param schema: the tool's input schema.
    :returns: rule names, each at most once, in table order.
    """
    hits = set(screen(description))
    for text in schema_texts(schema):
        hits.update(screen(text))
    order = ["invisible_text", *RULES]
    return [name for name in order if name in hits]
