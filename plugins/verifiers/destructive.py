"""DestructiveCommandVerifier: commands that wipe disks, trees or the system.

=====================  ====================================================================
step                   what
=====================  ====================================================================
which calls            tools named in ``shell_tools`` (``bash``, ``shell``, ``terminal``;
                       any case), also as an MCP tool (``mcp_box__shell``); the command is
                       ``command`` (a list is joined by spaces)
normalise              NFKC, lowercase, quotes and backslashes dropped, whitespace runs made
                       one space (``rm  -rf "/"`` is ``rm -rf /``)
unwrap                 up to 8 layers of ``env``, ``KEY=VAL``, ``exec``, ``bash -c`` /
                       ``sh -c`` / ``zsh -c`` are peeled off the front
patterns               a substring match of :data:`PATTERNS` or ``extra_patterns``
allowed paths          the command runs anyway when it names at least one path (a word
                       starting ``/``, ``~`` or ``.``) and **every** one lies strictly
                       below an ``allowed_paths`` entry (Zeph lets one such path excuse
                       the rest, and the entry itself)
=====================  ====================================================================

Block message: ``[DestructiveCommandVerifier] destructive pattern '{p}' detected``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from tooldeck.models import ToolCall, ToolDef
from tooldeck.paths import lexical_normalize
from tooldeck.plugins.verifiers.outcome import Outcome
from tooldeck.runtime import Runtime

__all__ = ["PATTERNS", "DestructiveCommandVerifier", "command_text", "normalize_command"]

PATTERNS = (
    "rm -rf /", "rm -rf ~", "rm -r /", "rm -fr /", "rm -fr ~", "dd if=", "mkfs", "fdisk",
    "shred", "wipefs", ":(){ :|:& };:", ":(){:|:&};:", "chmod -r 777 /", "chown -r",
)
"""Zeph's patterns, plus the ``-fr`` spelling of ``rm -rf``."""

_MAX_LAYERS = 8
_WRAPPER = re.compile(r"^(?:env\s+|exec\s+|[a-z_][a-z0-9_]*=\S*\s+|(?:ba|z)?sh\s+-c\s+)")


def command_text(value: object) -> str:
    """The command of a call: a string, or a list of strings joined by spaces."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return " ".join(v for v in value if isinstance(v, str))
    return ""


def normalize_command(command: str) -> str:
    """NFKC, lowercase, quotes and backslashes removed, spaces collapsed, wrappers peeled."""
    text = unicodedata.normalize("NFKC", command).lower()
    text = " ".join(re.sub(r"[\"'\\]", "", text).split())
    for _ in range(_MAX_LAYERS):
        peeled = _WRAPPER.sub("", text, count=1)
        if peeled == text:
            break
        text = peeled
    return text


def _below(path: str, roots: Iterable[str]) -> bool:
    """Strictly below a root: the root itself (``rm -rf ~`` with ``~`` allowed) is not."""
    return any(path.startswith(root.rstrip("/") + "/") for root in roots)


class DestructiveCommandVerifier:
    """Blocks shell commands that match a destructive pattern outside the allowed paths.

    :param shell_tools: tool ids whose ``command`` is checked.
    :param extra_patterns: more substrings.
    :param allowed_paths: absolute, normalised directories.
    """

    name = "destructive"

    def __init__(self, shell_tools: Iterable[str], extra_patterns: Iterable[str],
                 allowed_paths: Iterable[str]) -> None:
        self.shell_tools = frozenset(t.lower() for t in shell_tools)
        self.patterns = (*PATTERNS, *(p.lower() for p in extra_patterns if p))
        self.allowed_paths = tuple(allowed_paths)

    def verify(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> Outcome:
        """Block a destructive command unless every path it names is allowed."""
        name = tool.id.lower()
        if name not in self.shell_tools and name.rpartition("__")[2] not in self.shell_tools:
            return Outcome.allow()
        text = normalize_command(command_text(call.params.get("command")))
        pattern = next((p for p in self.patterns if p in text), None)
        if pattern is None or self._excused(text):
            return Outcome.allow()
        return Outcome.block(f"[DestructiveCommandVerifier] destructive pattern '{pattern}' "
                             "detected")

    def _excused(self, text: str) -> bool:
        if not self.allowed_paths:
            return False
        paths = [str(lexical_normalize(word)) for word in text.split()
                 if word[:1] in ("/", "~", ".")]
        return bool(paths) and all(_below(p, self.allowed_paths) for p in paths)
