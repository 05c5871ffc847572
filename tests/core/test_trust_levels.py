"""Trust levels: parsing, ordering, and how the runtime combines plugins' answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldeck import hookimpl
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.trust_levels import TrustLevel, most_severe, parse_trust_level


@pytest.mark.parametrize("text", ["trusted", "VERIFIED", "  Quarantined ", "blocked"])
def test_names_parse_case_insensitively(text: str) -> None:
    assert str(parse_trust_level(text)) == text.strip().lower()


def test_an_unknown_name_is_an_error_listing_the_names() -> None:
    with pytest.raises(ValueError, match="unknown trust level 'admin'; expected: trusted, "
                                         "verified, quarantined, blocked"):
        parse_trust_level("admin")


def test_severity_order() -> None:
    assert TrustLevel.TRUSTED < TrustLevel.VERIFIED < TrustLevel.QUARANTINED < TrustLevel.BLOCKED


@given(st.lists(st.sampled_from(list(TrustLevel))))
def test_combining_keeps_the_most_severe(levels: list[TrustLevel]) -> None:
    combined = most_severe(levels)
    assert all(level <= combined for level in levels)
    assert combined in levels or (not levels and combined is TrustLevel.TRUSTED)


class _Answers:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    @hookimpl
    def tooldeck_trust_level(self, call: ToolCall) -> Any:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    ("answers", "expected"),
    [
        ([], TrustLevel.TRUSTED),
        ([None], TrustLevel.TRUSTED),
        ([TrustLevel.VERIFIED, None, TrustLevel.QUARANTINED], TrustLevel.QUARANTINED),
        ([TrustLevel.TRUSTED, RuntimeError("store down")], TrustLevel.BLOCKED),
        (["trusted"], TrustLevel.BLOCKED),
    ],
)
async def test_the_runtime_combines_answers_failing_closed(tmp_path: Path, answers: list[Any],
                                                           expected: TrustLevel) -> None:
    deck = Deck.from_config(parse_document("", tmp_path / "tooldeck.toml", "test"),
                            extra_plugins={f"t{i}": _Answers(a) for i, a in enumerate(answers)})
    try:
        runtime = deck.runtime
        tool = runtime.tools["read"]
        assert runtime.trust_level(ToolCall("read", {"path": "x"}), tool) is expected
    finally:
        await deck.aclose()
