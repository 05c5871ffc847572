"""Skill tools run through the same gates: trust, permissions, and again for the inner call."""

from __future__ import annotations

import json
from pathlib import Path

from tests.skills.conftest import (
    BASH_ALLOWED,
    SAY,
    SAY_ALLOWED,
    TRUSTED_GREET,
    MakeDeck,
    write_skill,
)
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall


async def test_a_quarantined_skills_tool_is_denied_by_its_trust_level(
        tmp_path: Path, make_deck: MakeDeck) -> None:
    write_skill(tmp_path, "greet", SAY)
    deck = make_deck(SAY_ALLOWED + BASH_ALLOWED)  # a permission rule alone is not enough
    result = await deck.call(ToolCall("skill_greet__say", {"who": "ada"}))
    assert result.error is not None and result.error.category is ErrorCategory.POLICY_BLOCKED
    assert result.decision is not None and result.decision.gate == "trust_gate"
    assert "trust=quarantined" in result.error.message
    assert "skill:greet" in (result.decision.rule or "")
    assert "skill_greet__say" not in {t.id for t in deck.tools()}  # hidden: always denied


async def test_the_same_tool_runs_once_the_operator_trusts_the_skill(
        tmp_path: Path, make_deck: MakeDeck) -> None:
    write_skill(tmp_path, "greet", SAY)
    deck = make_deck(TRUSTED_GREET + SAY_ALLOWED + BASH_ALLOWED)
    result = await deck.call(ToolCall("skill_greet__say", {"who": "ada"}))
    assert result.ok, result.text
    assert result.output is not None
    assert result.output.summary.split("\0")[:2] == ["hello", "ada"]
    assert result.output.tool_name == "skill_greet__say"


async def test_a_trusted_skill_tool_without_a_permission_rule_asks(
        tmp_path: Path, make_deck: MakeDeck) -> None:
    write_skill(tmp_path, "greet", SAY)
    deck = make_deck(TRUSTED_GREET + BASH_ALLOWED)
    result = await deck.call(ToolCall("skill_greet__say", {"who": "ada"}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.CONFIRMATION_REQUIRED


async def test_the_front_matter_can_tighten_trust_but_never_loosen_it(
        tmp_path: Path, make_deck: MakeDeck) -> None:
    tighter = SAY.replace("allowed-tools: [bash]", "allowed-tools: [bash]\ntrust: quarantined")
    write_skill(tmp_path, "greet", tighter)
    deck = make_deck(TRUSTED_GREET + SAY_ALLOWED + BASH_ALLOWED)
    denied = await deck.call(ToolCall("skill_greet__say", {"who": "ada"}))
    assert denied.error is not None and denied.error.category is ErrorCategory.POLICY_BLOCKED
    assert "trust=quarantined" in denied.error.message

    looser = SAY.replace("allowed-tools: [bash]", "allowed-tools: [bash]\ntrust: trusted")
    write_skill(tmp_path, "greet", looser)
    deck = make_deck(SAY_ALLOWED + BASH_ALLOWED)  # the operator says nothing: quarantined
    denied = await deck.call(ToolCall("skill_greet__say", {"who": "ada"}))
    assert denied.error is not None and denied.error.category is ErrorCategory.POLICY_BLOCKED


TOUCH = """\
---
name: greet
description: Leaves a mark.
tools:
  - name: say
    description: Create a file.
    tool: bash
    params:
      command: touch {name}
    args:
      - name: name
---
Marks.
"""


async def test_the_inner_call_is_denied_by_the_shell_policy_though_the_skill_tool_is_allowed(
        tmp_path: Path, make_deck: MakeDeck) -> None:
    write_skill(tmp_path, "greet", TOUCH)
    deck = make_deck(TRUSTED_GREET + SAY_ALLOWED + BASH_ALLOWED
                     + '\n[tools.shell]\nblocked_commands = ["touch"]\n')
    result = await deck.call(ToolCall("skill_greet__say", {"name": "marker"}))
    assert result.decision is not None and result.decision.verdict.value == "allow"  # outer
    assert result.error is not None and result.error.category is ErrorCategory.POLICY_BLOCKED
    assert "its bash call is not allowed (deny by gate shell" in result.error.message
    assert not (tmp_path / "marker").exists()
    records = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    inner = [r for r in records if r["kind"] == "skills.inner_call"]
    assert [(r["tool"], r["inner_tool"], r["input"], r["verdict"], r["gate"]) for r in inner] == [
        ("skill_greet__say", "bash", "touch marker", "deny", "shell")]


async def test_an_inner_call_that_would_ask_is_refused(
        tmp_path: Path, make_deck: MakeDeck) -> None:
    write_skill(tmp_path, "greet", TOUCH)
    deck = make_deck(TRUSTED_GREET + SAY_ALLOWED + BASH_ALLOWED.replace("allow", "ask"))
    result = await deck.call(ToolCall("skill_greet__say", {"name": "marker"}), confirm=True)
    assert result.error is not None and result.error.category is ErrorCategory.POLICY_BLOCKED
    assert "(ask by gate permissions" in result.error.message
    assert not (tmp_path / "marker").exists()


async def test_the_inner_call_runs_with_typed_validated_parameters(
        tmp_path: Path, make_deck: MakeDeck) -> None:
    write_skill(tmp_path, "notes", """\
        ---
        name: notes
        description: Reads the notes file.
        tools:
          - name: head
            description: The first lines of notes.txt.
            tool: read
            params: {path: notes.txt, limit: "{lines}"}
            args:
              - {name: lines, type: integer, default: 1}
        ---
        Read notes.
        """)
    (tmp_path / "notes.txt").write_text("one\ntwo\nthree\n")
    deck = make_deck('[tools.trust]\nsources = { "skill:notes" = "verified" }\n'
                     '[[tools.permissions.skill_notes__head]]\npattern = "*"\naction = "allow"\n'
                     '[[tools.permissions.read]]\npattern = "*"\naction = "allow"\n')
    result = await deck.call(ToolCall("skill_notes__head", {"lines": 2}))
    assert result.ok, result.text
    assert "two" in result.text and "three" not in result.text
    wrong = await deck.call(ToolCall("skill_notes__head", {"lines": "2; rm"}))
    assert wrong.error is not None
    assert wrong.error.category is ErrorCategory.TYPE_MISMATCH


def test_a_skill_tool_over_a_tool_the_deck_lacks_is_reported(
        tmp_path: Path, make_deck: MakeDeck) -> None:
    write_skill(tmp_path, "greet", SAY.replace("tool: bash", "tool: teleport"))
    deck = make_deck()
    assert ("skills/greet/SKILL.md: tool 'skill_greet__say' runs 'teleport', which this deck "
            "does not offer: its calls fail until it does") in deck.runtime.warnings
