r"""FirewallVerifier: sensitive paths, directory traversal and secret environment references.

=====================  ====================================================================
step                   what
=====================  ====================================================================
which values           the strings of ``command``, ``file_path``, ``path``, ``url``,
                       ``query``, ``uri``, ``input``, ``args`` (Zeph's) and ``source``,
                       ``destination`` (tooldeck's transfers); lists flattened; NFKC
traversal              a word whose ``..`` climbs above where it starts (``../x``,
                       ``a/../../x``, ``..\\x``); ``src/../x`` stays inside and passes
                       (Zeph blocks any ``../``)
sensitive paths        a word that, made absolute (``~`` expanded, relative to the working
                       directory), matches :data:`SENSITIVE_PATHS` or ``blocked_paths``
                       (``*`` stays in a component, ``**`` crosses; a relative glob
                       matches at any depth)
secret env             ``$AWS_``, ``${AWS_``, ``%AWS_``, the same for ``ZEPH_`` and
                       ``TOOLDECK_``, and ``$V`` / ``${V}`` / ``%V%`` for each
                       ``blocked_env_vars`` name; case-insensitive
=====================  ====================================================================

Every finding blocks: ``[FirewallVerifier] …`` naming the rule and the value.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from tooldeck.errors import ConfigError
from tooldeck.models import ToolCall, ToolDef
from tooldeck.paths import Glob, compile_glob, lexical_normalize
from tooldeck.plugins.verifiers.outcome import Outcome
from tooldeck.runtime import Runtime

__all__ = ["FIELDS", "SENSITIVE_PATHS", "FirewallVerifier", "climbs_out"]

FIELDS = ("command", "file_path", "path", "url", "query", "uri", "input", "args", "source",
          "destination")
"""Parameters whose values are inspected."""

SENSITIVE_PATHS = (
    "/etc/passwd", "/etc/shadow", "/etc/sudoers", "~/.ssh/*", "~/.aws/*", "~/.gnupg/*",
    "**/*.pem", "**/*.key", "**/id_rsa", "**/id_ed25519", "**/.env", "**/credentials",
)
"""Zeph's built-in sensitive path globs."""

ENV_PREFIXES = ("AWS_", "ZEPH_", "TOOLDECK_")
"""Variable-name prefixes whose reference is a secret read."""

_WORD_SPLIT = re.compile(r"[\s;|&<>'\"`()=,]+")


def climbs_out(word: str) -> bool:
    """True when the path ``word`` goes above where it starts with ``..`` (either slash)."""
    depth = 0
    for part in word.replace("\\", "/").split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part not in ("", "."):
            depth += 1
    return False


def _values(params: Mapping[str, Any]) -> Iterator[str]:
    for key in FIELDS:
        if key not in params:  # most tools have one or two of these parameters
            continue
        value = params[key]
        items = value if isinstance(value, (list, tuple)) else [value]
        for item in items:
            if isinstance(item, str):
                yield unicodedata.normalize("NFKC", item)


def _env_pattern(names: Iterable[str], prefixes: Iterable[str]) -> re.Pattern[str]:
    parts = [rf"\$\{{?{re.escape(p)}|%{re.escape(p)}" for p in prefixes]
    parts += [rf"\${re.escape(n)}\b|\$\{{{re.escape(n)}\}}|%{re.escape(n)}%" for n in names]
    return re.compile("|".join(parts), re.IGNORECASE)


class FirewallVerifier:
    """Blocks traversal, sensitive paths and secret env references in path-like values.

    :param exempt_tools: tools never checked.
    :param blocked_paths: more path globs.
    :param blocked_env_vars: more variable names.
    :raises ConfigError: a path glob that does not compile.
    """

    name = "firewall"

    def __init__(self, exempt_tools: Iterable[str], blocked_paths: Iterable[str],
                 blocked_env_vars: Iterable[str]) -> None:
        self.exempt = frozenset(exempt_tools)
        globs: list[Glob] = []
        for i, pattern in enumerate((*SENSITIVE_PATHS, *blocked_paths)):
            try:
                globs.append(compile_glob(pattern))
            except ValueError as exc:
                key = f"tools.verifiers.firewall.blocked_paths[{i - len(SENSITIVE_PATHS)}]"
                raise ConfigError(f"{key}: {exc}", key=key) from None
        self.globs = tuple(globs)
        self.env = _env_pattern(blocked_env_vars, ENV_PREFIXES)

    def verify(self, call: ToolCall, tool: ToolDef, runtime: Runtime) -> Outcome:
        """Block the first finding, in the order traversal, sensitive path, secret env."""
        if tool.id in self.exempt:
            return Outcome.allow()
        for value in _values(call.params):
            env = self.env.search(value)
            if env is not None:
                return Outcome.block(f"[FirewallVerifier] secret environment variable "
                                     f"reference '{env.group(0)}' in {value[:200]!r}")
            for word in _WORD_SPLIT.split(value):
                if not word or "://" in word:
                    continue
                if climbs_out(word):
                    return Outcome.block(f"[FirewallVerifier] path traversal in {word[:200]!r}")
                if "\x00" in word:
                    continue
                path = str(lexical_normalize(word))
                glob = next((g for g in self.globs if g.matches(path)), None)
                if glob is not None:
                    return Outcome.block(f"[FirewallVerifier] sensitive path {word[:200]!r} "
                                         f"matches {glob.pattern}")
        return Outcome.allow()
