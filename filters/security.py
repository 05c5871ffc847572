"""Security diagnostics preserved from the raw output, whatever the filters removed."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from tooldeck.filters.patterns import LineMatcher, PatternError, compile_pattern

__all__ = ["SECURITY_PATTERNS", "SECURITY_WARNINGS_HEADER", "SecurityScanner", "security_block"]

logger = logging.getLogger("tooldeck.filters")

SECURITY_WARNINGS_HEADER = "--- Security Warnings (preserved) ---"
"""The header of the block appended to the filtered output."""

SECURITY_PATTERNS: tuple[tuple[str, str], ...] = (
    # (theme, pattern): a line of the unfiltered output matching one is preserved.
    ("rust correctness", r"warning:.*unused.*Result"),
    ("rust correctness", r"warning:.*must be used"),
    ("panic", r"thread '.*' panicked at"),
    ("unsafe code", r"warning:.*unsafe"),
    ("unsafe code", r"dereference of raw pointer"),
    ("auth", r"(?i)authentication failed"),
    ("auth", r"(?i)unauthorized"),
    ("permissions", r"(?i)permission denied"),
    ("http auth", r"(?i)(401|403)\s+(Unauthorized|Forbidden)"),
    ("crypto", r"(?i)weak cipher"),
    ("crypto", r"(?i)deprecated algorithm"),
    ("crypto", r"(?i)insecure hash"),
    ("injection", r"(?i)SQL injection"),
    ("injection", r"(?i)unsafe query"),
    ("advisory", r"RUSTSEC-\d{4}-\d{4}"),
    ("advisory", r"(?i)security advisory"),
    ("advisory", r"(?i)vulnerability detected"),
)
"""The 17 built-in security diagnostics (theme, RE2 pattern), searched line by line."""


class SecurityScanner:
    """Finds the lines of an output that match a security diagnostic.

    :param extra_patterns: user patterns added to the built-in ones; an invalid one is skipped
        with a warning (see :attr:`warnings`).
    """

    def __init__(self, extra_patterns: Sequence[str] = ()) -> None:
        patterns = [pattern for _, pattern in SECURITY_PATTERNS]
        self.warnings: list[str] = []
        for position, pattern in enumerate(extra_patterns):
            try:
                compile_pattern(pattern, label=f"security extra pattern #{position + 1}")
            except PatternError as exc:
                message = f"skipping security extra pattern: {exc}"
                logger.warning(message)
                self.warnings.append(message)
            else:
                patterns.append(pattern)
        self._matcher = LineMatcher(patterns, label="security pattern")

    def scan(self, clean: str) -> list[str]:
        """The matching lines, in order.

        :param clean: the sanitized, unfiltered output.
        :returns: the lines (empty when none match).
        """
        if not clean:
            return []
        data = clean.encode("utf-8", "surrogatepass") + b"\n"
        lines: list[str] = []
        for start, end in self._matcher.line_runs(data):
            lines.extend(data[start : end - 1].decode("utf-8", "surrogatepass").split("\n"))
        return lines


def security_block(lines: Sequence[str]) -> str:
    """The text appended to the filtered output for the preserved lines.

    :param lines: the matching lines.
    :returns: a blank line, the header, then each line followed by a newline; empty for no lines.
    """
    if not lines:
        return ""
    return f"\n\n{SECURITY_WARNINGS_HEADER}\n" + "".join(f"{line}\n" for line in lines)
