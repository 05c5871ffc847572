"""The ``edit`` tool: exact string replacement that refuses ambiguity and explains misses.

Rules (going further than Zeph, which replaced the first of several occurrences silently):

=====================  ==================  ==============================================
rule                   category            rejects
=====================  ==================  ==============================================
``non-empty-old``      invalid_parameters  an empty ``old_string``
``changes-something``  invalid_parameters  ``new_string`` equal to ``old_string``
``found``              invalid_parameters  ``old_string`` absent (the closest line is named)
``unique``             invalid_parameters  several occurrences without ``replace_all``
                                           (their line numbers are listed)
=====================  ==================  ==============================================

Edit reads the file and shows it back through the diff, so the read sandbox applies.
"""

from __future__ import annotations

import difflib

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.limits import DEFAULT_MAX_READ_BYTES
from tooldeck.plugins.files.read_write import encode_content
from tooldeck.plugins.files.results import FileOpResult
from tooldeck.plugins.files.safe_io import os_errors_as_tool_errors, read_file_at, write_file_at
from tooldeck.plugins.files.text import decode_text, split_lines, unified_diff

__all__ = ["edit_file"]

_NEAR_MATCH_CUTOFF = 0.6
_NEAR_MATCH_MAX_LINES = 20_000
_LISTED_LINES = 20


def _rule_error(rule: str, detail: str) -> ToolError:
    return ToolError(ErrorCategory.INVALID_PARAMETERS, f"edit rule '{rule}': {detail}")


def _occurrence_lines(text: str, needle: str) -> list[int]:
    """1-based line numbers where each non-overlapping occurrence of ``needle`` starts."""
    lines: list[int] = []
    start = text.find(needle)
    while start >= 0:
        lines.append(text.count("\n", 0, start) + 1)
        start = text.find(needle, start + len(needle))
    return lines


def _closest_line(text: str, needle: str) -> tuple[int, str] | None:
    """The line (number, text) starting the window of lines most similar to ``needle``."""
    lines = split_lines(text)
    if not lines or len(lines) > _NEAR_MATCH_MAX_LINES:
        return None
    width = max(len(split_lines(needle)), 1)
    windows = ["\n".join(lines[i : i + width]) for i in range(max(len(lines) - width + 1, 1))]
    best = difflib.get_close_matches(needle, windows, n=1, cutoff=_NEAR_MATCH_CUTOFF)
    if not best:
        return None
    index = windows.index(best[0])
    return index + 1, lines[index]


def _rule_found(text: str, old_string: str, path: str) -> None:
    """Rule ``found``: the old string occurs; otherwise name the closest line."""
    if old_string in text:
        return
    detail = f"old_string not found in {path}"
    closest = _closest_line(text, old_string)
    if closest is not None:
        detail += f"; the closest match starts at line {closest[0]}: {closest[1]!r}"
    raise _rule_error("found", detail)


def _rule_unique(text: str, old_string: str, path: str, replace_all: bool) -> None:
    """Rule ``unique``: one occurrence, or ``replace_all`` was asked for."""
    if replace_all:
        return
    lines = _occurrence_lines(text, old_string)
    if len(lines) > 1:
        listed = ", ".join(str(n) for n in lines[:_LISTED_LINES])
        more = " ..." if len(lines) > _LISTED_LINES else ""
        raise _rule_error(
            "unique",
            f"old_string occurs {len(lines)} times in {path} (lines {listed}{more}); pass "
            "replace_all=true, or include more surrounding text so it matches exactly once",
        )


def edit_file(
    sandbox: PathSandbox,
    path: str,
    old_string: str,
    new_string: str,
    replace_all: bool = False,
    *,
    max_read_bytes: int = DEFAULT_MAX_READ_BYTES,
) -> FileOpResult:
    """Replace ``old_string`` by ``new_string`` in a text file; summary ``Edited {path}``.

    :param sandbox: the path sandbox (read rules apply).
    :param path: the file.
    :param old_string: the exact text to replace; must occur once unless ``replace_all``.
    :param new_string: the replacement.
    :param replace_all: replace every occurrence.
    :param max_read_bytes: refuse files larger than this.
    :returns: the summary, the diff and the canonical path.
    :raises ToolError: on a rule above, a sandbox violation or an I/O failure.
    """
    if not old_string:
        raise _rule_error("non-empty-old", "old_string is empty")
    if old_string == new_string:
        raise _rule_error("changes-something", "new_string is identical to old_string")
    canonical = sandbox.resolve_str(path, op="read")
    with os_errors_as_tool_errors(canonical):
        text = decode_text(read_file_at(sandbox, canonical, max_read_bytes), canonical)
        _rule_found(text, old_string, path)
        _rule_unique(text, old_string, path, replace_all)
        updated = text.replace(old_string, new_string, -1 if replace_all else 1)
        write_file_at(sandbox, canonical, encode_content(updated))
    return FileOpResult(
        summary=f"Edited {path}",
        diff=unified_diff(text, updated, canonical),
        locations=(canonical,),
    )
