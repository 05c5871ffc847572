"""The built-in ``permissions`` gate (zeph-test-cases §5.1), driven through real decks."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError, ErrorCategory
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict

A, Q, D = Verdict.ALLOW, Verdict.ASK, Verdict.DENY


def toml_str(text: str) -> str:
    """``text`` as a TOML basic string (JSON string escapes are valid TOML)."""
    return json.dumps(text)


def rules(tool: str, *pairs: tuple[str, str]) -> str:
    """TOML for ``[[tools.permissions.<tool>]]`` rules given as (pattern, action) pairs."""
    return "".join(
        f"[[tools.permissions.{tool}]]\npattern = {toml_str(pattern)}\naction = '{action}'\n"
        for pattern, action in pairs
    )


def decide(deck: Deck, command: str, tool: str = "bash") -> Decision:
    result = deck.call_sync(ToolCall(tool, {"command": command}))
    assert result.decision is not None, result.text
    return result.decision


@pytest.fixture
def bash_deck(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> Callable[[str], Deck]:
    """``bash_deck(toml)``: a deck with tools ``bash`` and ``BASH`` and the given policy."""
    return lambda toml: make_deck(toml, {"tools": tool_plugin("bash", "BASH", "deploy")})


@pytest.mark.parametrize(
    ("policy", "command", "verdict"),
    [
        (rules("bash", ("echo *", "allow")), "echo hello", A),
        (rules("bash", ("*rm -rf*", "deny")), "rm -rf /tmp", D),
        (rules("bash", ("*git push*", "ask")), "git push origin", Q),
        (rules("bash", ("echo *", "allow")), "ls -la", Q),
        (rules("bash", ("*sudo*", "deny")), "SUDO apt", D),
        (rules("bash", ("*sudo*", "deny")), "Sudo apt", D),
        (rules("bash", ("ECHO *", "allow")), "echo hi", A),
        (rules("bash", ("*git*", "allow"), ("*git push*", "deny")), "git push", A),
        (rules("bash", ("*git push*", "deny"), ("*git*", "allow")), "git push", D),
        (rules("bash", ("*git push*", "deny"), ("*git*", "allow")), "git status", A),
    ],
)


def test_rule_table(
    bash_deck: Callable[[str], Deck], policy: str, command: str, verdict: Verdict
) -> None:
    deck = bash_deck(policy)
    decision = decide(deck, command)
    assert decision.verdict is verdict
    assert decision.gate == "permissions"
    assert decision.source == str(deck.runtime.settings.document.path)


def test_decision_names_the_rule_that_fired(bash_deck: Callable[[str], Deck]) -> None:
    deck = bash_deck(rules("bash", ("*git*", "allow"), ("*rm -rf*", "deny")))
    decision = decide(deck, "rm -rf build")
    assert (decision.rule, decision.pattern) == ("tools.permissions.bash[1]", "*rm -rf*")
    assert decision.reason == "bash rule '*rm -rf*' → deny"
    result = deck.call_sync(ToolCall("bash", {"command": "rm -rf build"}), confirm=True)
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED


def test_a_tool_without_rules_asks(bash_deck: Callable[[str], Deck]) -> None:
    decision = decide(bash_deck(rules("bash", ("*", "allow"))), "ship it", tool="deploy")
    assert (decision.verdict, decision.rule, decision.source) == (Q, "no-rules", None)
    assert decision.reason == "no permission rules for deploy"


def test_tool_ids_are_case_sensitive(bash_deck: Callable[[str], Deck]) -> None:
    deck = bash_deck(rules("bash", ("*", "allow")))
    assert decide(deck, "ls").verdict is A
    assert decide(deck, "ls", tool="BASH").verdict is Q


def test_no_matching_rule_asks(bash_deck: Callable[[str], Deck]) -> None:
    decision = decide(bash_deck(rules("bash", ("echo *", "allow"))), "ls -la")
    assert decision.reason == "no permission rule of bash matches"


@pytest.mark.parametrize(
    ("command", "verdict"),
    [("sudo apt", D), ("rm file", Q), ("ls", A), ("echo sudo", D), ("RM file", Q)],
)


def test_legacy_shell_lists_become_bash_rules(
    bash_deck: Callable[[str], Deck], command: str, verdict: Verdict
) -> None:
    deck = bash_deck('[tools.shell]\nblocked_commands = ["sudo"]\nconfirm_patterns = ["rm "]\n')
    assert decide(deck, command).verdict is verdict


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("git push --force origin main", Q),
        ("echo $(id)", Q),
        ("echo `id`", Q),
        ("DROP TABLE users", Q),
        ("eval x", Q),
        ("ls -la", A),
        ("git push origin", A),
    ],
)


def test_legacy_default_confirm_patterns(
    bash_deck: Callable[[str], Deck], command: str, verdict: Verdict
) -> None:
    assert decide(bash_deck(""), command).verdict is verdict


def test_legacy_patterns_are_literal_text(bash_deck: Callable[[str], Deck]) -> None:
    deck = bash_deck('[tools.shell]\nblocked_commands = ["rm *", "a?b", "[x]"]\n'
                     "confirm_patterns = []\n")
    assert decide(deck, "rm *").verdict is D
    assert decide(deck, "rm x").verdict is A
    assert decide(deck, "a?b").verdict is D
    assert decide(deck, "axb").verdict is A
    assert decide(deck, "echo [x]").verdict is D
    assert decide(deck, "echo x").verdict is A


@pytest.mark.parametrize(
    ("shell", "key"),
    [
        ('blocked_commands = "sudo"', "blocked_commands"),
        ('blocked_commands = ["sudo", ""]', "blocked_commands"),
        ("confirm_patterns = [1, 2]", "confirm_patterns"),
        ('confirm_patterns = "rm "', "confirm_patterns"),
    ],
)


def test_malformed_legacy_lists_are_refused(
    bash_deck: Callable[[str], Deck], shell: str, key: str
) -> None:
    with pytest.raises(ConfigError) as info:
        bash_deck(f"[tools.shell]\n{shell}\n")
    assert f"tooldeck.toml: tools.shell.{key}: expected a list of non-empty strings" in str(
        info.value
    )
    assert info.value.key == f"tools.shell.{key}"


def test_empty_confirm_patterns_leave_only_the_blocklist(bash_deck: Callable[[str], Deck]) -> None:
    deck = bash_deck('[tools.shell]\nblocked_commands = ["curl"]\nconfirm_patterns = []\n')
    assert decide(deck, "rm -rf /").verdict is A
    assert decide(deck, "curl x").verdict is D


def test_explicit_bash_rules_replace_the_legacy_lists(bash_deck: Callable[[str], Deck]) -> None:
    deck = bash_deck('[tools.shell]\nblocked_commands = ["sudo"]\n' + rules("bash", ("*", "allow")))
    assert decide(deck, "sudo apt").verdict is A


def test_fully_denied_tool_is_hidden_but_still_denied(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    policy = (
        rules("nuke", ("*", "deny"), ("*boom*", "deny"))
        + rules("mixed", ("*x*", "deny"), ("*", "allow"))
    )
    deck = make_deck(policy, {"t": tool_plugin("nuke", "mixed", "free")})
    assert [t.id for t in deck.tools()] == ["free", "mixed"]
    assert "nuke" in deck.runtime.tools
    assert decide(deck, "anything", tool="nuke").verdict is D


@pytest.mark.parametrize(
    ("capabilities", "verdict"),
    [(("read",), A), (("read", "network"), D), (("read", "write"), D), (("exec",), D), ((), D)],
)


def test_readonly_autonomy(
    make_deck: Callable[..., Deck],
    tool_plugin: Callable[..., Any],
    capabilities: tuple[str, ...],
    verdict: Verdict,
) -> None:
    deck = make_deck("[agent]\nautonomy = 'readonly'\n" + rules("probe", ("*", "ask")),
                     {"t": tool_plugin("probe", capabilities=capabilities)})
    decision = decide(deck, "look", tool="probe")
    assert decision.verdict is verdict
    assert decision.rule == "agent.autonomy"


@pytest.mark.parametrize(("rule", "verdict"), [("allow", A), ("ask", Verdict.ASK),
                                               ("deny", D)])
def test_readonly_network_lets_rules_decide_network_reads(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any], rule: str,
    verdict: Verdict,
) -> None:
    config = "[agent]\nautonomy = 'readonly'\nreadonly_network = true\n"
    deck = make_deck(config + rules("probe", ("https://*", rule)),
                     {"t": tool_plugin("probe", capabilities=("read", "network"))})
    assert decide(deck, "https://example.org/", tool="probe").verdict is verdict
    assert decide(deck, "http://example.org/", tool="probe").verdict is Verdict.ASK
    writer = make_deck(config + rules("probe", ("*", "allow")),
                       {"t": tool_plugin("probe", capabilities=("network", "write"))})
    assert decide(writer, "https://example.org/", tool="probe").verdict is D


def test_readonly_autonomy_keeps_deny_rules_of_read_only_tools(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    deck = make_deck(
        "[agent]\nautonomy = 'readonly'\n" + rules("read", ("*/.ssh/*", "deny"), ("*", "ask")),
        {"t": tool_plugin("read", capabilities=("read",))},
    )
    assert decide(deck, "/home/me/notes.txt", tool="read").verdict is A
    denied = decide(deck, "/home/me/.ssh/id_ed25519", tool="read")
    assert (denied.verdict, denied.pattern) == (D, "*/.ssh/*")


def test_full_autonomy_allows_everything(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    deck = make_deck("[agent]\nautonomy = 'full'\n" + rules("bash", ("*rm*", "deny")),
                     {"t": tool_plugin("bash", "deploy")})
    assert decide(deck, "rm -rf /").verdict is A
    assert decide(deck, "x", tool="deploy").verdict is A


# -------------------------------------------------------------------------------- globs


@pytest.mark.parametrize(
    ("pattern", "command", "matches"),
    [
        ("ls *", "ls /etc/ssh/sshd_config", True),
        ("ls *", "ls a\nrm -rf /", True),
        ("*rm -rf*", "echo ok\nrm -rf /", True),
        ("ls ?", "ls a", True),
        ("ls ?", "ls ab", False),
        ("ls ?", "ls \n", True),
        ("cat [abc].txt", "cat b.txt", True),
        ("cat [abc].txt", "cat d.txt", False),
        ("cat [a-c].txt", "cat B.txt", True),
        ("cat [!.]*", "cat notes", True),
        ("cat [!.]*", "cat .env", False),
        ("cat [^.]*", "cat .env", False),
        ("echo \\*", "echo *", True),
        ("echo \\*", "echo hi", False),
        ("echo a\\?", "echo a?", True),
        ("echo a\\?", "echo ab", False),
        ("echo (a|b)+", "echo (a|b)+", True),
        ("echo (a|b)+", "echo a", False),
        ("echo $HOME.", "echo $home.", True),
        ("git status", "git status --short", False),
        ("git status", " git status", False),
    ],
)


def test_glob_semantics(
    bash_deck: Callable[[str], Deck], pattern: str, command: str, matches: bool
) -> None:
    deck = bash_deck(
        f"[[tools.permissions.bash]]\npattern = {toml_str(pattern)}\naction = 'allow'\n"
    )
    assert (decide(deck, command).verdict is A) is matches


@pytest.mark.parametrize("pattern", ["[abc", "echo \\", "[!", "cat [z-a]"])
def test_invalid_glob_refuses_the_policy(bash_deck: Callable[[str], Deck], pattern: str) -> None:
    with pytest.raises(ConfigError) as info:
        bash_deck(f"[[tools.permissions.bash]]\npattern = {toml_str(pattern)}\naction = 'allow'\n")
    assert f"tools.permissions.bash[0]: invalid pattern {pattern!r}" in str(info.value)
    assert info.value.key == "tools.permissions.bash[0]"


# ------------------------------------------------------------------------ inline examples


def test_match_example_shadowed_by_an_earlier_rule_is_refused(
    bash_deck: Callable[[str], Deck],
) -> None:
    policy = (
        "[[tools.permissions.bash]]\npattern = '*git*'\naction = 'allow'\n"
        "[[tools.permissions.bash]]\npattern = '*git push*'\naction = 'deny'\n"
        "match = ['git push origin main']\n"
    )
    with pytest.raises(ConfigError) as info:
        bash_deck(policy)
    message = str(info.value)
    assert "tooldeck.toml: tools.permissions.bash[1]: " in message
    assert (
        "example 'git push origin main' should be decided by rule '*git push*' but is "
        "matched by rule [0] '*git*' first"
    ) in message
    assert info.value.key == "tools.permissions.bash[1]"


def test_match_example_that_no_rule_matches_is_refused(bash_deck: Callable[[str], Deck]) -> None:
    policy = "[[tools.permissions.bash]]\npattern = 'ls *'\naction = 'allow'\nmatch = ['cat x']\n"
    with pytest.raises(ConfigError, match="example 'cat x' should be decided by rule 'ls \\*' "
                       "but is matched by no rule"):
        bash_deck(policy)


def test_not_match_example_that_matches_is_refused(bash_deck: Callable[[str], Deck]) -> None:
    policy = (
        "[[tools.permissions.bash]]\npattern = '*rm -rf*'\naction = 'deny'\n"
        "not_match = ['rm -r build', 'echo rm -rf']\n"
    )
    with pytest.raises(ConfigError) as info:
        bash_deck(policy)
    assert (
        "tools.permissions.bash[0]: example 'echo rm -rf' in not_match is matched by rule "
        "'*rm -rf*'"
    ) in str(info.value)


def test_valid_examples_load(bash_deck: Callable[[str], Deck]) -> None:
    policy = (
        "[[tools.permissions.bash]]\npattern = '*git push*'\naction = 'ask'\n"
        "match = ['git push', 'GIT PUSH origin']\nnot_match = ['git pull']\n"
        "[[tools.permissions.bash]]\npattern = '*'\naction = 'allow'\n"
        "match = ['git pull', 'ls']\n"
    )
    deck = bash_deck(policy)
    assert decide(deck, "git push").verdict is Q
    assert decide(deck, "git pull").verdict is A


@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        ("pattern = ''\naction = 'allow'\n", "tools.permissions.bash.0.pattern"),
        ("pattern = '*'\naction = 'permit'\n", "tools.permissions.bash.0.action"),
        ("pattern = '*'\naction = 'allow'\nmatches = ['x']\n", "tools.permissions.bash.0.matches"),
        ("patern = '*'\naction = 'allow'\n", "tools.permissions.bash.0.pattern"),
    ],
)


def test_malformed_rule_is_a_config_error(
    bash_deck: Callable[[str], Deck], rule: str, problem: str
) -> None:
    with pytest.raises(ConfigError) as info:
        bash_deck("[[tools.permissions.bash]]\n" + rule)
    assert f"tooldeck.toml: {problem}: " in str(info.value)


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("patern = '*'\naction = 'allow'\n",
         "tools.permissions.bash.0.patern: unknown key (did you mean 'pattern'?)"),
        ("pattern = '*'\naction = 'allow'\nmatches = ['x']\n",
         "tools.permissions.bash.0.matches: unknown key (did you mean 'match'?)"),
        ("pattern = '*'\nverdict = 'allow'\n",
         "tools.permissions.bash.0.verdict: unknown key; expected one of: action, match, "
         "not_match, pattern"),
    ],
)


def test_typo_in_a_rule_gets_a_hint(
    bash_deck: Callable[[str], Deck], rule: str, message: str
) -> None:
    with pytest.raises(ConfigError) as info:
        bash_deck("[[tools.permissions.bash]]\n" + rule)
    assert message in str(info.value)


class BrokenHider:
    @hookimpl
    def tooldeck_tool_hidden(self, tool: ToolDef) -> bool:
        raise RuntimeError("cannot decide")


def test_a_failing_hide_hook_does_not_break_the_catalog(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    deck = make_deck("", {"t": tool_plugin("echo", "other"), "hider": BrokenHider()})
    assert {t.id for t in deck.tools()} == {"echo", "other"}
