"""Bytes to text: binary detection, strict UTF-8 decoding, line splitting and diffs."""

from __future__ import annotations

import difflib

from tooldeck.errors import ErrorCategory, ToolError

__all__ = ["BINARY_SNIFF_BYTES", "decode_text", "is_binary", "split_lines", "unified_diff"]

BINARY_SNIFF_BYTES = 8192
"""A NUL byte within this many leading bytes marks a file as binary."""


def is_binary(data: bytes) -> bool:
    """Whether the content looks binary (a NUL byte in its first 8 KiB).

    :param data: the file content.
    :returns: True for binary content.
    """
    return b"\x00" in data[:BINARY_SNIFF_BYTES]


def decode_text(data: bytes, shown: str) -> str:
    """Decode file content as UTF-8 text, refusing binary or undecodable content.

    :param data: the file content.
    :param shown: the path used in the error message.
    :returns: the text.
    :raises ToolError: ``permanent_failure`` for binary or non-UTF-8 content.
    """
    if is_binary(data):
        raise ToolError(
            ErrorCategory.PERMANENT_FAILURE,
            f"{shown} is a binary file (NUL byte in its first {BINARY_SNIFF_BYTES} bytes)",
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToolError(
            ErrorCategory.PERMANENT_FAILURE,
            f"{shown} is not valid UTF-8 text (invalid byte at offset {exc.start})",
        ) from exc


def split_lines(text: str) -> list[str]:
    """Split text into lines the way Rust's ``str::lines`` does.

    Lines end at a newline; one carriage return before it is dropped; a final newline adds
    no empty line.

    :param text: the text.
    :returns: the lines, without terminators.
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" not in text:
        return lines
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def unified_diff(old: str, new: str, shown: str) -> str:
    """Render a unified diff between two versions of a file.

    :param old: the previous content ("" for a new file).
    :param new: the new content.
    :param shown: the path named in the diff headers.
    :returns: the diff ("" when nothing changed).
    """
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"a/{shown.lstrip('/')}",
        tofile=f"b/{shown.lstrip('/')}",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )
