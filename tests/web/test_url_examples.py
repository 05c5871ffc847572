"""``[[tools.scrape.examples]]``: the egress domain lists' inline examples, on load and reload."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tooldeck.cli import main
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError

LISTS = """
[tools.scrape]
allowed_domains = ["*.example.com", "example.org"]
denied_domains = ["secrets.example.com"]
"""


def example(url: str, expect: str, rule: str | None = None) -> str:
    extra = f'rule = "{rule}"\n' if rule else ""
    return (f'\n[[tools.scrape.examples]]\nurl = {json.dumps(url)}\nexpect = "{expect}"\n'
            f"{extra}")


GOOD = (LISTS + example("https://docs.example.com/a", "allow")
        + example("https://secrets.example.com/", "deny", "denylist")
        + example("https://elsewhere.net/", "deny", "allowlist"))


def _save(path: Path, text: str) -> None:
    staging = path.with_name(f".{path.name}.tmp")
    staging.write_text(text, encoding="utf-8")
    os.replace(staging, path)


def test_examples_that_hold_load(tmp_path: Path) -> None:
    _save(tmp_path / "tooldeck.toml", GOOD)
    deck = Deck.from_config(tmp_path / "tooldeck.toml", environ={})
    assert deck.runtime.examples_passed["web URL examples"] == 3
    deck.close()


@pytest.mark.parametrize(("bad", "message"), [
    (example("https://secrets.example.com/x", "allow"),
     "'https://secrets.example.com/x' should be allow but is deny (rule denylist)"),
    (example("https://example.org/", "deny"), "should be deny but is allow (rule -)"),
    (example("https://elsewhere.net/", "deny", "denylist"),
     "should be deny by rule denylist but is deny (rule allowlist)"),
])
def test_a_failing_example_names_file_line_example_and_rule(
        tmp_path: Path, bad: str, message: str) -> None:
    text = GOOD + bad
    _save(tmp_path / "tooldeck.toml", text)
    line = len(text.splitlines()) - bad.count("\n") + 2
    with pytest.raises(ConfigError) as caught:
        Deck.from_config(tmp_path / "tooldeck.toml", environ={})
    assert str(caught.value).startswith(
        f"{tmp_path / 'tooldeck.toml'}:{line}: tools.scrape.examples[3]: ")
    assert message in str(caught.value)


async def test_a_failing_example_blocks_a_reload_and_the_old_lists_keep_deciding(
        tmp_path: Path) -> None:
    config = tmp_path / "tooldeck.toml"
    _save(config, GOOD)
    deck = Deck.from_config(config, environ={}, settle_s=0.0)
    try:
        old = deck.runtime.digest()
        # the new file denies example.org, but its example still says it is allowed
        _save(config, GOOD.replace('denied_domains = ["secrets.example.com"]',
                                   'denied_domains = ["secrets.example.com", "example.org"]')
              + example("https://example.org/", "allow"))
        assert await deck.reload() is False
        assert deck.runtime.digest() == old
        assert "tools.scrape.examples[3]" in (deck.last_reload_error or "")
        assert deck.runtime.services.egress.check_url("https://example.org/").verdict == "allow"
    finally:
        await deck.aclose()


def test_policy_test_counts_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _save(tmp_path / "tooldeck.toml", GOOD)
    assert main(["policy", "test", str(tmp_path / "tooldeck.toml")]) == 0
    assert ", 3 web URL examples" in capsys.readouterr().out
