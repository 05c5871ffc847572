"""The embedded append log: one JSON line per record, appended to a 0600 file.

The file is opened once (``O_APPEND``) and each record is written with a single ``write``
call, so lines from concurrent writers (a runtime being retired and its successor, other
processes) never interleave, and a line is in the file before ``append`` returns.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

__all__ = ["JsonlLog", "last_lines", "open_log"]


def open_log(path: os.PathLike[str] | str) -> int:
    """Open (creating it and its directory) a log file for appending, mode 0600.

    :returns: the file descriptor.
    """
    directory = os.path.dirname(os.fspath(path))
    if directory:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    except OSError:
        os.close(fd)
        raise
    return fd


def last_lines(path: Path, n: int) -> list[str]:
    """The last ``n`` non-blank lines of a file, reading from its end.

    :param path: the file.
    :param n: how many lines.
    """
    with path.open("rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        block, data = 64 * 1024, b""
        while size > 0 and data.count(b"\n") <= n:
            step = min(block, size)
            size -= step
            f.seek(size)
            data = f.read(step) + data
    return [line.decode("utf-8", "replace") for line in data.splitlines()[-n:] if line.strip()]


class JsonlLog:
    """An :class:`~tooldeck.storage_api.AppendLog` in a JSON-lines file.

    :param path: the file (created 0600, its folder 0700).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = open_log(path)

    def append(self, line: str) -> None:
        """Write ``line`` and a newline with one ``write`` call.

        :raises OSError: the log is closed or cannot be written.
        """
        if self._fd is None:
            raise OSError(f"the log {self.path} is closed")
        os.write(self._fd, (line + "\n").encode("utf-8"))

    def tail(self, n: int) -> list[str]:
        """The last ``n`` lines, oldest first (none when the file is gone)."""
        try:
            return last_lines(self.path, n)
        except FileNotFoundError:
            return []

    def lines(self) -> Iterator[str]:
        """Every line of the file, oldest first (none when the file is gone)."""
        try:
            with self.path.open(encoding="utf-8", errors="replace") as file:
                for line in file:
                    if line.strip():
                        yield line.rstrip("\n")
        except FileNotFoundError:
            return

    def close(self) -> None:
        """Close the file; idempotent."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)
