"""``tooldeck filter`` and ``tooldeck filter verify``: in process, and as the installed command."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from tooldeck.errors import ConfigError
from tooldeck.filters.cli import FilterCommand

from .test_plugin import RULES, TOKEN, ShoutPlugin

FIXTURES = Path(__file__).parent / "fixtures"
CARGO = (FIXTURES / "cargo_test_long.txt").read_text()  # long enough to be cut
TOOLDECK = Path(sys.executable).parent / "tooldeck"
JSON_KEYS = {"output", "rule", "normalized_command", "confidence", "lines_in", "lines_out",
             "chars_in", "chars_out", "warnings"}


def run(monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str = "",
        command: FilterCommand | None = None) -> int:
    """Parse ``argv`` as the CLI does (global ``--json``/``--config``) and run the command."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    parser.add_argument("--config", default=argparse.SUPPRESS)
    command = command or FilterCommand({})
    command.add_arguments(parser)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    return command.run(parser.parse_args(argv))


@pytest.fixture(autouse=True)
def _no_config_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no ./tooldeck.toml
    monkeypatch.delenv("TOOLDECK_CONFIG", raising=False)


def test_prints_what_the_model_sees(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code = run(monkeypatch, ["--command", "cd x && cargo test 2>&1", "--exit-code", "101"], CARGO)
    out = capsys.readouterr().out.rstrip("\n").split("\n")
    assert code == 0
    assert "---- tests::adds_wrongly stdout ----" in out
    assert out[-1] == "[shell] `cd x && cargo test 2>&1` 97 lines -> 23 lines, 72.1% filtered"


def test_json_output(monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, ["--command", "cargo test", "--exit-code", "101", "--json"],
               CARGO) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == JSON_KEYS
    assert data["rule"] == ["cargo-test-noise", "cargo-test"]
    assert data["confidence"] == "fallback"
    assert (data["lines_in"], data["lines_out"]) == (97, 23)
    assert data["chars_in"] == len(CARGO) and data["chars_out"] == len(data["output"])
    assert data["warnings"] == []


@pytest.mark.parametrize("command", [
    "FOO=1 ./.venv/bin/python -m pytest -x",
    "cd app && timeout 60 uv run pytest -x 2>&1 | tee log",
])
def test_json_shows_the_rule_and_the_normalised_command(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(monkeypatch, ["--json", "--command", command], "1 passed in 0.01s\n") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["normalized_command"] == "pytest -x"
    assert data["rule"] == ["pytest-noise", "pytest"]


def test_json_when_no_rule_matches(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, ["--json", "--command", "echo hi"], "hi\n") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rule"] is None and data["confidence"] is None and data["output"] == "hi"


def test_secret_warnings_go_to_stderr(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, ["--command", "env"], f"GH={TOKEN}\n") == 0
    captured = capsys.readouterr()
    assert captured.out == "GH=[REDACTED:github-token]\n"
    assert "possible secret on line 1: GitHub token (github-token)" in captured.err
    assert TOKEN not in captured.err


def test_config_disables_filtering(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[tools.filters]\nenabled = false\n")
    assert run(monkeypatch, ["--config", str(config), "--json", "--command", "cargo test"],
               CARGO) == 0
    assert json.loads(capsys.readouterr().out)["rule"] is None


def test_an_invalid_table_is_a_config_error_naming_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[tools.filters.security]\nredact = false\n")
    with pytest.raises(ConfigError, match=r"c\.toml: tools\.filters\.security\.redact: "):
        run(monkeypatch, ["--config", str(config), "--command", "ls"])


def test_a_missing_config_file_is_an_error(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        run(monkeypatch, ["--config", str(tmp_path / "nope.toml"), "--command", "ls"])


def test_command_is_required(monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, []) == 2
    assert "--command is required" in capsys.readouterr().err


def test_a_plugin_strategy_in_the_user_file_opens_the_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "filters.toml").write_text(RULES.format(suffix="!"))
    config = tmp_path / "tooldeck.toml"
    config.write_text("[tools.filters]\nfilters_path = 'filters.toml'\n")
    command = FilterCommand({"acme": ShoutPlugin()})
    pad = " " + "-" * 80  # long enough to be cut
    raw = f"noise{pad}\n" * 5 + "".join(f"hi {n}{pad}\n" for n in range(25))
    assert run(monkeypatch, ["--config", str(config), "--command", "echo hi"], raw, command) == 0
    captured = capsys.readouterr()
    shouted = "".join(f"HI {n}{pad}\n" for n in range(24)) + f"HI 24{pad}!\n[shell]"
    assert captured.out.startswith(shouted)
    assert captured.err == "tooldeck filter: rule loud-echo; command as matched: 'echo hi'\n"


def test_verify_passes_on_the_builtin_rules(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, ["verify"]) == 0
    assert capsys.readouterr().out.endswith("tests: 0 failed, 0 rule(s) not loaded\n")


FAILING_RULES = """
[[rules]]
name = "quiet-make"
match = { prefix = "make" }
strategy = { type = "strip_noise", patterns = ['^make\\['] }

[[rules.tests]]
input = "make[1]: Entering directory\\nbuilt"
expected = "built"

[[rules]]
name = "broken"
match = { prefix = "x" }
strategy = { type = "no_such_type" }
"""


def test_verify_reports_failures_and_broken_user_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "filters.toml").write_text(FAILING_RULES)
    config = tmp_path / "tooldeck.toml"
    config.write_text(f"[tools.filters]\nfilters_path = '{tmp_path}'\n")
    assert run(monkeypatch, ["--config", str(config), "verify", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    (failure,) = data["failures"]
    assert failure["rule"] == "quiet-make" and failure["test"] == 1
    assert failure["actual"] == 'built\n(1 noise lines removed, like "make[1]: Entering directory")'
    (warning,) = data["warnings"]
    assert "skipping rule 'broken': unknown strategy type 'no_such_type'" in warning
    builtin_text = resources.files("tooldeck.filters").joinpath("builtin_rules.toml").read_text()
    builtin = len(re.findall(r"^\[\[rules\]\]$", builtin_text, re.MULTILINE))
    assert data["rules"] == builtin + 1
    assert data["origins"] == {"builtin": builtin, str(tmp_path / "filters.toml"): 1}


def test_the_installed_command_filters_a_real_git_status(tmp_path: Path) -> None:
    git = shutil.which("git")
    assert git is not None
    repo = tmp_path / "repo"
    subprocess.run([git, "init", "-q", str(repo)], check=True)
    for n in range(30):
        (repo / f"f{n}.txt").write_text("x")
    status = subprocess.run([git, "status"], cwd=repo, capture_output=True, text=True,
                            check=True).stdout
    proc = subprocess.run([str(TOOLDECK), "filter", "--command", "git status", "--json"],
                          input=status, capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["rule"] == ["git-status"]
    assert data["normalized_command"] == "git status"
    assert "Untracked files:" in data["output"]
    assert all(f"\tf{n}.txt" in data["output"].split("\n") for n in range(30))


def test_the_installed_verify(tmp_path: Path) -> None:
    proc = subprocess.run([str(TOOLDECK), "filter", "verify"], capture_output=True, text=True,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 failed" in proc.stdout


# runs the installed script as its own __main__, then lists every loaded module on stderr
# (``-X importtime`` does not see modules loaded by ``importlib.import_module``)
_LIST_MODULES = """
import runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
finally:
    print("loaded:", *sorted(sys.modules), file=sys.stderr)
"""


def run_installed(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run the installed ``tooldeck`` with no user config; also return the modules it loaded."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "xdg")}  # no user config file
    proc = subprocess.run(
        [sys.executable, "-c", _LIST_MODULES, str(TOOLDECK), *args],
        input="On branch main\nnothing to commit, working tree clean\n",
        capture_output=True, text=True, cwd=tmp_path, env=env,
    )  # fmt: skip
    last = proc.stderr.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("loaded: "), proc.stderr
    return proc, set(last.split()[1:])


@pytest.mark.parametrize("config", [None, "[tools]\n", "[tools.filters]\n[tools.shell]\n"])
def test_the_one_shot_filter_does_not_import_pydantic(tmp_path: Path, config: str | None) -> None:
    args = ["filter", "--command", "git status"]
    if config is not None:
        (tmp_path / "c.toml").write_text(config)
        args = ["--config", str(tmp_path / "c.toml"), *args]
    proc, modules = run_installed(tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "On branch main\nnothing to commit, working tree clean\n"
    assert "tooldeck.filters.strip_noise" in modules  # the rule was built
    assert not {name for name in modules if name.split(".")[0] == "pydantic"}


def test_a_non_empty_filters_table_is_still_validated(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text("[tools.filters]\nenabeld = false\n")
    proc, modules = run_installed(tmp_path, "--config", str(tmp_path / "c.toml"),
                                  "filter", "--command", "git status")  # fmt: skip
    assert proc.returncode == 2
    assert "c.toml: tools.filters.enabeld: " in proc.stderr
    assert "pydantic" in modules


def test_a_valid_filters_table_is_applied(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text("[tools.filters]\nenabled = false\n")
    proc, modules = run_installed(tmp_path, "--json", "--config", str(tmp_path / "c.toml"),
                                  "filter", "--command", "git status")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["rule"] is None
    assert "pydantic" in modules  # the table went through FilterSettings


# ---- --noise: strip_noise on stdin as it arrives ---------------------------------------------

NOISY_LINES = [
    "   Compiling crate{n} v0.1.{n}",
    "\x1b[32m   Compiling\x1b[0m colored{n} v1.0.0",
    "Downloading {n}%\rDownloading 100%",
    "warning: unused variable `x{n}`",
    "  --> src/lib{n}.rs:{n}:5",
    "",
    "",
    "step {n} done",
]


def _noisy_log(lines: int) -> str:
    return "\n".join(NOISY_LINES[n % len(NOISY_LINES)].format(n=n) for n in range(lines)) + "\n"


def test_noise_streams_what_strip_noise_gives(tmp_path: Path) -> None:
    from tooldeck.filters.registry import default_strategy_registry

    raw = _noisy_log(40_000)  # about 1.2 MB: more than one window
    patterns = [r"^\s*Compiling ", r"^Downloading", r"^\s*-->"]
    expected = default_strategy_registry().build(
        {"type": "strip_noise", "patterns": patterns}).apply(raw).output
    argv = [str(TOOLDECK), "filter"] + [arg for p in patterns for arg in ("--noise", p)]
    proc = subprocess.run(argv, input=raw.encode(), capture_output=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode() == expected + "\n"
    assert expected.endswith("noise lines removed, like \"Compiling crate0 v0.1.0\")")


def test_noise_writes_before_stdin_ends(tmp_path: Path) -> None:
    # the first kept lines come out while stdin is still open: the output is streamed
    import threading

    proc = subprocess.Popen([str(TOOLDECK), "filter", "--noise", "^noise"], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    stdin, read_first = proc.stdin, threading.Event()

    def feed() -> None:  # (in a thread: the kept lines fill stdout's pipe while it writes)
        stdin.write(("noise line\nkept line\n" * 200_000).encode())  # 3.8 MB
        stdin.flush()
        read_first.wait(timeout=300)
        stdin.write(b"last line")
        stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        first = proc.stdout.read1(100)  # blocks until the first output arrives
        ended_before = writer.is_alive()
        read_first.set()
        rest = proc.stdout.read()
    finally:
        read_first.set()
        writer.join(timeout=300)
        proc.wait(timeout=300)
    assert ended_before  # stdin was still open when the first lines came
    assert first.startswith(b"kept line\nkept line\n")
    assert proc.returncode == 0
    assert (first + rest).endswith(b'kept line\nlast line\n(200000 noise lines removed,'
                                   b' like "noise line")\n')


def test_noise_refuses_json_and_bad_patterns(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, ["--noise", "x", "--json"], "a\n") == 2
    assert "--json is not available" in capsys.readouterr().err
    assert run(monkeypatch, ["--noise", "("], "a\n") == 2
    assert "cannot be compiled by RE2" in capsys.readouterr().err
