"""Whether the files and directories an output was computed from are still as they were.

At the end of a call every read path is stat'ed (following symlinks, so a re-pointed link
shows as another inode); a hit stats them again and needs the same device, inode, mode,
size, mtime and ctime. A timestamp tells two versions of a file apart only if they were
written at different clock ticks, so a result whose paths changed within
:func:`racy_window_ns` of the call's start is not cached at all: a second write with the
same size in the same tick would leave every stamp equal (git calls such entries "racily
clean"). Anything that happens after the call started sets a ctime that is later than
every stamp accepted, so it always shows.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

__all__ = ["RACY_WINDOW_NS", "Stamp", "racy_window_ns", "snapshot", "still_fresh"]

Stamp = tuple[str, int, int, int, int, int, int]
"""``(path, device, inode, mode, size, mtime_ns, ctime_ns)``."""

RACY_WINDOW_NS = 50_000_000
"""50 ms: above the kernel's timestamp tick (a jiffy: 1 to 10 ms) with room to spare."""

_SECOND = 1_000_000_000


def racy_window_ns(mtime_ns: int, ctime_ns: int) -> int:
    """How recent a change must be to leave a file's stamps ambiguous.

    Filesystems with coarse timestamps (1 s on ext3 or HFS+, 2 s on FAT, 10 ms on exFAT)
    write round numbers: the window is three of the coarsest unit both stamps are
    multiples of, and never under :data:`RACY_WINDOW_NS`.

    :param mtime_ns: the file's mtime.
    :param ctime_ns: the file's ctime.
    :returns: nanoseconds.
    """
    unit = 1
    while unit < _SECOND and mtime_ns % (unit * 10) == 0 and ctime_ns % (unit * 10) == 0:
        unit *= 10
    return max(RACY_WINDOW_NS, 3 * unit)


def snapshot(paths: Iterable[str], started_ns: int) -> tuple[Stamp, ...] | None:
    """Stamp every path, or say the result must not be cached.

    :param paths: the output's read paths.
    :param started_ns: ``time.time_ns()`` taken before the call ran.
    :returns: the stamps, or ``None`` when a path cannot be stat'ed (a vanished file: the
        output may show content that is gone) or changed too recently to be told apart
        from a later change.
    """
    stamps = []
    for path in paths:
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return None
        newest = max(st.st_mtime_ns, st.st_ctime_ns)
        if newest >= started_ns - racy_window_ns(st.st_mtime_ns, st.st_ctime_ns):
            return None
        stamps.append((path, st.st_dev, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns,
                       st.st_ctime_ns))
    return tuple(stamps)


def still_fresh(stamps: tuple[Stamp, ...]) -> bool:
    """Whether every path still stats exactly as stamped.

    :param stamps: what :func:`snapshot` returned.
    :returns: ``False`` as soon as one path differs or cannot be stat'ed.
    """
    stat = os.stat
    for path, dev, ino, mode, size, mtime, ctime in stamps:
        try:
            st = stat(path)
        except (OSError, ValueError):
            return False
        if (st.st_ctime_ns != ctime or st.st_mtime_ns != mtime or st.st_size != size
                or st.st_ino != ino or st.st_dev != dev or st.st_mode != mode):
            return False
    return True
