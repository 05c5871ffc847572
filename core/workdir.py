"""The working directory a deck's caller chose with ``set_working_directory``.

It is per deck (kept in the deck's :class:`~tooldeck.runtime.SessionState`, so it survives
hot reloads) and per caller (``ToolCall.caller_id``): two agents sharing one deck do not move
each other. The process's own working directory is never changed. Tools that resolve
relative paths or run commands read it with :func:`working_directory`; ``None`` means the
caller never set one and the tool's configured default applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tooldeck.state import StashKey

if TYPE_CHECKING:
    from tooldeck.runtime import Runtime

__all__ = ["WORKING_DIRECTORIES", "WorkingDirectories", "working_directory"]


class WorkingDirectories:
    """Each caller's chosen working directory (canonical, absolute)."""

    def __init__(self) -> None:
        self._by_caller: dict[str | None, str] = {}

    def get(self, caller_id: str | None) -> str | None:
        """The directory ``caller_id`` chose, or ``None``.

        :param caller_id: the caller (``None``: calls that name no caller).
        :returns: the directory, or ``None`` when the caller never chose one.
        """
        return self._by_caller.get(caller_id)

    def set(self, caller_id: str | None, directory: str) -> None:
        """Record a checked canonical directory as ``caller_id``'s working directory.

        :param caller_id: the caller.
        :param directory: the directory (the caller of this method has checked it).
        """
        self._by_caller[caller_id] = directory


WORKING_DIRECTORIES = StashKey[WorkingDirectories]("core.working_directories")
"""Where a deck keeps its callers' working directories (in ``runtime.session``)."""


def working_directory(runtime: Runtime, caller_id: str | None) -> str | None:
    """The working directory ``caller_id`` set on this deck, or ``None``.

    :param runtime: the runtime the call runs on.
    :param caller_id: the call's caller.
    :returns: the canonical directory, or ``None`` when none was set.
    """
    return runtime.session.setdefault(WORKING_DIRECTORIES, WorkingDirectories).get(caller_id)
