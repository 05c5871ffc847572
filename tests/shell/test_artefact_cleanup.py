"""Cleaning regenerable artefacts in the project does not ask; its neighbours still do.

Replayed sessions asked for ``find . -name '__pycache__' -type d -prune -exec rm -rf {} +``
and ``rm -rf .nyc_output coverage`` (confirm pattern ``rm ``), while ``find . -name '*.pyc'
-delete`` on the same kind of target was allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

Judge = Callable[[Sequence[str]], dict[str, str]]

ALLOWED = [
    "find . -name '__pycache__' -type d -prune -exec rm -rf {} + && echo cleaned",
    "rm -rf .nyc_output coverage && git status --short",
    "rm -rf __pycache__",
    "rm -rf build dist src/*.egg-info",
    "find . -name '*.pyc' -delete",
    "find . -name __pycache__ -print0 | xargs -0 rm -rf",
    "rm -rf .pytest_cache .mypy_cache .ruff_cache htmlcov .coverage",
    "rm -rf target && cargo build",
]

ASKED_OR_DENIED = [
    "rm -rf node_modules/../src",
    "rm -rf ./*",
    "rm -rf dist ~/x",
    "find / -name __pycache__ -exec rm -rf {} +",
    "find .. -name build -exec rm -rf {} +",
    "rm -rf dist src",
    "rm -rf .env",
    "rm -f db.sqlite3",
    "cd .. && rm -rf build",
    "find . -name dist -o -name src -exec rm -rf {} +",
    "{ echo ~; find . -name dist; } | xargs rm -rf",
    "rm -rf $OUT/dist",
    "mv src build && rm -rf build",
    "find . -name build | xargs rm -rf",  # a found './src b/build' would remove ./src
    # find -delete of what no build regenerates asks as rm of it does
    "find . -name .env -delete",
    "find . -name '*.pem' -delete",
    "find config -name 'secrets.json' -delete",
]


@pytest.mark.parametrize("command", ALLOWED)
def test_an_artefact_cleanup_is_allowed(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] == "allow"


@pytest.mark.parametrize("command", ASKED_OR_DENIED)
def test_a_neighbour_still_asks_or_is_denied(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] in ("ask", "deny")


def test_git_checkout_of_a_file_still_asks(default_verdicts: Judge) -> None:
    command = "git checkout -- index.js"
    assert default_verdicts([command])[command] == "ask"


async def test_a_build_link_out_of_the_root_still_asks(make_deck: Any, helpers: Any,
                                                       sandbox: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (sandbox / "build").symlink_to(tmp_path / "elsewhere")
    deck = make_deck(default=True)
    assert helpers.verdict_of(deck, "rm -rf build")[0] in ("ask", "deny")
    assert helpers.verdict_of(deck, "find build -name dist -exec rm -rf {} +")[0] in ("ask",
                                                                                        "deny")
    assert helpers.verdict_of(deck, "rm -rf dist")[0] == "allow"


async def test_an_overlay_rule_makes_every_rm_ask(make_deck: Any, helpers: Any,
                                                  write_config: Any) -> None:
    policy_dir = write_config().parent / "policy.d"
    policy_dir.mkdir()
    (policy_dir / "rm.toml").write_text(
        '[[tools.permissions.bash]]\npattern = "rm *"\naction = "ask"\n')
    deck = make_deck('[tools.shell]\npolicy_dir = "policy.d"\n', default=True)
    for command in ("rm -rf __pycache__", "find . -name build -exec rm -rf {} +",
                    "find . -name dist -print0 | xargs -0 rm -rf"):
        assert helpers.verdict_of(deck, command)[:2] == ("ask", "overlay-rule"), command
