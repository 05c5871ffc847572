"""``[[tools.file.examples]]``: the read globs' inline examples, checked on load and reload."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tooldeck.cli import main
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.models import ToolCall

GLOBS = """
[tools.file]
deny_read = ["**/.env", "**/*.pem"]
allow_read = ["**/.env.example"]

[[tools.permissions.read]]
pattern = "*"
action = "allow"
"""


def example(path: str, read: str) -> str:
    return f'\n[[tools.file.examples]]\npath = {json.dumps(path)}\nread = "{read}"\n'


GOOD = (GLOBS + example("app/.env", "deny") + example("app/.env.example", "allow")
        + example("~/keys/id.pem", "deny") + example("README.md", "allow"))


def _save(path: Path, text: str) -> None:
    staging = path.with_name(f".{path.name}.tmp")
    staging.write_text(text, encoding="utf-8")
    os.replace(staging, path)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    (root / "app" / "settings.toml").write_text("debug = true\n", encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def test_examples_that_hold_load(project: Path) -> None:
    _save(project / "tooldeck.toml", GOOD)
    deck = Deck.from_config(project / "tooldeck.toml", environ={})
    assert deck.runtime.examples_passed["file path examples"] == 4
    deck.close()


def test_a_failing_example_names_file_line_and_example(project: Path) -> None:
    text = GOOD + example("app/settings.toml", "deny")
    _save(project / "tooldeck.toml", text)
    line = text.splitlines().index('path = "app/settings.toml"')  # the header is above it
    with pytest.raises(ConfigError) as caught:
        Deck.from_config(project / "tooldeck.toml", environ={})
    assert str(caught.value).startswith(
        f"{project / 'tooldeck.toml'}:{line}: tools.file.examples[4]: reading "
        "'app/settings.toml'")
    assert "should be deny but the deny_read/allow_read globs allow it" in str(caught.value)


async def test_a_failing_example_blocks_a_reload_and_the_old_globs_keep_deciding(
        project: Path) -> None:
    config = project / "tooldeck.toml"
    _save(config, GOOD)
    deck = Deck.from_config(config, environ={}, settle_s=0.0)
    try:
        old = deck.runtime.digest()
        # the new file also denies *.toml, but its example still says settings.toml is readable
        _save(config, GOOD.replace('"**/*.pem"]', '"**/*.pem", "**/*.toml"]')
              + example("app/settings.toml", "allow"))
        assert await deck.reload() is False
        assert deck.runtime.digest() == old
        assert "tools.file.examples[4]" in (deck.last_reload_error or "")
        result = await deck.call(ToolCall("read", {"path": "app/settings.toml"}))
        assert result.error is None and "debug = true" in result.text
    finally:
        await deck.aclose()


def test_policy_test_counts_them(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _save(project / "tooldeck.toml", GOOD)
    assert main(["policy", "test", str(project / "tooldeck.toml")]) == 0
    assert ", 4 file path examples" in capsys.readouterr().out
