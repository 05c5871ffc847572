"""Checkpoints: undo and redo of the write commands a deck ran (``checkpoints_enabled``).

A write command's snapshot (its *before* state, see :mod:`.transaction`) that was not rolled
back is pushed on the undo stack; at most ``max_checkpoints`` are kept, the oldest evicted.
Recording a new checkpoint clears the redo stack.

=========  ===================================================================================
step       behaviour
=========  ===================================================================================
undo       the latest checkpoint is popped; its targets' current (*after*) state is captured,
           then the *before* snapshot is rolled back; the checkpoint, with its *after*
           capture, goes on the redo stack. ``undo(n)`` repeats this for the latest ``n``
           (clamped to what is available), most recent first
redo       the *after* capture is rolled back onto the targets (restoring the files the
           command wrote and deleting the ones it removed), and the checkpoint returns to the
           undo stack. Nothing is executed: redo only puts back content these same paths held
           a moment ago, so it cannot reach a path or run a command the gates did not allow
=========  ===================================================================================
"""

from __future__ import annotations

import attrs

from tooldeck.plugins.shell.transaction import Snapshot, SnapshotError, take_snapshot

__all__ = [
    "NOTHING_TO_REDO",
    "NOTHING_TO_UNDO",
    "UNDO_COUNT",
    "UNDO_FAILED",
    "Checkpoint",
    "Checkpoints",
    "RedoError",
    "UndoError",
]

UNDO_COUNT = "Undo count must be > 0."
"""The answer to ``undo(n)`` with ``n < 1``."""

NOTHING_TO_UNDO = "Nothing to undo."
"""The answer to an undo on an empty stack."""

NOTHING_TO_REDO = "Nothing to redo."
"""The answer to a redo on an empty stack."""

UNDO_FAILED = "Undo failed: rollback errors for all checkpoints."
"""The error when no checkpoint of an undo could be restored."""


class UndoError(Exception):
    """No checkpoint of an undo could be restored; the message is :data:`UNDO_FAILED`."""


class RedoError(Exception):
    """A redo could not restore the state after the command; the message says why."""


@attrs.define
class Checkpoint:
    """One write command and its snapshots.

    :param command: the command as it was run.
    :param before: the targets before the command ran.
    :param after: the targets as the command left them, captured by undo (``None`` until then).
    """

    command: str
    before: Snapshot
    after: Snapshot | None = None

    def discard(self) -> None:
        """Remove the copies of both snapshots."""
        self.before.discard()
        if self.after is not None:
            self.after.discard()


class Checkpoints:
    """The undo and redo stacks of one deck (they outlive a reload)."""

    def __init__(self) -> None:
        self._undo: list[Checkpoint] = []
        self._redo: list[Checkpoint] = []

    def record(self, command: str, before: Snapshot, limit: int) -> None:
        """Push a surviving snapshot; evict beyond ``limit``; clear the redo stack.

        :param command: the command that ran.
        :param before: its snapshot, taken before it ran.
        :param limit: ``max_checkpoints``: the undo stack's capacity.
        """
        for checkpoint in self._redo:
            checkpoint.discard()
        self._redo.clear()
        self._undo.append(Checkpoint(command, before))
        while len(self._undo) > limit:
            self._undo.pop(0).discard()

    def listing(self) -> tuple[str, ...]:
        """The commands that can be undone, most recent first."""
        return tuple(c.command for c in reversed(self._undo))

    def undo(self, count: int) -> str:
        """Undo the latest ``count`` commands (clamped to what is available).

        :returns: the message for the model.
        :raises UndoError: every checkpoint tried failed to restore.
        """
        if count < 1:
            return UNDO_COUNT
        available = len(self._undo)
        if not available:
            return NOTHING_TO_UNDO
        tried = min(count, available)
        undone = 0
        for _ in range(tried):
            checkpoint = self._undo.pop()
            if _undo_one(checkpoint):
                self._redo.append(checkpoint)
                undone += 1
            else:
                checkpoint.discard()
        if not undone:
            raise UndoError(UNDO_FAILED)
        rest = available - tried
        if rest:
            return f"Undid {undone} of {available} available command(s); {rest} more available."
        return f"Undid {undone} command(s)."

    def redo(self) -> str:
        """Restore the state the latest undone command left.

        :returns: the message for the model.
        :raises RedoError: the state could not be restored (the checkpoint is dropped).
        """
        if not self._redo:
            return NOTHING_TO_REDO
        checkpoint = self._redo.pop()
        assert checkpoint.after is not None
        errors = checkpoint.after.rollback().unrestored
        checkpoint.after.discard()
        checkpoint.after = None
        if errors:
            checkpoint.discard()
            raise RedoError(f"Redo failed: {'; '.join(errors)}")
        self._undo.append(checkpoint)
        return f"Redone: {checkpoint.command}"

    def clear(self) -> None:
        """Drop both stacks and their copies."""
        for checkpoint in (*self._undo, *self._redo):
            checkpoint.discard()
        self._undo.clear()
        self._redo.clear()

    async def aclose(self) -> None:
        """Drop everything when the deck closes (see :class:`tooldeck.runtime.SessionState`)."""
        self.clear()


def _undo_one(checkpoint: Checkpoint) -> bool:
    """Capture the after state, then roll the before snapshot back; True when it worked."""
    try:
        checkpoint.after = take_snapshot(checkpoint.before.targets,
                                         roots=checkpoint.before.roots, scope=(), max_bytes=0)
    except SnapshotError:
        return False
    return checkpoint.before.rollback().complete
