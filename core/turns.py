"""The user turn a call belongs to: what only the host knows, handed to the deck's gates.

A gate sees one call. Some policy needs the turn around it: the user's own message, how much
of the token budget the conversation has used, how many calls the turn made before this
one (the ``utility`` gate, Zeph §7.6). The host that runs the conversation knows these; it
hands them over by running the turn's calls inside :meth:`tooldeck.deck.Deck.turn`::

    turn = TurnContext(user_message=text, caller_id="agent-7", token_budget=25_600)
    with deck.turn(turn):
        turn.tokens_consumed = measured          # before each request to the model
        result = await deck.call(call)

:class:`tooldeck.loop.ToolLoop` does this for every run. A gate reads the turn of a call
with :func:`turn_of`; a call made outside any turn (a bare ``deck.call``: the command line,
the MCP server, the scheduler) has none.

=======================  ===================================================================
rule                     behaviour
=======================  ===================================================================
one turn, one caller     a turn applies to the calls whose ``caller_id`` is the turn's; a
                         call of another caller made inside the block has no turn
scope                    the turn is a context variable, set only inside the ``with``
                         block: calls of other tasks (another loop, a scheduler running
                         beside it) never see it
calls made               the deck counts every call it receives in the turn
                         (:attr:`TurnContext.calls_made`, the calls *before* the one being
                         judged)
per-turn state           a plugin keeps what it remembers about the turn on the turn itself
                         (:meth:`TurnContext.setdefault`, typed keys): it lives exactly as
                         long as the turn, across hot reloads
ending a turn            a gate may end the turn (:meth:`TurnContext.end`); the deck then
                         refuses the turn's later calls (``cancelled``), and the tool loop
                         stops with ``turn_ended``
=======================  ===================================================================

A turn here is one user turn (one :meth:`~tooldeck.loop.ToolLoop.run`), not
:attr:`tooldeck.models.ToolCall.turn`, which numbers the model's responses.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

import attrs

from tooldeck.models import ToolCall
from tooldeck.state import StashKey

__all__ = ["TurnContext", "TurnEnd", "in_turn", "turn_of"]

T = TypeVar("T")

_TURN: ContextVar[TurnContext | None] = ContextVar("tooldeck.turn", default=None)


def _not_negative(instance: Any, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{attribute.name} must be an integer >= 0, not {value!r}")


@attrs.frozen
class TurnEnd:
    """Why a turn was ended, and by whom.

    :param gate: the gate (plugin) that ended it.
    :param rule: the rule that fired (``utility.window``).
    :param detail: what happened, in words the model and an operator understand.
    """

    gate: str
    rule: str
    detail: str


@attrs.define(eq=False)
class TurnContext:
    """One user turn as the host knows it; the deck's gates read it through :func:`turn_of`.

    The host sets the fields; the deck maintains :attr:`calls_made`; gates may keep state on
    it and end it. Values are checked when set (``turn.tokens_consumed = -1`` raises).

    :param user_message: the user's own words that opened the turn (never model text or
        tool output: a gate may trust it as the user's request).
    :param caller_id: the caller whose calls belong to the turn (the calls' ``caller_id``).
    :param token_budget: the tokens the conversation may use (``0``: unknown).
    :param tokens_consumed: the tokens the conversation uses so far; update it as the
        conversation grows (the tool loop sets it before each request to the model).
    :param turn_id: a name for the turn in audit records (a random one by default).
    """

    user_message: str = attrs.field(validator=attrs.validators.instance_of(str))
    caller_id: str | None = None
    token_budget: int = attrs.field(default=0, validator=_not_negative)
    tokens_consumed: int = attrs.field(default=0, validator=_not_negative)
    turn_id: str = attrs.field(factory=lambda: uuid.uuid4().hex)
    calls_made: int = attrs.field(default=0, init=False, validator=_not_negative)
    """Calls the deck received in this turn before the one being judged."""
    ended: TurnEnd | None = attrs.field(default=None, init=False)
    """Why a gate ended the turn (:meth:`end`), or ``None`` while it runs."""
    _state: dict[StashKey[Any], Any] = attrs.field(factory=dict, init=False, repr=False)

    def setdefault(self, key: StashKey[T], factory: Callable[[], T]) -> T:
        """A plugin's state for this turn under ``key``, made with ``factory()`` on first use.

        :param key: the plugin's typed key (``StashKey[Memo]("myplugin.turn")``).
        :param factory: builds the value; called at most once per key and turn.
        :returns: the value.
        """
        try:
            value: T = self._state[key]
        except KeyError:
            value = self._state[key] = factory()
        return value

    def end(self, gate: str, rule: str, detail: str) -> None:
        """End the turn: the deck refuses its later calls, and the tool loop stops.

        The first end stands; ending an ended turn changes nothing.

        :param gate: the gate ending it.
        :param rule: the rule that fired.
        :param detail: why, in words.
        """
        if self.ended is None:
            self.ended = TurnEnd(gate, rule, detail)


def turn_of(call: ToolCall) -> TurnContext | None:
    """The user turn ``call`` belongs to, or ``None`` for a call made outside any turn.

    :param call: the call being judged.
    :returns: the turn of the enclosing :meth:`~tooldeck.deck.Deck.turn` block when its
        ``caller_id`` is the call's, else ``None``.
    """
    turn = _TURN.get()
    if turn is None or turn.caller_id != call.caller_id:
        return None
    return turn


@contextlib.contextmanager
def in_turn(turn: TurnContext) -> Iterator[TurnContext]:
    """Make ``turn`` the user turn of the calls made inside the ``with`` block.

    Hosts use :meth:`tooldeck.deck.Deck.turn`, which is this.

    :param turn: the turn.
    :returns: the turn.
    """
    if not isinstance(turn, TurnContext):
        raise TypeError(f"expected a TurnContext, not {type(turn).__name__}")
    token = _TURN.set(turn)
    try:
        yield turn
    finally:
        _TURN.reset(token)
