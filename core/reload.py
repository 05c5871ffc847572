"""Watch configuration directories and report bursts of ``.toml`` changes.

Directories are watched, not files: editors save by writing a temporary file and renaming
it over the original, which a watch on the file itself misses.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import watchfiles

__all__ = ["watch_directories"]


def _is_toml(change: watchfiles.Change, path: str) -> bool:
    return path.endswith(".toml")


async def watch_directories(
    directories: Callable[[], list[Path]], *, debounce_ms: int = 50, step_ms: int = 10
) -> AsyncIterator[set[tuple[watchfiles.Change, str]]]:
    """Yield each burst of ``.toml`` changes in the directories, until cancelled.

    :param directories: returns the directories to watch; asked again after every burst, so
        a reload that adds a policy directory is followed.
    :param debounce_ms: the longest a burst is gathered before it is reported.
    :param step_ms: a burst ends after this much quiet.
    """
    while True:
        dirs = directories()
        if not dirs:
            return
        async for changes in watchfiles.awatch(
            *dirs, watch_filter=_is_toml, debounce=debounce_ms, step=step_ms, recursive=False
        ):
            yield changes
            if directories() != dirs:
                break
