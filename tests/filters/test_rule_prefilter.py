"""The one-search prefilter of matching_rules decides exactly what asking every rule decides."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.filters.command import command_segment
from tooldeck.filters.engine import FilterEngine

ENGINE = FilterEngine.from_settings()
WORDS = ["cargo", "test", "build", "clippy", "git", "status", "diff", "log", "push", "pytest",
         "python", "-m", "npm", "install", "pip", "docker", "compose", "make", "go", "vet",
         "ruff", "mypy", "tsc", "kubectl", "get", "terraform", "plan", "ls", "find", "grep",
         "-la", "+nightly", "&&", "|", "tail", "2>&1", ";", "cd", "x", "journalctl", "npx"]


def every_rule(command: str) -> list[str]:
    segment = command_segment(command)
    return [rule.name for rule in ENGINE.rules if rule.matcher.matches_segment(segment)]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join))
def test_prefilter_agrees_with_every_rule(command: str) -> None:
    assert [rule.name for rule in ENGINE.matching_rules(command)] == every_rule(command)


def test_commands_that_match_nothing_and_something() -> None:
    assert ENGINE.matching_rules("true") == []
    assert [r.name for r in ENGINE.matching_rules("cd x && cargo test 2>&1 | tail")] == \
        every_rule("cargo test")
