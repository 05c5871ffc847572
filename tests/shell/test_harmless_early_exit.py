"""The shell gate's early exit for harmless commands (``true``, ``echo done``).

:func:`tooldeck.shell_analysis.harmless.is_harmless` lets the gate skip its rule families;
these tests hold that no family can fire on what it accepts, that the gate's vote is the
same with and without the exit, that the operator's rules still apply, and that look-alikes
with a path, a redirection, a wrapper or a run-time value are not accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tooldeck.deck import Deck
from tooldeck.models import Verdict
from tooldeck.plugins.shell.gate import (
    ShellGate,
    class_finding,
    judge_analysis,
    link_findings,
    rule_links,
    rule_outside_read,
    rule_outside_work,
    rule_rollback_coverage,
    rule_sandbox_cd,
    rule_sandbox_dynamic,
    rule_sandbox_path,
)
from tooldeck.plugins.shell.policy import ShellPolicy
from tooldeck.shell_analysis import analyze
from tooldeck.shell_analysis.harmless import HARMLESS, is_harmless

# every family the early exit skips gets a policy under which it is live
POLICIES = {
    "default": "",
    "transactional": "[tools.shell]\ntransactional = true\nauto_rollback = true\n",
    "outside-reads": '[tools.shell]\noutside_reads = "ask"\n',
    "operator": ('[tools.shell]\nconfirm_patterns = ["false"]\n'
                 '[[tools.permissions.bash]]\npattern = "pwd*"\naction = "deny"\n'
                 '[[tools.permissions.bash]]\npattern = "*"\naction = "allow"\n'),
}


def _policy(deck: Deck) -> ShellPolicy:
    gate = next(p for p in deck.runtime.pm.get_plugins() if isinstance(p, ShellGate))
    return gate.policy


@pytest.fixture
def policies(make_deck: Callable[..., Deck]) -> Iterator[dict[str, ShellPolicy]]:
    """One shell policy per entry of :data:`POLICIES`, from real decks."""
    yield {name: _policy(make_deck(body)) for name, body in POLICIES.items()}


_PLAIN = "abcxyz019-_,+%^"
_SHAPED = _PLAIN + "./~:@="  # paths, hosts, values: the exit must refuse or prove them


def _commands(alphabet: str) -> st.SearchStrategy[str]:
    word = st.text(alphabet=alphabet, min_size=1, max_size=12)
    quoted = word.map(lambda w: f"'{w}'") | word.map(lambda w: f'"{w}"')
    segment = st.tuples(st.sampled_from(sorted(HARMLESS)), st.lists(word | quoted, max_size=4))
    text = segment.map(lambda s: " ".join([s[0], *s[1]]))
    rest = st.lists(st.tuples(st.sampled_from([" && ", "; ", " | ", " || "]), text), max_size=3)
    return st.tuples(text, rest).map(lambda c: c[0] + "".join(op + seg for op, seg in c[1]))


def _families(command: str, policy: ShellPolicy) -> dict[str, Any]:
    """What each skipped rule family says about a command (nothing, for a harmless one)."""
    analysis = analyze(command)
    links = link_findings(analysis, policy.link_sandbox, policy.exempt)
    return {
        "links": links,
        "class": class_finding(analysis, policy),
        "sandbox-path": rule_sandbox_path(analysis, policy),
        "link-deny": rule_links(links, Verdict.DENY, policy),
        "link-ask": rule_links(links, Verdict.ASK, policy),
        "rollback-coverage": rule_rollback_coverage(analysis, policy),
        "outside-read": rule_outside_read(analysis, policy),
        "outside-work": rule_outside_work(analysis, policy),
        "sandbox-cd": rule_sandbox_cd(analysis),
        "sandbox-dynamic": rule_sandbox_dynamic(analysis),
    }


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
@given(command=_commands(_PLAIN) | _commands(_SHAPED))
def test_no_family_fires_on_a_harmless_command(policies: dict[str, ShellPolicy],
                                               command: str) -> None:
    analysis = analyze(command)
    assume(is_harmless(analysis))
    for name, policy in policies.items():
        said = {k: v for k, v in _families(command, policy).items() if v}
        assert not said, (name, command, said)
        full = judge_analysis(command, analysis, policy, families=True)
        early = judge_analysis(command, analysis, policy, families=False)
        assert full == early, (name, command)


@settings(max_examples=300, deadline=None)
@given(command=_commands(_PLAIN))
def test_plain_harmless_commands_are_accepted(command: str) -> None:
    # the property above is not vacuous: words with no path, host or value shape pass
    assert is_harmless(analyze(command)), command


@pytest.mark.parametrize("command", [
    "echo x > out.txt", "echo x >> ~/.bashrc", "echo x > /dev/null", "true < input",
    "echo ~/.ssh/id_rsa", "echo src/a.py", "echo ..", "echo $(cat ~/.ssh/id_rsa)",
    "echo `id`", "echo $HOME", "echo $AWS_SECRET_ACCESS_KEY", "echo *", "echo a?",
    "env echo hi", "command echo hi", "builtin echo hi", "sudo echo hi", "nohup true",
    "true && rm -rf x", "echo x | sh", "echo x | tee f", "(echo hi)",
    "bash -c 'echo hi'", "x=1 echo hi", "x=1; true", "f() { true; }; f",
    "echo http://169.254.169.254/", "echo user@host", "echo a=b", "echo hi <<< x",
    "echo hi <<EOF\nx\nEOF", "eval true", "exec true", "true\x00", "cat", "ls",
    "echo /dev/tcp/1.2.3.4/80", "echo hi > /dev/tcp/1.2.3.4/80",
])
def test_look_alikes_are_not_harmless(command: str) -> None:
    assert not is_harmless(analyze(command)), command


async def test_operator_rules_still_apply(make_deck: Callable[..., Deck], helpers: Any,
                                          sandbox: Path) -> None:
    deck = make_deck(POLICIES["operator"])
    assert is_harmless(analyze("pwd")) and is_harmless(analyze("false"))
    denied = helpers.shell_vote(deck, "pwd")
    assert (denied.verdict.value, denied.rule) == ("deny", "segment-rule")
    asked = helpers.shell_vote(deck, "false")
    assert (asked.verdict.value, asked.rule) == ("ask", "confirm")
    assert helpers.shell_vote(deck, "echo quiet").verdict.value == "allow"
    blocked = make_deck('[tools.shell]\nblocked_commands = ["echo"]\n')
    assert helpers.shell_vote(blocked, "echo hi").verdict.value == "deny"


async def test_a_working_directory_outside_the_roots_still_denies(
        make_deck: Callable[..., Deck], tmp_path: Path) -> None:
    policy = _policy(make_deck("")).at(str(tmp_path))  # tmp_path holds the project: outside
    analysis = analyze("true")
    assert is_harmless(analysis)
    vote = judge_analysis("true", analysis, policy, families=False)
    assert (vote.verdict.value, vote.rule) == ("deny", "sandbox-cwd")
    assert vote == judge_analysis("true", analysis, policy, families=True)
