"""The history of tagged calls per caller, and the score of a chain of them.

==========================  ==================================================================
rule                        behaviour
==========================  ==================================================================
score                       the weight of each kind of tag present among the remembered
                            calls and the judged one (a kind counts once, however many calls
                            carry it), plus bonuses
exfil_read_then_send +0.5   a sensitive_read call, then (or in the same call) network_egress
cred_then_egress +0.4       a credential_access call, then (or in the same call)
                            network_egress
per caller                  each ``caller_id`` has its own history (``None`` is one caller);
                            the 4,096 most recently active callers are kept
only tagged calls           untagged calls are not remembered, so harmless calls cannot push a
                            sensitive read out of the window
max_calls                   the oldest remembered call is forgotten beyond ``max_calls``
window_turns                a call carrying turn ``t`` forgets the calls of turns older than
                            ``t - window_turns``; calls without a turn age by count only
==========================  ==================================================================
"""

from __future__ import annotations

import collections
from collections.abc import Sequence

import attrs

from tooldeck.plugins.risk_chain.tags import Tag

__all__ = ["MAX_CALLERS", "Chain", "ChainHistory", "Step", "score_chain"]

MAX_CALLERS = 4096
"""Callers whose history is kept; the least recently active one is dropped beyond it."""

_BONUSES = (
    ("exfil_read_then_send", Tag.SENSITIVE_READ, 50),
    ("cred_then_egress", Tag.CREDENTIAL_ACCESS, 40),
)


@attrs.frozen
class Step:
    """One tagged call in a history.

    :param tags: what the call was tagged with (never empty in a history).
    :param turn: the call's turn, when the caller gave one.
    """

    tags: frozenset[Tag]
    turn: int | None = None


@attrs.frozen
class Chain:
    """The score of a sequence of steps.

    :param hundredths: the score in hundredths.
    :param names: the bonus chains found, e.g. ``("exfil_read_then_send",)``.
    :param tags: every tag seen, in :class:`Tag` order.
    """

    hundredths: int
    names: tuple[str, ...]
    tags: tuple[Tag, ...]

    @property
    def score(self) -> float:
        """The score in points, e.g. ``1.2``."""
        return self.hundredths / 100

    def describe(self) -> str:
        """The bonus chains' names, or the tags when no named chain was found."""
        return ", ".join(self.names or tuple(tag.label for tag in self.tags))


def _first(steps: Sequence[Step], tag: Tag) -> int | None:
    return next((i for i, step in enumerate(steps) if tag in step.tags), None)


def _last(steps: Sequence[Step], tag: Tag) -> int | None:
    return next((i for i in reversed(range(len(steps))) if tag in steps[i].tags), None)


def score_chain(steps: Sequence[Step]) -> Chain:
    """Score ``steps`` (oldest first): each kind of tag once, plus the bonuses of the chains.

    Counting a kind once means that repeating one kind of action (fetching page after page) is
    never a chain by itself; a chain needs different kinds.

    :param steps: the remembered calls and, last, the call being judged.
    :returns: the chain.
    """
    seen = {tag for step in steps for tag in step.tags}
    total = sum(tag.weight for tag in seen)
    names: list[str] = []
    last_egress = _last(steps, Tag.NETWORK_EGRESS)
    for name, source, bonus in _BONUSES:
        first = _first(steps, source)
        if first is not None and last_egress is not None and first <= last_egress:
            total += bonus
            names.append(name)
    return Chain(total, tuple(names), tuple(tag for tag in Tag if tag in seen))


class ChainHistory:
    """Remembered tagged calls, per caller; lives as long as the deck (survives reloads)."""

    def __init__(self) -> None:
        self._callers: collections.OrderedDict[str | None, list[Step]] = (
            collections.OrderedDict()
        )

    def recent(self, caller: str | None, turn: int | None, window_turns: int) -> list[Step]:
        """The caller's remembered steps, after forgetting those outside the turn window.

        :param caller: the caller id.
        :param turn: the current call's turn (``None``: nothing ages out by turn).
        :param window_turns: how many turns back calls are remembered.
        :returns: the steps, oldest first (a copy).
        """
        steps = self._callers.get(caller, [])
        if turn is not None:
            steps[:] = [s for s in steps if s.turn is None or turn - s.turn <= window_turns]
        return list(steps)

    def record(self, caller: str | None, step: Step, max_calls: int) -> None:
        """Remember ``step`` for ``caller``, forgetting the oldest beyond ``max_calls``.

        :param caller: the caller id.
        :param step: the tagged call.
        :param max_calls: how many steps the caller keeps.
        """
        steps = self._callers.pop(caller, [])
        steps.append(step)
        del steps[:-max_calls]
        self._callers[caller] = steps
        while len(self._callers) > MAX_CALLERS:
            self._callers.popitem(last=False)
