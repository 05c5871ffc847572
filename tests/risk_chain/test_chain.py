"""Scoring and history: bonuses, the cap, the turn window, the call window, callers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.plugins.risk_chain.chain import MAX_CALLERS, ChainHistory, Step, score_chain
from tooldeck.plugins.risk_chain.tags import Tag

EGRESS, READ, CRED, WRITE, KILL = (Tag.NETWORK_EGRESS, Tag.SENSITIVE_READ,
                                   Tag.CREDENTIAL_ACCESS, Tag.SYSTEM_WRITE, Tag.PROCESS_CONTROL)


def step(*tags: Tag, turn: int | None = None) -> Step:
    return Step(frozenset(tags), turn)


def test_read_then_send_is_the_zeph_example() -> None:
    chain = score_chain([step(READ), step(EGRESS)])
    assert (chain.score, chain.names) == (1.2, ("exfil_read_then_send",))
    assert chain.describe() == "exfil_read_then_send"


def test_credential_then_egress() -> None:
    chain = score_chain([step(CRED), step(EGRESS)])
    assert (chain.score, chain.names) == (1.1, ("cred_then_egress",))


def test_send_then_read_earns_no_bonus() -> None:
    chain = score_chain([step(EGRESS), step(READ)])
    assert (chain.score, chain.names) == (0.7, ())
    assert chain.describe() == "network_egress, sensitive_read"


def test_read_and_send_in_one_call_is_a_chain() -> None:
    assert score_chain([step(READ, EGRESS)]).names == ("exfil_read_then_send",)


def test_both_bonuses() -> None:
    both = score_chain([step(READ), step(CRED), step(EGRESS)])
    assert both.names == ("exfil_read_then_send", "cred_then_egress")
    assert both.hundredths == 30 + 30 + 40 + 50 + 40


def test_a_kind_counts_once() -> None:
    """Goes further than Zeph, which sums every call: two ``ssh`` calls (0.8) are no chain."""
    assert score_chain([step(EGRESS)] * 20).score == 0.4
    assert score_chain([step(READ)] * 5 + [step(EGRESS)] * 5).score == 1.2


def test_turn_window_forgets_old_calls() -> None:
    history = ChainHistory()
    history.record("a", step(READ, turn=1), 20)
    assert history.recent("a", 4, 3) == [step(READ, turn=1)]
    assert history.recent("a", 5, 3) == []
    assert history.recent("a", 4, 3) == []  # forgotten for good


def test_calls_without_turn_age_by_count_only() -> None:
    history = ChainHistory()
    history.record("a", step(READ), 20)
    assert history.recent("a", 1000, 3) == [step(READ)]
    for _ in range(20):
        history.record("a", step(KILL), 20)
    assert step(READ) not in history.recent("a", None, 3)
    assert len(history.recent("a", None, 3)) == 20


def test_callers_are_separate_and_bounded() -> None:
    history = ChainHistory()
    history.record("a", step(READ), 20)
    assert history.recent("b", None, 3) == []
    for n in range(MAX_CALLERS):
        history.record(f"c{n}", step(KILL), 20)
    assert history.recent("a", None, 3) == []  # the least recently active caller went first
    assert history.recent(f"c{MAX_CALLERS - 1}", None, 3) == [step(KILL)]


_TAG_SETS = st.frozensets(st.sampled_from(list(Tag)), min_size=1)


@settings(max_examples=200, deadline=None)
@given(st.lists(_TAG_SETS, max_size=25), _TAG_SETS)
def test_one_more_call_never_lowers_the_score(tag_sets: list[frozenset[Tag]],
                                              extra: frozenset[Tag]) -> None:
    steps = [Step(tags) for tags in tag_sets]
    before = score_chain(steps)
    after = score_chain([*steps, Step(extra)])
    assert after.hundredths >= before.hundredths
    assert set(before.names) <= set(after.names)
