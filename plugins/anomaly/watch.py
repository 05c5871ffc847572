"""What the detector remembers for a deck: windows, calls awaiting their outcome, blocks.

It lives in the deck's session state, so a policy reload keeps it. Windows are kept for the
4,096 most recently active callers; calls judged but never audited (a host that asks the
gates without running the call) are forgotten beyond 4,096.
"""

from __future__ import annotations

import collections

import attrs

from tooldeck.plugins.anomaly.window import Severity, Window

__all__ = ["MAX_CALLERS", "MAX_PENDING", "Block", "Pending", "Watch"]

MAX_CALLERS = 4096
MAX_PENDING = 4096


@attrs.frozen
class Pending:
    """A call the gate judged, waiting for its audit record.

    :param caller: the caller's name (``''`` for none).
    :param counted: False when the caller was already blocked (its denials do not count).
    """

    caller: str
    counted: bool


@attrs.frozen
class Block:
    """A caller this deck's detector blocked.

    :param reason: the alert's message.
    :param persisted: True once the block is in the trust state; a block that could not be
        written stays for the deck's life (only a written one can be reset).
    """

    reason: str
    persisted: bool


class Watch:
    """The detector's memory for one deck."""

    def __init__(self) -> None:
        self.windows: collections.OrderedDict[str, Window] = collections.OrderedDict()
        self.severity: dict[str, Severity] = {}
        self.pending: collections.OrderedDict[str, Pending] = collections.OrderedDict()
        self.blocks: dict[str, Block] = {}

    def expect(self, call_id: str, pending: Pending) -> None:
        """Remember a judged call until its audit record arrives."""
        self.pending[call_id] = pending
        self.pending.move_to_end(call_id)
        while len(self.pending) > MAX_PENDING:
            self.pending.popitem(last=False)

    def window(self, caller: str, size: int) -> Window:
        """The caller's window (created empty, resized to ``size``)."""
        window = self.windows.pop(caller, None) or Window(size)
        window.resize(size)
        self.windows[caller] = window
        while len(self.windows) > MAX_CALLERS:
            dropped, _ = self.windows.popitem(last=False)
            self.severity.pop(dropped, None)
        return window

    def forget(self, caller: str) -> None:
        """Start the caller afresh: after an operator reset its block."""
        self.windows.pop(caller, None)
        self.severity.pop(caller, None)
        self.blocks.pop(caller, None)
