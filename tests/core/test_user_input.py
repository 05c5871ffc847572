"""The user's URLs per caller: what Deck.note_user_message remembers for URL grounding."""

from __future__ import annotations

from tooldeck.runtime import SessionState
from tooldeck.user_input import MAX_URLS, USER_URLS, UserUrls, extract_urls, user_urls


def test_urls_are_extracted_without_trailing_punctuation() -> None:
    text = ('Read https://Example.com/Docs/a.html, then (http://b.org/x?y=1). '
            'Not ftp://c.net or "https://d.io/q".')
    assert extract_urls(text) == ["https://example.com/docs/a.html", "http://b.org/x?y=1",
                                  "https://d.io/q"]


def test_callers_are_kept_apart_and_the_oldest_urls_forgotten() -> None:
    session = SessionState()
    store = session.setdefault(USER_URLS, UserUrls)
    store.add([f"https://e.com/{i}" for i in range(MAX_URLS + 5)], "alice")
    store.add(["https://e.com/bob"], "bob")
    alice = user_urls(session, "alice")
    assert len(alice) == MAX_URLS and alice[0] == "https://e.com/5"
    assert user_urls(session, "bob") == ("https://e.com/bob",)
    assert user_urls(session, None) == ()
    store.add(["https://e.com/5"], "alice")  # seen again: now the newest
    assert user_urls(session, "alice")[-1] == "https://e.com/5"
