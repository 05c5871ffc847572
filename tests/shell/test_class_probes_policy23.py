"""The seventh probe round (policy23): ``data/class_probes_policy23.tsv``.

Rows written from the published security advisories, bypass reports and fixes of coding
agents' own command permission systems (Claude Code, Gemini CLI, Codex, Qwen Code, Cline,
Roo Code, and the gates of other agents reviewed in public), each attack rewritten with other
tools and spellings; benign look-alikes are what agents ordinarily run with the same tools.
Every dangerous row must be caught (denied or asked), every ``allow`` row allowed and every
``asked`` row asked. A command may hold U+2424 (SYMBOL FOR NEWLINE) where it has a newline.
"""

from __future__ import annotations

from pathlib import Path

from tooldeck.shell_analysis.parse import analyze

from .probe_rounds import Row, missed, read_rows, verdicts_fixture, wrong_look_alikes

DATA = Path(__file__).with_name("data") / "class_probes_policy23.tsv"
AGENTS = ("anthropics/claude-code", "google-gemini/gemini-cli", "openai/codex",
          "QwenLM/qwen-code")
"""The agents whose advisories each have dangerous rows and look-alikes."""
SOURCES = (*(f"{agent}" for agent in AGENTS), "cline/cline#", "RooCodeInc/Roo-Code#",
           "unslothai/unsloth#", "kirodotdev/KiroCrew#", "gptme/gptme#",
           "Gitlawb/openclaude#", "dyad-sh/dyad#", "supermemoryai/claude-supermemory#",
           "andresthor/cmd-line-mcp#", "NousResearch/hermes-agent#", "nextlevelbuilder/goclaw#",
           "openclaw/openclaw#", "amd/gaia#", "claude-wiki ")
"""Each row names the advisory, issue or fix it was written from."""


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)


def test_rows_name_their_source_and_are_distinct() -> None:
    rows = _rows()
    assert [r[3] for r in rows if not r[2].startswith(SOURCES)] == []
    assert len({r[3] for r in rows}) == len(rows)
    assert {r[1] for r in rows} == {"deny", "ask", "allow", "asked"}
    dangerous = [r for r in rows if r[1] in ("deny", "ask")]
    assert len(dangerous) >= 120 and len(rows) - len(dangerous) >= 50


def test_each_agents_advisories_have_look_alikes() -> None:
    for agent in AGENTS:
        verdicts = {r[1] in ("deny", "ask") for r in _rows() if r[2].startswith(agent)}
        assert verdicts == {True, False}, agent


def test_every_dangerous_row_is_caught(judged: dict[str, str]) -> None:
    assert missed(_rows(), judged) == []


def test_look_alikes_keep_their_verdict(judged: dict[str, str]) -> None:
    assert wrong_look_alikes(_rows(), judged) == []


# The forms behind this round's fixes, at the analysis level.

def test_a_continuation_inside_double_quotes_joins_a_substitution() -> None:
    analysis = analyze('echo "$\\\n(rm -rf ~)"')
    assert "rm" in [s.command for s in analysis.segments]


def test_a_continuation_in_a_comment_or_single_quotes_is_not_joined() -> None:
    # bash ends a comment at the newline: the next line is a command of its own
    assert "rm" in [s.command for s in analyze("ls # note \\\nrm -rf ~").segments]
    quoted = analyze("echo 'a\\\nb'")
    assert [s.command for s in quoted.segments] == ["echo"]
    assert quoted.segments[0].words[1].value == "a\\\nb"


def test_a_prompt_expansion_is_opaque() -> None:
    assert analyze("v='$(id)'; echo \"${v@P}\"").opaque_reasons
    assert not analyze('echo "${v@Q}"').opaque_reasons


def test_the_files_a_sed_script_writes_are_write_targets() -> None:
    assert analyze("sed -n '/x/w /etc/cron.d/job' f").write_targets == ("/etc/cron.d/job",)
    assert analyze("sed 's/a/b/w out.txt' f").write_targets == ("out.txt",)
    assert analyze("sed -n '/x/w /dev/stdout' f").write_targets == ()
    assert analyze("sed -n '/^w /d' f").write_targets == ()
