"""Pre-execution verifiers (zeph-facts §7.9): rows derived from the facts, in a real deck.

Dangerous commands are only ever judged (``check_call``), never run.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.models import Decision, ToolCall, ToolDef, ToolOutput, Verdict
from tooldeck.plugins.verifiers.firewall import FirewallVerifier
from tooldeck.plugins.verifiers.injection import private_host
from tooldeck.runtime import CallContext

OPEN_SHELL = '[tools.shell]\nallowed_paths = ["/"]\n'
# tooldeck's own tools are exempt by default (their own gates judge them); these tests use
# them as stand-ins for any tool, so the exemption is lifted.
OPEN = OPEN_SHELL + "[tools.verifiers]\ncheck_own_tools = true\n"


def vote(deck: Deck, tool: str, params: dict[str, Any], caller: str | None = None
         ) -> Decision | None:
    """The verifier gate's own vote on a call (``None``: it let the call on)."""
    runtime = deck.runtime
    call = ToolCall(tool, params, caller_id=caller)
    for decision in runtime.hooks.check_call(call, runtime.tools[tool], runtime):
        if decision.gate == "verifiers":
            return decision
    return None


def blocked(deck: Deck, tool: str, params: dict[str, Any], **kw: Any) -> str | None:
    decision = vote(deck, tool, params, **kw)
    if decision is None:
        return None
    assert decision.verdict is Verdict.DENY
    return decision.reason


# --------------------------------------------------------------------------- destructive

@pytest.mark.parametrize(("command", "pattern"), [
    ("rm -rf /", "rm -rf /"),
    ("rm -rf ~", "rm -rf ~"),
    ("rm -r /", "rm -r /"),
    ("dd if=/dev/zero of=/dev/sda", "dd if="),
    ("mkfs.ext4 /dev/sda1", "mkfs"),
    ("fdisk /dev/sda", "fdisk"),
    ("shred -u secrets.db", "shred"),
    ("wipefs -a /dev/sda", "wipefs"),
    (":(){ :|:& };:", ":(){ :|:& };:"),
    (":(){:|:&};:", ":(){:|:&};:"),
    ("chmod -R 777 /", "chmod -r 777 /"),
    ("chown -R nobody /srv", "chown -r"),
])
async def test_destructive_patterns_block(shared_deck: Callable[..., Deck], command: str,
                                          pattern: str) -> None:
    deck = shared_deck(OPEN)
    assert blocked(deck, "bash", {"command": command}) == (
        f"[DestructiveCommandVerifier] destructive pattern '{pattern}' detected")


@pytest.mark.parametrize("command", [
    "RM -RF /", "rm  -rf   /", 'rm -rf "/"', "rm -rf '/'", "r\\m -rf /",
    "env A=1 B=2 rm -rf /", "exec rm -rf /", "bash -c 'rm -rf /'", "sh -c \"rm -rf ~\"",
    "zsh -c 'env X=1 exec rm -rf /'", "\uff52\uff4d -rf /", "rm -fr /",
])
async def test_destructive_spellings_are_normalised(shared_deck: Callable[..., Deck],
                                                   command: str) -> None:
    deck = shared_deck(OPEN)
    assert blocked(deck, "bash", {"command": command}) is not None


async def test_destructive_inside_the_project_is_allowed(make_deck: Callable[..., Deck],
                                                         project: Path) -> None:
    """allowed_paths defaults to the working directory: cleaning a build dir is ordinary."""
    deck = make_deck(OPEN)
    assert blocked(deck, "bash", {"command": f"rm -rf {project}/build"}) is None
    assert blocked(deck, "bash", {"command": "rm -rf ./build"}) is None


@pytest.mark.parametrize("command", [
    "rm -rf {p}/build /", "rm -rf {p}/build ~", "rm -rf {p}", "rm -rf {p}/../other",
    "mkfs.ext4 /dev/sda",
])
async def test_one_allowed_path_does_not_excuse_the_rest(
    make_deck: Callable[..., Deck], project: Path, command: str
) -> None:
    """Every named path must lie strictly below an allowed path (Zeph: any one will do)."""
    deck = make_deck(OPEN)
    assert blocked(deck, "bash", {"command": command.format(p=project)}) is not None


async def test_destructive_extra_patterns_and_other_tools(shared_deck: Callable[..., Deck]
                                                         ) -> None:
    deck = shared_deck(OPEN + '[tools.verifiers.destructive]\nextra_patterns = ["git clean"]\n'
                     'allowed_paths = []\n')
    assert blocked(deck, "bash", {"command": "git clean -fdx"}) is not None
    assert blocked(deck, "bash", {"command": "rm -rf /tmp/build"}) is not None
    assert blocked(deck, "write", {"path": "notes.txt", "content": "rm -rf /"}) is None


# --------------------------------------------------------------------------- injection

@pytest.mark.parametrize(("value", "regex"), [
    ("x' OR '1'='1", r"'\s*or\s*'1'\s*=\s*'1"),
    ("x' or 1=1 --", r"'\s*or\s+1\s*=\s*1"),
    ("a; DROP TABLE users", r";\s*drop\s+table"),
    ("1 UNION SELECT password", r"union\s+select"),
    ("x'; SELECT 1", r"'\s*;\s*select"),
    ("a; rm -rf x", r";\s*rm\s"),
    ("a | rm x", r"\|\s*rm\s"),
    ("a && rm x", r"&&\s*rm\s"),
    ("a; curl evil", r";\s*curl\s"),
    ("a | curl evil", r"\|\s*curl\s"),
    ("a && curl evil", r"&&\s*curl\s"),
    ("a; wget evil", r";\s*wget\s"),
    ("../../../etc/passwd", r"\.\./\.\./\.\./etc/passwd"),
    ("../../../etc/shadow", r"\.\./\.\./\.\./etc/shadow"),
    ("../../../windows/system32", r"\.\./\.\./\.\./windows/"),
    ("..\\..\\..\\boot.ini", r"(?:\.\.[/\\]){3}"),
])
async def test_injection_patterns_block(shared_deck: Callable[..., Deck], value: str,
                                        regex: str) -> None:
    deck = shared_deck(OPEN + "[tools.verifiers.firewall]\nenabled = false\n")
    assert blocked(deck, "read", {"path": value}) == (
        f"[InjectionPatternVerifier] injection pattern detected in field 'path': {regex}")


@pytest.mark.parametrize("field", ["content", "old_string", "new_string"])
async def test_free_text_fields_are_exempt(shared_deck: Callable[..., Deck], field: str) -> None:
    """Editing SQL or a shell script is ordinary work: free-text fields are not checked."""
    deck = shared_deck(OPEN)
    params = {"path": "q.sql", "old_string": "a", "new_string": "b", "content": "c",
              field: "SELECT 1 UNION SELECT 2; DROP TABLE t"}
    tool = "write" if field == "content" else "edit"
    params = ({"path": "q.sql", "content": params["content"]} if tool == "write" else
              {k: params[k] for k in ("path", "old_string", "new_string")})
    assert blocked(deck, tool, params) is None


async def test_shell_command_is_left_to_the_shell_gate(shared_deck: Callable[..., Deck]) -> None:
    deck = shared_deck(OPEN)
    assert blocked(deck, "bash", {"command": "make clean; rm -f out.txt && ls | wc -l"}) is None


async def test_private_url_warns_and_is_audited(
    make_deck: Callable[..., Deck], tmp_path: Path,
    audit_log: Callable[[], list[dict[str, Any]]],
) -> None:
    deck = make_deck(OPEN)
    assert vote(deck, "fetch", {"url": "http://169.254.169.254/latest/meta-data"},
                caller="s1") is None
    events = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    warn = [e for e in events if e["kind"] == "verifier.warn"]
    assert warn and warn[-1]["verifier"] == "injection" and warn[-1]["caller_id"] == "s1"
    assert "private or local address" in warn[-1]["message"]


@pytest.mark.parametrize(("url", "warns"), [
    ("http://localhost:8080/x", True), ("http://127.0.0.1/", True), ("http://[::1]:80/", True),
    ("http://10.1.2.3/", True), ("http://172.20.0.1/", True), ("http://192.168.1.1/", True),
    ("http://172.32.0.1/", False), ("https://example.com/", False),
    ("http://user@localhost/", True),
])
def test_private_hosts(url: str, warns: bool) -> None:
    assert private_host(url) is warns


async def test_allowlisted_url_does_not_warn(make_deck: Callable[..., Deck], tmp_path: Path
                                             ) -> None:
    deck = make_deck(OPEN + '[tools.verifiers.injection]\nallowlisted_urls = ["localhost:8080"]\n')
    vote(deck, "fetch", {"url": "http://localhost:8080/health"})
    vote(deck, "fetch", {"url": "http://localhost:9090/health"})
    warnings = [line for line in (tmp_path / "audit.jsonl").read_text().splitlines()
                if '"verifier.warn"' in line]
    assert len(warnings) == 1 and "9090" in warnings[0]


# --------------------------------------------------------------------------- url grounding

GROUNDING = OPEN + "[tools.verifiers.url_grounding]\nenabled = true\n"


async def test_grounding_is_off_by_default(shared_deck: Callable[..., Deck]) -> None:
    deck = shared_deck(OPEN)
    assert blocked(deck, "fetch", {"url": "https://example.com/"}) is None


async def test_no_user_url_blocks_every_fetch(shared_deck: Callable[..., Deck]) -> None:
    deck = shared_deck(GROUNDING)
    assert blocked(deck, "fetch", {"url": "https://example.com/"}) == (
        "[UrlGroundingVerifier] fetch rejected: URL 'https://example.com/' was not provided "
        "by the user")


@pytest.mark.parametrize(("given", "fetched", "ok"), [
    ("see https://example.com/docs/a.html.", "https://example.com/docs/a.html", True),
    ("https://Example.com/Docs", "https://example.com/docs", True),
    ("https://example.com", "https://example.com/docs", True),
    ("https://example.com/docs/a", "https://example.com/docs", True),
    ("https://example.com", "https://example.com.evil.net/", False),
    ("https://example.com/docs", "https://example.com/docs-private", False),
    ("https://example.com/docs", "https://evil.net/?u=https://example.com/docs", False),
    ("no urls here", "https://example.com/", False),
])
async def test_grounding_rows(make_deck: Callable[..., Deck], given: str, fetched: str,
                              ok: bool) -> None:
    deck = make_deck(GROUNDING)
    deck.note_user_message(given, caller_id="s1")
    assert (blocked(deck, "fetch", {"url": fetched}, caller="s1") is None) is ok
    assert (blocked(deck, "web_scrape", {"url": fetched, "select": "p"}, caller="s1")
            is None) is ok


async def test_grounding_is_per_caller_and_survives_reload(make_deck: Callable[..., Deck]
                                                          ) -> None:
    async def no_wait() -> None:
        return None

    deck = make_deck(GROUNDING, settle_wait=no_wait)
    deck.note_user_message("read https://example.com/a", caller_id="alice")
    assert blocked(deck, "fetch", {"url": "https://example.com/a"}, caller="bob") is not None
    path = Path.cwd() / "tooldeck.toml"
    path.write_text(path.read_text() + "\n# edited\n")
    assert await deck.reload()
    assert blocked(deck, "fetch", {"url": "https://example.com/a"}, caller="alice") is None


# --------------------------------------------------------------------------- firewall

@pytest.mark.parametrize(("tool", "params", "found"), [
    ("read", {"path": "../secret"}, "path traversal"),
    ("bash", {"command": "cat ../../x"}, "path traversal"),
    ("read", {"path": "a/../../x"}, "path traversal"),
    ("read", {"path": "..\\x"}, "path traversal"),
    ("read", {"path": "/etc/shadow"}, "sensitive path"),
    ("bash", {"command": "cat /etc/sudoers"}, "sensitive path"),
    ("bash", {"command": "cat ~/.ssh/id_rsa"}, "sensitive path"),
    ("read", {"path": "~/.aws/credentials"}, "sensitive path"),
    ("read", {"path": "deploy/server.pem"}, "sensitive path"),
    ("bash", {"command": "source .env"}, "sensitive path"),
    ("copy_path", {"source": "id_ed25519", "destination": "x"}, "sensitive path"),
    ("bash", {"command": "echo $AWS_SECRET_ACCESS_KEY"}, "secret environment"),
    ("bash", {"command": "echo ${aws_session_token}"}, "secret environment"),
    ("bash", {"command": "echo %AWS_KEY%"}, "secret environment"),
    ("bash", {"command": "echo $TOOLDECK_TOKEN"}, "secret environment"),
])
async def test_firewall_blocks(shared_deck: Callable[..., Deck], tool: str,
                               params: dict[str, Any], found: str) -> None:
    deck = shared_deck(OPEN + "[tools.verifiers.injection]\nenabled = false\n")
    reason = blocked(deck, tool, params)
    assert reason is not None and reason.startswith(f"[FirewallVerifier] {found}")


async def test_firewall_user_lists_and_exemptions(shared_deck: Callable[..., Deck]) -> None:
    deck = shared_deck(OPEN + '[tools.verifiers.firewall]\nblocked_paths = ["**/*.sqlite"]\n'
                     'blocked_env_vars = ["GITHUB_TOKEN"]\nexempt_tools = ["grep"]\n')
    assert blocked(deck, "read", {"path": "db/app.sqlite"}) is not None
    assert blocked(deck, "bash", {"command": "echo ${GITHUB_TOKEN}"}) is not None
    assert blocked(deck, "bash", {"command": "echo $GITHUB_TOKEN_X"}) is None
    assert blocked(deck, "grep", {"pattern": "x", "path": "../elsewhere"}) is None


@pytest.mark.parametrize(("tool", "params"), [
    ("bash", {"command": ".venv/bin/python -m pytest -q tests/"}),
    ("bash", {"command": "git status"}),
    ("bash", {"command": "git diff HEAD~1 -- src/app.py"}),
    ("bash", {"command": "grep -rn TODO src/ | head -20"}),
    ("read", {"path": "src/../README.md"}),
    ("read", {"path": "pyproject.toml"}),
    ("read", {"path": ".env.example"}),
    ("edit", {"path": "db.py", "old_string": "x", "new_string": "q = 'a' OR 1=1"}),
    ("fetch", {"url": "https://docs.python.org/3/"}),
])
async def test_default_config_leaves_ordinary_work_alone(
    make_deck: Callable[..., Deck], tool: str, params: dict[str, Any]
) -> None:
    deck = make_deck()
    assert vote(deck, tool, params) is None


class _Params(pydantic.BaseModel):
    path: str = ""
    command: str = ""


class _Foreign:
    """Stands in for tools no tooldeck gate understands (an MCP server's)."""

    name = "foreign"

    @hookimpl
    def tooldeck_register_tools(self, register: Any) -> None:
        for tool in ("mcp_fs__read_file", "mcp_box__shell"):
            register(ToolDef(id=tool, description="", params=_Params, executor="foreign"))

    @hookimpl
    def tooldeck_register_executors(self, register: Any) -> None:
        register(self)

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        return ToolOutput(tool_name=call.tool_id, summary="ran")


@pytest.mark.parametrize(("tool", "params", "verifier"), [
    ("mcp_fs__read_file", {"path": "~/.ssh/id_rsa"}, "FirewallVerifier"),
    ("mcp_fs__read_file", {"path": "x' OR '1'='1"}, "InjectionPatternVerifier"),
    ("mcp_fs__read_file", {"path": "/etc/\udcff"}, "verifier 'injection' failed"),
    ("mcp_box__shell", {"command": "sudo rm -rf / --no-preserve-root"},
     "DestructiveCommandVerifier"),
])
async def test_default_config_checks_foreign_tools(
    make_deck: Callable[..., Deck], tool: str, params: dict[str, Any], verifier: str
) -> None:
    """By default the verifiers watch the tools no dedicated gate judges, and fail closed."""
    deck = make_deck(extra_plugins={"foreign": _Foreign()})
    reason = blocked(deck, tool, params)
    assert reason is not None and verifier in reason
    assert blocked(deck, "bash", {"command": "git commit -m 'never rm -rf /'"}) is None


async def test_ordinary_commands_run_under_the_default_config(
    make_deck: Callable[..., Deck], project: Path
) -> None:
    (project / "README.md").write_text("hi\n")
    deck = make_deck()
    for call in (ToolCall("bash", {"command": "git status"}),
                 ToolCall("read", {"path": "README.md"}),
                 ToolCall("bash", {"command": f"{sys.executable} -c 'print(1)'"})):
        result = await deck.call(call)
        assert result.decision is None or result.decision.gate != "verifiers", result.text


# --------------------------------------------------------------------------- switches

@pytest.mark.parametrize("body", [
    OPEN + '[plugins]\ndisable = ["verifiers"]\n',
    OPEN_SHELL + "[tools.verifiers]\nenabled = false\ncheck_own_tools = true\n",
    OPEN + "[tools.verifiers.destructive]\nenabled = false\n",
    OPEN_SHELL,
])
async def test_switches(shared_deck: Callable[..., Deck], body: str) -> None:
    """Disabled, master switch off, this verifier off, or bash exempt (the default)."""
    deck = shared_deck(body)
    assert blocked(deck, "bash", {"command": "rm -rf /"}) is None


async def test_a_block_is_a_policy_blocked_tool_error(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(OPEN)
    result = await deck.call(ToolCall("read", {"path": "../x"}), confirm=True)
    assert result.error is not None and result.error.category.value == "policy_blocked"
    assert result.decision is not None and result.decision.rule == "firewall"
    assert result.error.message.startswith("[FirewallVerifier] path traversal")


async def test_a_failing_verifier_blocks(make_deck: Callable[..., Deck],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: Any) -> Any:
        raise RuntimeError("bug")

    monkeypatch.setattr(FirewallVerifier, "verify", boom)
    deck = make_deck(OPEN)
    assert blocked(deck, "read", {"path": "a.txt"}) == (
        "verifier 'firewall' failed: RuntimeError: bug")


def test_bad_extra_pattern_is_a_config_error(make_deck: Callable[..., Deck]) -> None:
    with pytest.raises(ConfigError, match=r"injection\.extra_patterns\[0\].*RE2"):
        make_deck('[tools.verifiers.injection]\nextra_patterns = ["(a)\\\\1"]\n')


@pytest.mark.parametrize(("old", "new", "tightens"), [
    ("[tools.verifiers]\nenabled = false\n", "", True),
    ("", "[tools.verifiers]\nenabled = false\n", False),
    ("", "[tools.verifiers.url_grounding]\nenabled = true\n", True),
    ("[tools.verifiers.url_grounding]\nenabled = true\n", "", False),
    ("", "[tools.verifiers.firewall]\nblocked_paths = [\"*.db\"]\n", True),
    ("[tools.verifiers.firewall]\nblocked_paths = [\"*.db\"]\n", "", False),
    ("", "[tools.verifiers.destructive]\nallowed_paths = [\"/\"]\n", False),
])
def test_reload_classification(old: str, new: str, tightens: bool) -> None:
    from tooldeck.generation import FileVersion
    from tooldeck.policy_change import classify

    path = Path("/etc/tooldeck.toml")
    change = classify({path: FileVersion(path, old.encode(), "config")},
                      {path: FileVersion(path, new.encode(), "config")})
    assert change.tightens is tightens


async def test_verifier_settings_are_hot_reloaded(make_deck: Callable[..., Deck],
                                                  project: Path) -> None:
    async def no_wait() -> None:
        return None

    deck = make_deck(OPEN, settle_wait=no_wait)
    assert blocked(deck, "read", {"path": "../x"}) is not None
    config = project / "tooldeck.toml"
    config.write_text(config.read_text() + "[tools.verifiers.firewall]\nenabled = false\n")
    assert await deck.reload()
    assert blocked(deck, "read", {"path": "../x"}) is None


async def test_every_tool_of_tooldeck_s_own_plugins_is_left_to_its_own_gates(
    make_deck: Callable[..., Deck]
) -> None:
    """Decided by who registered the tool, not by a list that new tools outgrow
    (set_working_directory '..' was blocked as traversal when it was not on the list)."""
    deck = make_deck(extra_plugins={"foreign": _Foreign()})
    runtime = deck.runtime
    own = [t for t in runtime.tools.values() if runtime.is_own_tool(t)]
    assert {"bash", "read", "set_working_directory", "memory_save"} <= {t.id for t in own}
    assert not runtime.is_own_tool(runtime.tools["mcp_fs__read_file"])
    assert blocked(deck, "set_working_directory", {"path": ".."}) is None
    assert blocked(deck, "mcp_fs__read_file", {"path": "../../../etc/passwd"}) is not None
