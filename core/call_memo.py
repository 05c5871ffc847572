"""Work shared by everything that handles one call: done once per call, never across calls.

Several plugins look at the same call in the same way: the shell gate, the egress gate, the
risk chain and the shell executor each need the analysis of a ``bash`` command. The deck
opens a memo around each call (:func:`call_memo`), and within it :func:`shell_analysis`
analyses a command once, for whichever plugin asks first, and hands the same immutable
:class:`~tooldeck.shell_analysis.CommandAnalysis` to the others. Judging a call without
running it (:mod:`tooldeck.judge`) opens one too.

==================  ==========================================================================
rule                why
==================  ==========================================================================
one memo per call   the next call starts empty: a command sent twice is analysed twice, at
                    full cost, so repeating a command is never cheaper than sending a new one
keyed by the text   the command and the extra wrappers, exactly as asked: the same question
                    gets the same (pure) answer, a different one is computed
context variable    each task sees the memo of its own call, so concurrent calls share
                    nothing; a call made while another is open gets a memo of its own
outside a memo      computed every time, as if there were no memo
==================  ==========================================================================

Sharing also means every gate judges one view of the command: the analysis has a CPU-time
backstop (:mod:`tooldeck.shell_analysis.budget`), and two gates analysing separately on a
loaded machine could otherwise see different outcomes of it.
"""

from __future__ import annotations

import contextvars
from collections.abc import Hashable, Iterable
from contextlib import AbstractContextManager

from tooldeck.shell_analysis import CommandAnalysis, analyze

__all__ = ["call_memo", "shell_analysis"]

_MEMO: contextvars.ContextVar[dict[Hashable, CommandAnalysis] | None] = (
    contextvars.ContextVar("tooldeck_call_memo", default=None))


def call_memo() -> AbstractContextManager[None]:
    """Open an empty memo for one call; it is dropped when the block ends.

    Nesting is allowed: the inner block has a memo of its own and the outer one is back
    after it.
    """
    return _Scope()


class _Scope:
    """The context manager of :func:`call_memo` (a class: it is entered on every call)."""

    def __enter__(self) -> None:
        self._token = _MEMO.set({})

    def __exit__(self, *exc: object) -> None:
        _MEMO.reset(self._token)


def shell_analysis(command: str, *, extra_wrappers: Iterable[str] = ()) -> CommandAnalysis:
    """:func:`tooldeck.shell_analysis.analyze`, done once per call for the same question.

    :param command: the command text.
    :param extra_wrappers: operator-declared transparent wrappers (command names).
    :returns: the analysis; within a call's memo, the one already made for this command and
        these wrappers, if any.
    """
    memo = _MEMO.get()
    if memo is None:
        return analyze(command, extra_wrappers=extra_wrappers)
    wrappers = frozenset(extra_wrappers)
    key = (command, wrappers)
    found = memo.get(key)
    if found is None:
        found = memo[key] = analyze(command, extra_wrappers=wrappers)
    return found
