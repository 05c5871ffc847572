"""InjectionPatternVerifier: SQL, command-chaining and traversal payloads in arguments.

=====================  ====================================================================
step                   what
=====================  ====================================================================
which fields           every string in the parameters, descending into lists and tables;
                       fields named in ``exempt_fields`` (free text: query, q, search,
                       text, message, content, and tooldeck's old_string, new_string,
                       pattern, select) are skipped, and so is ``command`` of the shell
                       tools (shell code is the shell gate's to judge)
block                  a field matching one of :data:`PATTERNS` (or ``extra_patterns``),
                       case-insensitively: ``[InjectionPatternVerifier] injection pattern
                       detected in field '{f}': {regex}``
warn                   a URL field (url, endpoint, uri, href, src, host, base_url) whose
                       host is localhost, a loopback, link-local metadata or private
                       address — allowed, audited — unless it contains an
                       ``allowlisted_urls`` entry
=====================  ====================================================================
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import re2

from tooldeck.errors import ConfigError
from tooldeck.models import ToolCall, ToolDef
from tooldeck.plugins.verifiers.outcome import Outcome
from tooldeck.runtime import Runtime

__all__ = ["PATTERNS", "URL_FIELDS", "InjectionPatternVerifier", "private_host"]

PATTERNS = (
    r"'\s*or\s*'1'\s*=\s*'1",
    r"'\s*or\s+1\s*=\s*1",
    r";\s*drop\s+table",
    r"union\s+select",
    r"'\s*;\s*select",
    r";\s*rm\s",
    r"\|\s*rm\s",
    r"&&\s*rm\s",
    r";\s*curl\s",
    r"\|\s*curl\s",
    r"&&\s*curl\s",
    r";\s*wget\s",
    r"\.\./\.\./\.\./etc/passwd",
    r"\.\./\.\./\.\./etc/shadow",
    r"\.\./\.\./\.\./windows/",
    r"(?:\.\.[/\\]){3}",
)
"""Zeph's payload expressions (RE2, matched case-insensitively)."""

URL_FIELDS = frozenset({"url", "endpoint", "uri", "href", "src", "host", "base_url"})
"""Fields whose value is a URL or a host."""

_HOST = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?:[^/@?#]*@)?(\[[^\]]*\]|[^:/?#]*)")
_PRIVATE = re.compile(
    r"^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1|169\.254\.169\.254|10\.\d+\.\d+\.\d+|"
    r"172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+|192\.168\.\d+\.\d+)$")


def private_host(value: str) -> bool:
    """True when the URL or host ``value`` names localhost, a loopback or private address."""
    match = _HOST.match(value.strip().lower())
    return bool(match and _PRIVATE.match(match.group(1)))


def _fields(value: Any, name: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield name, value
    elif depth < 32 and isinstance(value, Mapping):
        for key, item in value.items():
            yield from _fields(item, str(key), depth + 1)
    elif depth < 32 and isinstance(value, (list, tuple)):
        for item in value:
            yield from _fields(item, name, depth + 1)


class InjectionPatternVerifier:
    """Blocks injection payloads in non-free-text fields; warns on private URLs.

    :param exempt_fields: field names never checked.
    :param shell_tools: tools whose ``command`` is not checked.
    :param extra_patterns: more RE2 expressions.
    :param allowlisted_urls: substrings that excuse a private URL.
    :raises ConfigError: an extra pattern RE2 cannot compile.
    """

    name = "injection"

    def __init__(self, exempt_fields: Iterable[str], shell_tools: Iterable[str],
                 extra_patterns: Iterable[str], allowlisted_urls: Iterable[str]) -> None:
        self.exempt = frozenset(f.lower() for f in exempt_fields)
        self.shell_tools = frozenset(shell_tools)
        self.allowlisted = tuple(u.lower() for u in allowlisted_urls if u)
        options = re2.Options()
        options.case_sensitive = False
        options.max_mem = 1 << 20
        compiled = []
        for i, pattern in enumerate((*PATTERNS, *extra_patterns)):
            try:
                compiled.append((pattern, re2.compile(pattern, options)))
            except re2.error as exc:
                key = f"tools.verifiers.injection.extra_patterns[{i - len(PATTERNS)}]"
                raise ConfigError(f"{key}: {pattern!r} is not an RE2 expression: {exc}",
                                  key=key) from None
        self.patterns = tuple(compiled)

    def verify(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> Outcome:
        """Block on the first payload found; else warn on the first private URL field."""
        warning = ""
        for field, value in _fields(dict(call.params), ""):
            lowered = field.lower()
            if lowered in self.exempt or (lowered == "command" and tool.id in self.shell_tools):
                continue
            text = unicodedata.normalize("NFKC", value)
            for pattern, regex in self.patterns:
                if regex.search(text):
                    return Outcome.block(f"[InjectionPatternVerifier] injection pattern "
                                         f"detected in field '{field}': {pattern}")
            if (not warning and lowered in URL_FIELDS and private_host(text)
                    and not any(a in text.lower() for a in self.allowlisted)):
                warning = (f"[InjectionPatternVerifier] field '{field}' points to a private "
                           f"or local address: {value[:200]}")
        return Outcome.warn(warning) if warning else Outcome.allow()
