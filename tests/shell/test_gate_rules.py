"""The shell gate's rule table beyond Zeph's rows: segment rules, sandbox details, autonomy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tooldeck.models import ToolCall

RULES = (
    '[[tools.permissions.bash]]\npattern = "git push*"\naction = "deny"\n'
    '[[tools.permissions.bash]]\npattern = "git *"\naction = "allow"\n'
    '[[tools.permissions.bash]]\npattern = "ls*"\naction = "allow"\n'
    '[[tools.permissions.bash]]\npattern = "make*"\naction = "ask"\n'
)


@pytest.mark.parametrize(("command", "verdict", "rule"), [
    ("git status", "allow", "clean"),
    ("git status && ls -la", "allow", "clean"),
    ("git status && git push", "deny", "segment-rule"),
    ("ls; git push --force", "deny", "segment-rule"),
    ("echo $(git push)", "deny", "segment-rule"),
    ("git status && make", "ask", "segment-rule"),
    ("git status && python x.py", "ask", "segment-rule"),
    ("env A=1 git status", "ask", "segment-rule"),
])
async def test_rules_apply_to_every_segment(make_deck: Any, helpers: Any, command: str,
                                            verdict: str, rule: str) -> None:
    vote = helpers.shell_vote(make_deck(RULES), command)
    assert (vote.verdict.value, vote.rule) == (verdict, rule), vote


async def test_an_empty_rule_list_asks_about_every_segment(make_deck: Any,
                                                           helpers: Any) -> None:
    # no rule allows anything: the segment rule asks, also for a harmless command
    vote = helpers.shell_vote(make_deck("[tools.permissions]\nbash = []\n"), "true")
    assert (vote.verdict.value, vote.rule) == ("ask", "segment-rule"), vote


async def test_whole_command_allow_does_not_allow_a_chain(make_deck: Any, helpers: Any) -> None:
    # the permissions gate matches "git *" on the whole chain (allow); the shell gate asks
    deck = make_deck(RULES)
    assert helpers.verdict_of(deck, "git log | python evil.py")[0] == "ask"
    assert helpers.verdict_of(deck, "git log && git push")[0] == "deny"


@pytest.mark.parametrize("command", [
    "ls > /dev/null 2>&1", "cat /dev/null", "head -c 8 /dev/urandom", "echo x >/dev/stderr",
])
async def test_device_paths_are_exempt(make_deck: Any, helpers: Any, command: str) -> None:
    assert helpers.shell_vote(make_deck(""), command).verdict.value == "allow"


async def test_symlink_out_of_the_sandbox_is_denied(make_deck: Any, helpers: Any,
                                                    sandbox: Path) -> None:
    (sandbox / "link").symlink_to("/etc")
    vote = helpers.shell_vote(make_deck(""), "cp a link/passwd")
    assert (vote.verdict.value, vote.rule) == ("deny", "sandbox-path")


async def test_symlink_to_a_secret_is_denied_even_to_a_reader(
        make_deck: Any, helpers: Any, sandbox: Path, tmp_path: Path) -> None:
    keys = tmp_path / "home" / ".ssh"
    keys.mkdir(parents=True)
    (keys / "id_ed25519").write_text("not a key\n")
    (sandbox / "keys").symlink_to(keys)
    vote = helpers.shell_vote(make_deck(""), "cat keys/id_ed25519")
    assert (vote.verdict.value, vote.rule) == ("deny", "sandbox-path")


async def test_home_is_outside(make_deck: Any, helpers: Any) -> None:
    assert helpers.shell_vote(make_deck(""), "echo x >> ~/.bashrc").rule == "sandbox-path"
    # issue 12 point 5: reading a non-secret file in the home directory is not denied
    assert helpers.shell_vote(make_deck(""), "cat ~/.bashrc").verdict.value == "allow"


async def test_extra_root_is_inside(make_deck: Any, helpers: Any, sandbox: Path,
                                    tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    deck = make_deck(f'[tools.shell]\nallowed_paths = ["{sandbox}", "{other}"]\n')
    assert helpers.shell_vote(deck, f"ls {other}").verdict.value == "allow"


async def test_rm_on_the_sandbox_root_is_denied(make_deck: Any, helpers: Any,
                                                sandbox: Path) -> None:
    for command in (f"rm -r {sandbox}", "rm -rf .", "rm -r ./"):
        vote = helpers.shell_vote(make_deck(""), command)
        assert (vote.verdict.value, vote.rule) == ("deny", "rm-protected-root"), command


async def test_full_autonomy_skips_confirm_but_not_opaque(make_deck: Any, helpers: Any) -> None:
    deck = make_deck('[agent]\nautonomy = "full"\n')
    assert helpers.verdict_of(deck, "rm build.log")[0] == "allow"
    assert helpers.verdict_of(deck, "$cmd x")[0] == "ask"


async def test_other_tools_are_not_judged(make_deck: Any) -> None:
    deck = make_deck("")
    runtime = deck.runtime
    from tooldeck.plugins.shell.gate import ShellGate

    gate = next(p for p in runtime.pm.get_plugins() if isinstance(p, ShellGate))
    call = ToolCall("bash_status", {"run_id": "x"})
    assert gate.tooldeck_check_call(call, runtime.tools["bash_status"], runtime) is None


async def test_decision_names_gate_rule_and_source(make_deck: Any, helpers: Any) -> None:
    deck = make_deck('[tools.shell]\nblocked_commands = ["terraform"]\n')
    vote = helpers.shell_vote(deck, "terraform destroy")
    assert vote.gate == "shell" and vote.rule == "blocklist"
    assert vote.source == str(deck.runtime.settings.document.path)
    assert vote.reason.startswith("shell rule 'blocklist': ")
    builtin = helpers.shell_vote(deck, "sudo id")
    assert builtin.source == "builtin"


async def test_extra_wrappers(make_deck: Any, helpers: Any) -> None:
    deck = make_deck('[tools.shell]\nextra_wrappers = ["with-env"]\n')
    assert helpers.shell_vote(deck, "with-env sudo id").rule == "blocklist"


async def test_tool_definition(make_deck: Any) -> None:
    tools = {t.id: t for t in make_deck("").tools()}
    bash = tools["bash"]
    assert bash.fenced_tag == "bash" and bash.input_param == "command"
    assert set(bash.json_schema()["properties"]) == {"command", "background", "timeout"}
    assert "bash_status" in tools


@pytest.mark.parametrize(("command", "rule"), [
    ("cd && ls", "sandbox-cd"), ("cd - && ls", "sandbox-cd"), ('cd "$D" && make', "sandbox-cd"),
    ("popd; make", "sandbox-cd"), ("cd; cat .bashrc", "sandbox-cd"),
    ("cat $X/etc/passwd", "sandbox-dynamic"), ('cat "$(pwd)"/x', "sandbox-dynamic"),
])
async def test_unverifiable_paths_ask(make_deck: Any, helpers: Any, command: str,
                                      rule: str) -> None:
    vote = helpers.shell_vote(make_deck(""), command)
    assert (vote.verdict.value, vote.rule) == ("ask", rule)


@pytest.mark.parametrize("command", ["cd src", "cd -- src", "echo $PATH", 'echo "${x}"'])
async def test_verifiable_directory_changes_pass(make_deck: Any, helpers: Any,
                                                 command: str) -> None:
    assert helpers.shell_vote(make_deck(""), command).verdict.value == "allow"


async def test_deobfuscated_view_feeds_confirm(make_deck: Any, helpers: Any) -> None:
    # zeph-test-cases 1.11 through the gate: the normaliser widens what confirm patterns see
    # (issue 12 point 4: patterns match the code, so the example runs the word, not echo)
    deck = make_deck('[tools.shell]\nconfirm_patterns = ["terraform"]\n')
    vote = helpers.shell_vote(deck, "$'\\x74erraform' apply")
    # the hidden-spelling class (issue 12) may ask before confirm does; either way it asks
    assert (vote.verdict.value, vote.rule) in (("ask", "confirm"), ("ask", "obfuscated"))
