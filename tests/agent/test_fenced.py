"""Legacy fenced blocks (zeph-test-cases §6 rows and the parameter rule)."""

from __future__ import annotations

from typing import Any

import pytest

from tooldeck.fenced import extract_fenced_blocks, fenced_calls


@pytest.mark.parametrize(("text", "blocks"), [
    ("```bashrc\nfoo\n```", []),
    ("```bash\nfoo\n```", ["foo"]),
    ("```bash \nfoo\n```", ["foo"]),
    ("```bash-x\nfoo\n```", []),
    ("```bash_x\nfoo\n```", []),
    ("```bash\nfoo", []),                             # unterminated: nothing
    ("```bash\none\n```\n```bash\ntwo\n```", ["one", "two"]),
    ("```bash\none\n```\n```bash\ntwo", ["one"]),     # extraction stops at the open one
])
def test_zeph_rows(text: str, blocks: list[str]) -> None:
    assert extract_fenced_blocks(text, "bash") == blocks


def test_calls_follow_the_text_and_each_tools_parameter_rule(make_deck: Any) -> None:
    tools = make_deck().tools()
    text = ('```scrape\n{"url": "https://example.com", "select": "h1"}\n```\n'
            "```bash\necho hi\n```\n```bash\n\n```\n```scrape\nnot json\n```")
    calls = fenced_calls(text, tools, caller_id="c", turn=2)
    assert [(c.tool_id, c.params) for c in calls] == [
        ("web_scrape", {"url": "https://example.com", "select": "h1"}),
        ("bash", {"command": "echo hi"}),
        ("web_scrape", "not json"),   # the deck answers invalid_parameters
    ]
    assert {(c.caller_id, c.turn) for c in calls} == {("c", 2)}


def test_shell_plugin_keeps_its_helper(make_deck: Any) -> None:
    from tooldeck.plugins.shell.fenced import calls_from_text

    (call,) = calls_from_text("```bash\nls\n```", turn=1)
    assert (call.tool_id, call.params, call.turn) == ("bash", {"command": "ls"}, 1)
