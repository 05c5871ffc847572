"""The ledger that makes each 2026-era answer to an ask single-use."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tooldeck.plugins.mcp_server.server import PendingAsks


def test_an_answer_is_taken_once() -> None:
    asks = PendingAsks()
    ask_id = asks.issue()
    assert asks.take(ask_id)
    assert not asks.take(ask_id)


def test_unknown_missing_and_expired_ids_are_refused() -> None:
    asks = PendingAsks(ttl_s=0)
    expired = asks.issue()
    assert not asks.take(expired)
    assert not asks.take(None)
    assert not asks.take("")


def test_the_oldest_questions_go_first_past_the_limit() -> None:
    asks = PendingAsks(limit=2)
    first, second, third = asks.issue(), asks.issue(), asks.issue()
    assert not asks.take(first)
    assert asks.take(second) and asks.take(third)


@given(st.text(max_size=40))
def test_no_guessed_id_is_accepted(guess: str) -> None:
    asks = PendingAsks()
    real = asks.issue()
    assert asks.take(guess) == (guess == real)
