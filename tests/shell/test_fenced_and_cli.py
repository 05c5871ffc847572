"""Legacy fenced blocks, and the ``tooldeck run`` / ``tooldeck check bash`` commands."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tooldeck.plugins.shell.fenced import calls_from_text, extract_fenced_blocks


@pytest.mark.parametrize(("text", "blocks"), [
    ("```bash\nls\n```", ["ls"]),
    ("```bash  \n  echo a  \n```", ["echo a"]),
    ("```bashrc\nx\n```", []),
    ("```bash_x\nx\n```\n```bash-y\ny\n```", []),
    ("```bash\none\n```\nprose\n```bash\ntwo\n```", ["one", "two"]),
    ("```bash\nfirst\n```\n```bash\nunterminated", ["first"]),
    ("```python\nprint()\n```", []),
    ("```bash\n```", [""]),
])
def test_extract(text: str, blocks: list[str]) -> None:
    assert extract_fenced_blocks(text, "bash") == blocks


def test_calls_from_text() -> None:
    calls = calls_from_text("```bash\necho a\n```\n```bash\n```\n```bash\necho b\n```",
                            caller_id="model")
    assert [(c.tool_id, c.params["command"], c.caller_id) for c in calls] == [
        ("bash", "echo a", "model"), ("bash", "echo b", "model")]


def test_run_prints_output_and_returns_exit_code(run_cli: Any, write_config: Any,
                                                 capfd: pytest.CaptureFixture[str]) -> None:
    config = write_config("")
    assert run_cli("--", "sh", "-c", "echo out; echo err >&2; exit 3", config=config) == 3
    assert capfd.readouterr().out == "out\n[stderr] err\n"
    assert run_cli("--", "sh", "-c", "echo out; echo err >&2; exit 3", config=config,
                   raw=True) == 3
    out, err = capfd.readouterr()
    assert out == "out\n" and err == "err\n"


SECRET = "ghp_" + "a1B2c3D4" * 4 + "e5F6"


def test_run_prints_what_the_model_sees_and_raw_only_when_asked(
        run_cli: Any, write_config: Any, capfd: pytest.CaptureFixture[str]) -> None:
    config = write_config("")
    command = ("--", "sh", "-c", f"echo token={SECRET}; seq 1 400")
    assert run_cli(*command, config=config) == 0
    shown = capfd.readouterr().out
    assert SECRET not in shown and "[REDACTED" in shown
    assert run_cli(*command, config=config, raw=True) == 0
    assert capfd.readouterr().out == f"token={SECRET}\n" + "".join(f"{i}\n" for i in
                                                                    range(1, 401))


def test_run_json_never_inlines_the_raw_output(run_cli: Any, write_config: Any,
                                                capfd: pytest.CaptureFixture[str],
                                                tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    config = write_config("")
    command = ("--", "sh", "-c", f"echo token={SECRET}; exit 2")
    assert run_cli(*command, config=config, as_json=True) == 2
    report = capfd.readouterr().out
    assert SECRET not in report
    assert json.loads(report)["raw_file"] is None and json.loads(report)["exit_code"] == 2
    assert run_cli(*command, config=config, as_json=True, raw=True) == 2
    report = capfd.readouterr().out
    assert SECRET not in report
    raw_file = Path(json.loads(report)["raw_file"])
    assert raw_file.is_relative_to(tmp_path / "data")
    assert raw_file.stat().st_mode & 0o777 == 0o600
    assert raw_file.parent.stat().st_mode & 0o777 == 0o700
    assert json.loads(raw_file.read_text())["stdout"] == f"token={SECRET}\n"


def test_run_quotes_arguments(run_cli: Any, write_config: Any,
                              capfd: pytest.CaptureFixture[str]) -> None:
    # a quoted "$(" still hits the raw-text confirm pattern, hence --yes
    assert run_cli("echo", "a b", "$(id)", yes=True, config=write_config("")) == 0
    assert capfd.readouterr().out == "a b $(id)\n"


def test_run_policy_error_is_one(run_cli: Any, write_config: Any,
                                 capfd: pytest.CaptureFixture[str]) -> None:
    assert run_cli("--", "sudo", "id", yes=True, config=write_config("")) == 1
    assert "policy_blocked" in capfd.readouterr().err


def test_run_ask_needs_yes(run_cli: Any, write_config: Any, sandbox: Path,
                           capfd: pytest.CaptureFixture[str]) -> None:
    (sandbox / "junk.txt").write_text("x")
    config = write_config("")
    assert run_cli("rm", "junk.txt", config=config) == 1
    assert "confirmation_required" in capfd.readouterr().err
    assert run_cli("rm", "junk.txt", yes=True, config=config) == 0
    assert not (sandbox / "junk.txt").exists()


def test_run_config_error_is_two(run_cli: Any, write_config: Any) -> None:
    assert run_cli("true", config=write_config("[tools.shell]\nbogus = 1\n")) == 2


def test_run_without_command_is_two(run_cli: Any) -> None:
    assert run_cli("--") == 2


def test_check_config_error_is_two(sandbox: Path, write_config: Any, helpers: Any) -> None:
    import argparse

    from tooldeck.plugins.shell.cli import CheckBash

    args = argparse.Namespace(shell_command="ls", json=True,
                              config=str(write_config("[tools.shell]\ntimeout = -1\n")))
    assert CheckBash(helpers.extra).run(args) == 2


def test_check_text_output(sandbox: Path, write_config: Any, helpers: Any,
                           capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from tooldeck.plugins.shell.cli import CheckBash

    args = argparse.Namespace(shell_command="env sudo id", config=str(write_config("")))
    assert CheckBash(helpers.extra).run(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("deny: ") and "segments: env | sudo | id" in out


def test_check_disabled_tools(check_cli: Any, write_config: Any) -> None:
    data = check_cli("ls", write_config("[tools]\nenabled = false\n"))
    assert (data["verdict"], data["rule"]) == ("deny", "tools.enabled")


def test_subprocess_run(helpers: Any, write_config: Any, sandbox: Path) -> None:
    import shutil
    import sys

    tooldeck = shutil.which("tooldeck", path=str(Path(sys.executable).parent))
    assert tooldeck is not None
    proc = subprocess.run([tooldeck, "run", "--config", str(write_config("")), "--", "sh", "-c",
                           "echo hi; exit 4"], capture_output=True, text=True, cwd=sandbox,
                          timeout=60)
    assert (proc.returncode, proc.stdout) == (4, "hi\n")


@pytest.mark.parametrize("command", [
    "ls -la", "sudo id", "rm junk.txt", "$cmd x", "cat /etc/passwd", "echo $(date)",
    "git status && git push --force", "bash -c 'reboot'",
])
def test_check_judges_as_the_deck_does(check_cli: Any, write_config: Any, helpers: Any,
                                       command: str) -> None:
    import asyncio

    from tooldeck.deck import Deck
    from tooldeck.errors import ErrorCategory

    config = write_config(default=True)
    verdict = check_cli(command, config)["verdict"]

    async def call() -> Any:
        deck = Deck.from_config(config, extra_plugins=helpers.extra)
        try:
            return await helpers.run(deck, command)
        finally:
            await deck.aclose()

    result = asyncio.run(call())
    expected = {"deny": ErrorCategory.POLICY_BLOCKED,
                "ask": ErrorCategory.CONFIRMATION_REQUIRED}.get(verdict)
    if expected is None:
        assert result.error is None or result.error.category not in (
            ErrorCategory.POLICY_BLOCKED, ErrorCategory.CONFIRMATION_REQUIRED)
    else:
        assert result.error is not None and result.error.category is expected


def test_wired_into_the_tooldeck_parser(write_config: Any, helpers: Any, sandbox: Path,
                                        capfd: pytest.CaptureFixture[str]) -> None:
    import json

    from tooldeck.cli import build_parser
    from tooldeck.plugins.shell.cli import CheckBash, RunCommand

    parser = build_parser(commands={"run": RunCommand(helpers.extra)},
                          checks={"bash": CheckBash(helpers.extra)})
    config = str(write_config(""))
    args = parser.parse_args(["check", "bash", "env sudo id", "--config", config, "--json"])
    assert args.extension.run(args) == 0
    assert json.loads(capfd.readouterr().out)["segments"] == ["env", "sudo", "id"]
    args = parser.parse_args(["run", "--config", config, "--yes", "--", "sh", "-c",
                              "echo $0 ran; exit 5", "x"])
    assert args.extension.run(args) == 5
    assert capfd.readouterr().out == "x ran\n"
