"""The ``tooldeck`` command, run as a real subprocess of the installed console script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tooldeck import __version__
from tooldeck.trust import trust

TOOLDECK = shutil.which("tooldeck", path=str(Path(sys.executable).parent)) or "tooldeck"

ECHO_PLUGIN = '''
import pydantic
from tooldeck import hookimpl
from tooldeck.models import ToolDef, ToolOutput


class Params(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    text: str


class Echo:
    name = "echo"

    async def execute(self, call, ctx):
        return ToolOutput("echo", ctx.params.text)


@hookimpl
def tooldeck_register_executors(register):
    register(Echo())


@hookimpl
def tooldeck_register_tools(register):
    register(ToolDef(id="echo", description="Echo the text back.", params=Params,
                     executor="echo", input_param="text", capabilities={"read"}))
'''


def run(*args: str, cwd: Path, env: dict[str, str] | None = None,
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TOOLDECK, *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, input=stdin, timeout=60)


@pytest.fixture
def echo_env(tmp_path: Path) -> dict[str, str]:
    """An environment where a third-party-like module can be loaded through a test entry point.

    Entry points need an installed distribution, so the echo tool comes in through a
    ``.dist-info`` folder on ``PYTHONPATH`` — a real (if minimal) installed distribution.
    """
    site = tmp_path / "site"
    dist = site / "tooldeck_echo-1.0.dist-info"
    dist.mkdir(parents=True)
    (site / "tooldeck_echo.py").write_text(ECHO_PLUGIN)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tooldeck-echo\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[tooldeck]\necho = tooldeck_echo\n")
    return {"PYTHONPATH": str(site)}


def write_config(directory: Path, text: str) -> Path:
    """A ./tooldeck.toml the user trusts (``tooldeck config trust``), so all of it applies."""
    path = directory / "tooldeck.toml"
    path.write_text(f'[tools.audit]\npath = "{directory / "audit.jsonl"}"\n{text}')
    trust(path)
    return path


def test_version(in_tmp: Path) -> None:
    proc = run("--version", cwd=in_tmp)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"tooldeck {__version__}"


def test_plugins_json_without_any_config(in_tmp: Path) -> None:
    proc = run("plugins", "--json", cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    plugins = {p["name"]: p for p in json.loads(proc.stdout)}
    assert plugins["core"]["essential"] is True
    for name in ("audit", "permissions"):
        assert plugins[name]["state"] == "enabled"
        assert plugins[name]["dist"] == "tooldeck"
    assert "tooldeck_register_gates" in plugins["permissions"]["hooks"]


def test_third_party_plugin_is_listed_but_not_enabled(in_tmp: Path,
                                                      echo_env: dict[str, str]) -> None:
    plugins = {p["name"]: p for p in json.loads(
        run("plugins", "--json", cwd=in_tmp, env=echo_env).stdout)}
    assert plugins["echo"]["state"] == "disabled"
    assert "enable" in plugins["echo"]["why"]
    proc = run("call", "echo", "--params", '{"text": "hi"}', cwd=in_tmp, env=echo_env)
    assert proc.returncode == 1
    assert "category: tool_not_found" in proc.stdout


def test_tools_openai_and_anthropic_shapes(in_tmp: Path, echo_env: dict[str, str]) -> None:
    write_config(in_tmp, '[plugins]\nenable = ["echo"]\n'
                         'disable = ["files", "web", "shell", "overflow", "memory", "scheduler",'
                         ' "diagnostics"]\n')
    openai = json.loads(run("tools", "--format", "openai", cwd=in_tmp, env=echo_env).stdout)
    assert openai == [{"type": "function", "function": {
        "name": "echo", "description": "Echo the text back.",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}},
                       "required": ["text"], "additionalProperties": False}}}]
    anthropic = json.loads(run("tools", "--format", "anthropic", cwd=in_tmp, env=echo_env).stdout)
    assert anthropic[0]["name"] == "echo"
    assert anthropic[0]["input_schema"] == openai[0]["function"]["parameters"]
    prompt = run("tools", "--format", "prompt", cwd=in_tmp, env=echo_env).stdout
    assert prompt.startswith("<tools>\n## echo\nEcho the text back.\n")
    assert '  - text:  (string, required)' in prompt
    assert prompt.rstrip().endswith("</tools>")


def test_call_allowed_denied_and_asked(in_tmp: Path, echo_env: dict[str, str]) -> None:
    write_config(in_tmp, '[plugins]\nenable = ["echo"]\n'
                 '[[tools.permissions.echo]]\npattern = "*secret*"\naction = "deny"\n'
                 '[[tools.permissions.echo]]\npattern = "hello*"\naction = "allow"\n'
                 '[[tools.permissions.echo]]\npattern = "*"\naction = "ask"\n')
    ok = run("call", "echo", "--params", '{"text": "hello world"}', cwd=in_tmp, env=echo_env)
    assert (ok.returncode, ok.stdout) == (0, "hello world\n")

    denied = run("call", "echo", "--params", '{"text": "the secret"}', "--json",
                 cwd=in_tmp, env=echo_env)
    assert denied.returncode == 1
    body = json.loads(denied.stdout)
    assert body["category"] == "policy_blocked"
    assert body["decision"]["pattern"] == "*secret*"
    assert body["decision"]["source"].endswith("tooldeck.toml")

    asked = run("call", "echo", "--params", '{"text": "other"}', cwd=in_tmp, env=echo_env)
    assert asked.returncode == 1
    assert "category: confirmation_required" in asked.stdout

    yes = run("call", "echo", "--params", '{"text": "other"}', "--yes",
              cwd=in_tmp, env=echo_env)
    assert (yes.returncode, yes.stdout) == (0, "other\n")
    denied_yes = run("call", "echo", "--params", '{"text": "secret"}', "--yes",
                     cwd=in_tmp, env=echo_env)
    assert denied_yes.returncode == 1, "--yes never confirms a deny"


def test_call_bad_params_json_is_a_usage_error(in_tmp: Path) -> None:
    proc = run("call", "echo", "--params", "{not json", cwd=in_tmp)
    assert proc.returncode == 2
    assert "--params is not valid JSON" in proc.stderr


@pytest.mark.parametrize(("toml", "key"), [
    ("[tools.shel]\nx = 1\n", "tools.shel"),
    ("[tools.audit]\nenabled = \"x\"\n", "tools.audit.enabled"),
    ("[agent]\nmax_tool_iterations = \"x\"\n", "agent.max_tool_iterations"),
    ("[tools.sandbox]\nenabled = true\n", "tools.sandbox"),
    ("[tools.utility]\ngain_weight = -1\n", "tools.utility.gain_weight"),
    ("[agent.tool_filter]\ntop_k = -1\n", "agent.tool_filter.top_k"),
])
def test_config_typo_exits_2_naming_file_and_key(in_tmp: Path, toml: str, key: str) -> None:
    path = in_tmp / "bad.toml"
    path.write_text(toml)
    for args in (["--config", str(path), "tools"], ["config", "check", str(path)]):
        proc = run(*args, cwd=in_tmp)
        assert proc.returncode == 2
        assert f"{path}: {key}:" in proc.stderr


def test_config_check_ok_and_show_sources(in_tmp: Path) -> None:
    write_config(in_tmp, "[agent]\nmax_tool_iterations = 4\n")
    check = run("config", "check", cwd=in_tmp)
    assert check.returncode == 0 and "ok" in check.stdout
    show = json.loads(run("config", "show", "--json", cwd=in_tmp,
                          env={"TOOLDECK_AGENT_AUTONOMY": "readonly"}).stdout)
    agent = show["sections"]["agent"]
    assert agent["max_tool_iterations"] == {"value": 4,
                                            "source": str(in_tmp / "tooldeck.toml")}
    assert agent["autonomy"] == {"value": "readonly", "source": "$TOOLDECK_AGENT_AUTONOMY"}
    assert show["sections"]["tools.audit"]["enabled"]["source"] == "default"


def test_audit_tail(in_tmp: Path, echo_env: dict[str, str]) -> None:
    write_config(in_tmp, '[plugins]\nenable = ["echo"]\n'
                 '[[tools.permissions.echo]]\npattern = "*"\naction = "allow"\n')
    for word in ("one", "two", "three"):
        run("call", "echo", "--params", json.dumps({"text": word}), cwd=in_tmp, env=echo_env)
    records = json.loads(run("audit", "tail", "-n", "2", "--json", cwd=in_tmp,
                             env=echo_env).stdout)
    assert [r["command"] for r in records] == ["two", "three"]
    assert all(r["caller_id"] == "cli" for r in records)
    text = run("audit", "tail", cwd=in_tmp, env=echo_env).stdout
    assert text.count("success") == 3


@pytest.mark.parametrize(("answer", "code", "expected"), [
    ("y\n", 0, "other\n"), ("n\n", 1, "category: cancelled"), ("\n", 1, "category: cancelled"),
])
def test_call_asks_on_a_terminal(in_tmp: Path, echo_env: dict[str, str], answer: str,
                                 code: int, expected: str) -> None:
    import pty

    write_config(in_tmp, '[plugins]\nenable = ["echo"]\n'
                 '[[tools.permissions.echo]]\npattern = "*"\naction = "ask"\n')
    leader, follower = pty.openpty()
    try:
        os.write(leader, answer.encode())
        proc = subprocess.run([TOOLDECK, "call", "echo", "--params", '{"text": "other"}'],
                              cwd=in_tmp, stdin=follower, capture_output=True, text=True,
                              env={**os.environ, **echo_env}, timeout=60)
    finally:
        os.close(leader)
        os.close(follower)
    assert proc.returncode == code, proc.stderr
    assert expected in proc.stdout
    assert "echo rule '*' → ask" in proc.stderr, "the question says why it is asked"


def test_a_reader_that_goes_away_ends_the_command_quietly(in_tmp: Path) -> None:
    # `tooldeck demo | head -1`: the reader closes the pipe after one line, while the demo
    # still has sections to print
    proc = subprocess.Popen([TOOLDECK, "demo"], cwd=in_tmp, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr


def test_call_json_never_inlines_the_unredacted_output(in_tmp: Path) -> None:
    secret = "ghp_" + "Zy9Xw8Vu" * 4 + "t7S6"
    env = {"XDG_DATA_HOME": str(in_tmp.parent / "data")}
    params = json.dumps({"command": f"echo token={secret}"})
    plain = run("call", "bash", "--params", params, "--json", cwd=in_tmp, env=env)
    assert plain.returncode == 0, plain.stderr
    assert secret not in plain.stdout and "[REDACTED" in json.loads(plain.stdout)["text"]
    kept = run("call", "bash", "--params", params, "--json", "--raw", cwd=in_tmp, env=env)
    assert secret not in kept.stdout
    raw_file = Path(json.loads(kept.stdout)["raw_file"])
    assert raw_file.stat().st_mode & 0o777 == 0o600
    assert secret in raw_file.read_text()


def broken_plugin_env(tmp_path: Path, name: str, gate: bool) -> dict[str, str]:
    """A distribution whose plugin module fails to import, installed through PYTHONPATH."""
    site = tmp_path / f"site-{name}"
    dist = site / f"tooldeck_{name}-1.0.dist-info"
    dist.mkdir(parents=True)
    (site / f"tooldeck_{name}.py").write_text("raise RuntimeError('half-installed')\n")
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: tooldeck-{name}\n"
                                   "Version: 1.0\n")
    groups = f"[tooldeck]\n{name} = tooldeck_{name}\n"
    if gate:
        groups += f"[tooldeck.gates]\n{name} = tooldeck_{name}\n"
    (dist / "entry_points.txt").write_text(groups)
    return {"PYTHONPATH": str(site)}


def test_a_broken_gate_refuses_calls_but_not_diagnosis(in_tmp: Path) -> None:
    env = broken_plugin_env(in_tmp.parent, "badgate", gate=True)
    write_config(in_tmp, '[plugins]\nenable = ["badgate"]\n')
    listing = run("plugins", "--json", cwd=in_tmp, env=env)
    assert listing.returncode == 0, listing.stderr
    states = {p["name"]: (p["state"], p["why"]) for p in json.loads(listing.stdout)}
    assert states["badgate"][0] == "broken" and "half-installed" in states["badgate"][1]
    assert states["shell"][0] == "enabled" and "cannot run calls" in listing.stderr
    call = run("call", "read", "--params", '{"path": "tooldeck.toml"}', cwd=in_tmp, env=env)
    assert call.returncode == 2 and "badgate" in call.stderr
    check = run("config", "check", cwd=in_tmp, env=env)
    assert check.returncode == 2
    assert "plugin 'badgate' (tooldeck-badgate) is broken" in check.stderr


def test_a_broken_ordinary_plugin_is_named_once(in_tmp: Path) -> None:
    env = broken_plugin_env(in_tmp.parent, "badtool", gate=False)
    write_config(in_tmp, '[plugins]\nenable = ["badtool"]\n')
    call = run("call", "read", "--params", '{"path": "tooldeck.toml"}', "--yes", cwd=in_tmp,
               env=env)
    assert call.returncode == 0, call.stdout
    assert call.stderr.count("badtool") == 1 and "is broken" in call.stderr
