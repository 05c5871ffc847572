"""Watch configuration directories and report bursts of ``.toml`` (and plugin file) changes.

Directories are watched, not files: editors save by writing a temporary file and renaming
it over the original, which a watch on the file itself misses.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection
from pathlib import Path

import watchfiles

__all__ = ["watch_directories"]


def _no_directories() -> Collection[Path]:
    return ()


async def watch_directories(
    directories: Callable[[], list[Path]], *, debounce_ms: int = 50, step_ms: int = 10,
    any_file_in: Callable[[], Collection[Path]] = _no_directories,
) -> AsyncIterator[set[tuple[watchfiles.Change, str]]]:
    """Yield each burst of ``.toml`` changes in the directories, until cancelled.

    :param directories: returns the directories to watch; asked again after every burst, so
        a reload that adds a policy directory is followed.
    :param debounce_ms: the longest a burst is gathered before it is reported.
    :param step_ms: a burst ends after this much quiet.
    :param any_file_in: returns the (resolved) directories where a change to any file
        counts, not only to a ``.toml`` file; asked again after every burst.
    """
    while True:
        dirs = directories()
        if not dirs:
            return
        any_file = frozenset(any_file_in())

        def counts(change: watchfiles.Change, path: str, any_file: frozenset[Path] = any_file
                   ) -> bool:
            return path.endswith(".toml") or Path(path).parent in any_file

        async for changes in watchfiles.awatch(
            *dirs, watch_filter=counts, debounce=debounce_ms, step=step_ms, recursive=False
        ):
            yield changes
            if directories() != dirs:
                break
