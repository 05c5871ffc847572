"""Properties of the verifiers' pure checks: traversal and URL grounding."""

from __future__ import annotations

import posixpath

from hypothesis import given
from hypothesis import strategies as st

from tooldeck.plugins.verifiers.firewall import climbs_out
from tooldeck.plugins.verifiers.url_grounding import grounded

parts = st.lists(st.sampled_from(["a", "b", "..", ".", "", "...", "..a"]), min_size=1,
                 max_size=8)


@given(parts)
def test_climbing_out_is_what_normpath_leaves_leading(words: list[str]) -> None:
    """A relative path climbs out exactly when normalising it leaves a leading ``..``."""
    path = "/".join(words)
    if path.startswith("/"):
        path = path.lstrip("/") or "."
    assert climbs_out(path) == (posixpath.normpath(path).split("/")[0] == "..")
    assert climbs_out(path.replace("/", "\\")) == climbs_out(path)


hosts = st.sampled_from(["example.com", "example.com.evil.net", "evil.net", "examp"])
paths = st.sampled_from(["", "/", "/docs", "/docs/a", "/docs-private", "?q=1", "#x"])


@given(hosts, paths, hosts, paths)
def test_grounding_never_crosses_hosts(h1: str, p1: str, h2: str, p2: str) -> None:
    """A user URL grounds only URLs on its own host, and always grounds itself."""
    given_url, fetched = f"https://{h1}{p1}", f"https://{h2}{p2}"
    assert grounded(given_url, [given_url])
    if h1 != h2:
        assert not grounded(fetched, [given_url])
