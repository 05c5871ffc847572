"""The ``read`` and ``write`` tools."""

from __future__ import annotations

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.limits import DEFAULT_MAX_READ_BYTES, require_non_negative
from tooldeck.plugins.files.results import FileOpResult, named_paths
from tooldeck.plugins.files.safe_io import (
    os_errors_as_tool_errors,
    read_file_at,
    write_file_at,
)
from tooldeck.plugins.files.text import decode_text, split_lines, unified_diff

__all__ = ["read_file", "write_file"]


def read_file(
    sandbox: PathSandbox,
    path: str,
    offset: int | None = None,
    limit: int | None = None,
    *,
    max_read_bytes: int = DEFAULT_MAX_READ_BYTES,
) -> FileOpResult:
    """Read a text file as numbered lines (number right-aligned to width 4, a TAB, the line).

    :param sandbox: the path sandbox (read rules apply).
    :param path: the file.
    :param offset: how many lines to skip first.
    :param limit: how many lines to show at most.
    :param max_read_bytes: refuse files larger than this.
    :returns: the rendered lines (joined by newlines) and the canonical path.
    :raises ToolError: on a sandbox violation, a binary, non-UTF-8 or oversized file, or an
        I/O failure.
    """
    require_non_negative("offset", offset)
    require_non_negative("limit", limit)
    canonical = sandbox.resolve_str(path, op="read")
    with os_errors_as_tool_errors(canonical):
        data = read_file_at(sandbox, canonical, max_read_bytes)
    lines = split_lines(decode_text(data, canonical))
    start = offset or 0
    stop = None if limit is None else start + limit
    rendered = "\n".join(
        [f"{number:>4}\t{line}" for number, line in enumerate(lines[start:stop], start + 1)]
    )
    return FileOpResult(summary=rendered, locations=(canonical,),
                        read_paths=named_paths(sandbox.absolute(path), canonical))


def _previous_text(sandbox: PathSandbox, canonical: str) -> str | None:
    """The current content for the diff: "" when absent, ``None`` when it may not be shown."""
    if not sandbox.read_allowed(canonical):
        return None
    try:
        return decode_text(read_file_at(sandbox, canonical, DEFAULT_MAX_READ_BYTES), canonical)
    except FileNotFoundError:
        return ""
    except (OSError, ToolError):
        return None


def encode_content(content: str) -> bytes:
    """Encode tool-supplied text as UTF-8.

    :param content: the text.
    :returns: its UTF-8 bytes.
    :raises ToolError: ``invalid_parameters`` for text that is not encodable (lone surrogates).
    """
    try:
        return content.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ToolError(
            ErrorCategory.INVALID_PARAMETERS,
            f"content is not valid Unicode text (position {exc.start})",
        ) from exc


def write_file(sandbox: PathSandbox, path: str, content: str) -> FileOpResult:
    """Write a file atomically, creating parent directories; summary ``Wrote {n} bytes to {path}``.

    The diff against the previous content is attached, except when the read sandbox denies the
    path (the old content would leak through the diff).

    :param sandbox: the path sandbox.
    :param path: the file.
    :param content: the new text.
    :returns: the summary, the diff and the canonical path.
    :raises ToolError: on a sandbox violation or an I/O failure.
    """
    canonical = sandbox.resolve_str(path, op="write")
    data = encode_content(content)
    with os_errors_as_tool_errors(canonical):
        previous = _previous_text(sandbox, canonical)
        written = write_file_at(sandbox, canonical, data)
    diff = None if previous is None else unified_diff(previous, content, canonical)
    return FileOpResult(
        summary=f"Wrote {written} bytes to {path}", diff=diff, locations=(canonical,)
    )
