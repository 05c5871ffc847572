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
    :param audited_caller: the caller as the audit record will show it (cut, made safe).
    :param counted: False when the caller was already blocked (its denials do not count).
    """

    caller: str
    audited_caller: str
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
        self.pending: collections.OrderedDict[str, list[Pending]] = collections.OrderedDict()
        self.blocks: dict[str, Block] = {}

    def expect(self, call_id: str, pending: Pending) -> None:
        """Remember a judged call until its audit record arrives.

        :param call_id: the call id as the audit record will show it.
        :param pending: the caller.
        """
        self.pending.setdefault(call_id, []).append(pending)
        self.pending.move_to_end(call_id)
        while len(self.pending) > MAX_PENDING:
            self.pending.popitem(last=False)

    def take(self, call_id: str, audited_caller: str) -> Pending | None:
        """The judged call an audit record reports, forgotten once taken.

        Calls sharing an id (a host that reuses ids) are told apart by their caller; when the
        record's caller matches none of them (a record cut short), the oldest is taken.

        :param call_id: the record's call id.
        :param audited_caller: the record's caller id (``''`` when it has none).
        :returns: the call, or ``None`` when no gate judged it.
        """
        waiting = self.pending.get(call_id)
        if not waiting:
            return None
        found = next((p for p in waiting if p.audited_caller == audited_caller), waiting[0])
        waiting.remove(found)
        if not waiting:
            del self.pending[call_id]
        return found

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
