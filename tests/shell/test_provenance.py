"""Provenance: every audit line and every ``check`` answer says which rule decided, from where.

Gate, rule id, pattern, the file and line (or ``builtin`` / ``env`` / ``default``), the
policy generation, and for the shell the command segment that decided. The model's text stays
the gate's reason, with no file or line in it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tooldeck.deck import Deck
from tooldeck.models import ToolCall

pytestmark = pytest.mark.timeout(60)

SEGMENT_RULES = """
[[tools.permissions.bash]]
pattern = "git push *"
action = "deny"

# a comment, then a rule written with blanks and a quoted key
[[ tools . permissions . "bash" ]]
pattern = "*"
action = "allow"
"""


def line_of(text: str, needle: str, nth: int = 0) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), start=1) if needle in line]
    return lines[nth]


def records(tmp_path: Path) -> list[dict[str, Any]]:
    log = tmp_path / "audit.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()]


async def test_a_segment_rule_names_file_line_pattern_and_segment(
    make_deck: Any, write_config: Any, tmp_path: Path,
) -> None:
    deck: Deck = make_deck(SEGMENT_RULES)
    path = write_config(SEGMENT_RULES)
    text = path.read_text()
    result = await deck.call(ToolCall("bash", {"command": "echo ok && git push origin main"}))
    decision = result.decision
    assert decision is not None and decision.verdict.value == "deny"
    (record,) = records(tmp_path)
    assert record["v"] == 2
    assert record["policy"] == deck.runtime.digest()
    # the whole command is allowed by rule [1]; the segment is denied by rule [0]
    assert record["decision"] == {
        "verdict": "deny", "gate": "shell", "source": str(path), "rule": "segment-rule",
        "pattern": "git push *", "line": line_of(text, "[[tools.permissions.bash]]"),
        "segment": "git push origin main",
    }
    # the model is told the rule's reason, never where it lives
    assert str(path) not in result.text and "line" not in result.text


async def test_the_permission_rule_line_is_found_for_spaced_quoted_headers(
    make_deck: Any, write_config: Any, tmp_path: Path,
) -> None:
    deck: Deck = make_deck(SEGMENT_RULES)
    text = write_config(SEGMENT_RULES).read_text()
    await deck.call(ToolCall("bash", {"command": "true"}))
    (record,) = records(tmp_path)
    assert record["decision"]["rule"] == "tools.permissions.bash[1]"
    assert record["decision"]["line"] == line_of(text, '[[ tools . permissions . "bash" ]]')


async def test_an_overlay_rule_names_the_overlay_file_and_line(
    make_deck: Any, write_config: Any, helpers: Any,
) -> None:
    policy = write_config('[tools.shell]\npolicy_dir = "policy.d"\n').parent / "policy.d"
    policy.mkdir()
    overlay = policy / "10-deploy.toml"
    overlay.write_text('# team policy\n\n[[tools.permissions.bash]]\npattern = "deploy *"\n'
                       'action = "deny"\n')
    deck: Deck = make_deck('[tools.shell]\npolicy_dir = "policy.d"\n')
    vote = helpers.shell_vote(deck, "ls && deploy prod")
    assert vote.provenance() == {
        "gate": "shell", "source": str(overlay), "rule": "overlay-rule",
        "pattern": "deploy *", "line": 3, "segment": "deploy prod",
    }


async def test_a_blocked_command_names_its_segment_and_builtin_source(
    make_deck: Any, helpers: Any,
) -> None:
    vote = helpers.shell_vote(make_deck(), "echo hi; sudo id")
    assert vote.provenance()["source"] == "builtin"
    assert vote.provenance()["segment"] == "sudo id"
    assert vote.rule == "blocklist"


async def test_a_blocked_command_from_the_environment_says_env(
    sandbox: Path, write_config: Any,
) -> None:
    env = {"TOOLDECK_TOOLS_SHELL_BLOCKED_COMMANDS": '["terraform"]'}
    deck = Deck.from_config(write_config(""), extra_plugins={}, environ=env)
    try:
        from tooldeck.plugins.shell.gate import ShellGate

        gate = next(p for p in deck.runtime.pm.get_plugins() if isinstance(p, ShellGate))
        vote = gate.tooldeck_check_call(ToolCall("bash", {"command": "terraform apply"}),
                                        deck.runtime.tools["bash"], deck.runtime)
        assert (vote.rule, vote.source, vote.pattern) == ("blocklist", "env", "terraform")
    finally:
        await deck.aclose()


async def test_the_embedded_default_is_named_default(sandbox: Path) -> None:
    from tooldeck.config import embedded_default_text, parse_document

    deck = Deck.from_config(parse_document(embedded_default_text(), None, "embedded default"),
                            extra_plugins={}, environ={})
    try:
        from tooldeck.judge import judge_call

        decision = judge_call(deck.runtime, "bash", {"command": "ls"})
        assert decision.verdict.value == "allow"
        assert decision.provenance()["source"] in ("default", "builtin")
        assert decision.source != "<embedded default>"
    finally:
        await deck.aclose()


def test_check_bash_answers_with_provenance_and_generation(
    check_cli: Any, write_config: Any,
) -> None:
    path = write_config(SEGMENT_RULES)
    out = check_cli("echo ok && git push origin main", config=path)
    assert (out["verdict"], out["gate"], out["rule"]) == ("deny", "shell", "segment-rule")
    assert (out["source"], out["pattern"], out["segment"]) == (str(path), "git push *",
                                                               "git push origin main")
    assert out["line"] == line_of(path.read_text(), "[[tools.permissions.bash]]")
    assert isinstance(out["policy"], str) and len(out["policy"]) == 16
