r"""The ``grep`` regex: RE2 (linear time, so no pattern can hang) with per-line semantics.

A pattern matches a file's lines one at a time, as Zeph's grep does. To avoid one regex call
per line, a file's raw UTF-8 bytes are first searched as a whole with the pattern in multi-line
mode (RE2 matches UTF-8 bytes with the same semantics as text, and skipping the decode and the
wrapper's re-encoding halves the cost of a file without a match): that search
can only report *more* candidates than the per-line one (``^``/``$`` match at every line break,
``\r`` before a newline is removed first), so a file it rejects holds no matching line. Patterns
whose meaning depends on the text's ends (``\A``, ``\z``) or that set their own flags
(``(?...)``) skip the shortcut and are matched line by line only.
"""

from __future__ import annotations

from typing import Any

import attrs
import re2

from tooldeck.errors import ErrorCategory, ToolError

__all__ = ["LineMatcher"]

_WHOLE_TEXT_UNSAFE = ("\\A", "\\z", "(?")


def _compile(pattern: str | bytes, case_sensitive: bool) -> Any:
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = case_sensitive
    return re2.compile(pattern, options)


@attrs.frozen
class LineMatcher:
    """A compiled grep pattern.

    :param pattern: the pattern as given.
    :param line_regex: the compiled per-line regex.
    :param text_regex: the compiled whole-file prefilter (a bytes regex), or ``None`` when
        unsafe for it.
    """

    pattern: str
    line_regex: Any = attrs.field(repr=False, eq=False)
    text_regex: Any = attrs.field(repr=False, eq=False)

    @classmethod
    def compile(cls, pattern: str, *, case_sensitive: bool = True) -> LineMatcher:
        """Compile a grep pattern with RE2.

        :param pattern: the regex.
        :param case_sensitive: match case exactly.
        :returns: the matcher.
        :raises ToolError: ``invalid_parameters`` naming the pattern when RE2 rejects it
            (backreferences and lookaround are not supported).
        """
        try:
            line_regex = _compile(pattern, case_sensitive)
            text_regex = None
            if not any(marker in pattern for marker in _WHOLE_TEXT_UNSAFE):
                text_regex = _compile(f"(?m){pattern}".encode(), case_sensitive)
        except UnicodeEncodeError as exc:
            raise ToolError(
                ErrorCategory.INVALID_PARAMETERS,
                f"grep pattern {pattern!r} is not valid Unicode text",
            ) from exc
        except re2.error as exc:
            reason = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else exc
            raise ToolError(
                ErrorCategory.INVALID_PARAMETERS,
                f"grep pattern {pattern!r} is not a valid RE2 regular expression: {reason}",
            ) from exc
        return cls(pattern=pattern, line_regex=line_regex, text_regex=text_regex)

    def may_match(self, data: bytes) -> bool:
        """Whether some line of a file might match (False means certainly none does).

        :param data: a whole file's UTF-8 content.
        :returns: the prefilter's verdict (always True without a prefilter).
        """
        if self.text_regex is None:
            return True
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").removesuffix(b"\r")
        return self.text_regex.search(data) is not None

    def matches(self, line: str) -> bool:
        """Whether one line (without its terminator) matches.

        :param line: the line.
        :returns: True on a match anywhere in the line.
        """
        return self.line_regex.search(line) is not None
