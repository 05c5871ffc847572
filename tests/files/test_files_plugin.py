"""The ``files`` plugin through a real deck: tools, settings, permissions input, check path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall

TOOLDECK = shutil.which("tooldeck", path=str(Path(sys.executable).parent)) or "tooldeck"
ALL_TOOLS = ("read", "write", "edit", "find_path", "grep", "list_directory",
             "create_directory", "delete_path", "move_path", "copy_path")


def make_deck(root: Path, extra: str = "", *, allow: tuple[str, ...] = ALL_TOOLS) -> Deck:
    rules = "".join(f'[[tools.permissions.{t}]]\npattern = "*"\naction = "allow"\n'
                    for t in allow)
    doc = parse_document(
        f'[tools.file]\nallowed_paths = ["{root}"]\n{extra}\n'
        f'[tools.audit]\npath = "{root.parent / "audit.jsonl"}"\n{rules}', None, "test")
    return Deck.from_config(doc)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    (sandbox / "notes.txt").write_text("alpha\nbeta\ngamma\n")
    return sandbox


def call(deck: Deck, tool: str, **params: object) -> tuple[bool, str]:
    result = deck.call_sync(ToolCall(tool, params))
    return result.ok, result.text


def test_all_ten_tools_are_registered_with_the_documented_capabilities(root: Path) -> None:
    deck = make_deck(root)
    tools = {t.id: t for t in deck.tools()}
    assert set(ALL_TOOLS) <= set(tools)
    assert tools["read"].read_only and tools["grep"].read_only
    assert not tools["write"].read_only and tools["delete_path"].capabilities == {"write"}
    assert tools["copy_path"].input_param == "destination"
    deck.close()


def test_a_session_of_file_work(root: Path) -> None:
    deck = make_deck(root)
    assert call(deck, "read", path="notes.txt") == (True, "   1\talpha\n   2\tbeta\n   3\tgamma")
    assert call(deck, "read", path="notes.txt", offset=1, limit=1) == (True, "   2\tbeta")
    ok, text = call(deck, "write", path="src/app.py", content="print('hi')\n")
    assert ok and text == "Wrote 12 bytes to src/app.py"
    result = deck.call_sync(ToolCall("edit", {"path": "src/app.py", "old_string": "hi",
                                              "new_string": "hello"}))
    assert result.ok and result.output is not None and result.output.diff
    assert "+print('hello')" in result.output.diff
    assert call(deck, "grep", pattern="hello", path=".")[1] == \
        f"{root / 'src/app.py'}:1: print('hello')"
    assert call(deck, "find_path", pattern="**/*.py")[1].endswith("src/app.py")
    assert call(deck, "list_directory", path=".")[1] == "[dir]  src\n[file] notes.txt"
    assert call(deck, "copy_path", source="notes.txt", destination="copy.txt") == (
        True, "Copied: notes.txt -> copy.txt")
    assert call(deck, "move_path", source="copy.txt", destination="moved.txt") == (
        True, "Moved: copy.txt -> moved.txt")
    assert call(deck, "create_directory", path="a/b") == (True, "Created directory: a/b")
    assert call(deck, "delete_path", path="a", recursive=True) == (True, "Deleted: a")
    assert sorted(p.name for p in root.iterdir()) == ["moved.txt", "notes.txt", "src"]
    deck.close()


def test_sandbox_violations_are_policy_blocked_and_audited(root: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("top secret")
    (root / "link").symlink_to(tmp_path / "secret.txt")
    deck = make_deck(root)
    for path in ("../secret.txt", str(tmp_path / "secret.txt"), "link"):
        ok, text = call(deck, "read", path=path)
        assert not ok and "category: policy_blocked" in text, path
        assert "top secret" not in text
    deck.close()
    records = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [r["result"]["type"] for r in records] == ["blocked"] * 3


def test_read_deny_globs_from_settings(root: Path) -> None:
    (root / ".env").write_text("TOKEN=abc")
    (root / ".env.example").write_text("TOKEN=")
    deck = make_deck(root, 'deny_read = ["**/.env*"]\nallow_read = ["**/.env.example"]')
    assert "policy_blocked" in call(deck, "read", path=".env")[1]
    assert call(deck, "read", path=".env.example") == (True, "   1\tTOKEN=")
    deck.close()


def test_bad_parameters_are_refused_before_anything_runs(root: Path) -> None:
    deck = make_deck(root)
    assert "invalid_parameters" in call(deck, "read", path="notes.txt", offset=-1)[1]
    assert "invalid_parameters" in call(deck, "read", path="notes.txt", mode="rb")[1]
    assert "type_mismatch" in call(deck, "read", path=3)[1]
    assert "invalid_parameters" in call(deck, "read", path="a\x00b")[1]
    deck.close()


def test_invalid_glob_in_config_is_a_config_error(root: Path) -> None:
    from tooldeck.errors import ConfigError

    with pytest.raises(ConfigError, match="deny_read"):
        make_deck(root, 'deny_read = ["[oops"]')


def test_move_is_judged_by_its_destination(root: Path) -> None:
    rules = ('[[tools.permissions.move_path]]\npattern = "*archive*"\naction = "allow"\n'
             '[[tools.permissions.move_path]]\npattern = "*"\naction = "deny"\n')
    deck = make_deck(root, allow=())
    doc = parse_document(deck.runtime.settings.document.text + rules, None, "test")
    deck.close()
    deck = Deck.from_config(doc)
    assert call(deck, "move_path", source="notes.txt", destination="archive/notes.txt")[0]
    ok, text = call(deck, "move_path", source="archive/notes.txt", destination="x.txt")
    assert not ok and "policy_blocked" in text
    deck.close()


def test_relative_paths_follow_the_first_root_when_cwd_is_outside(root: Path,
                                                                  in_tmp: Path) -> None:
    deck = make_deck(root)
    assert call(deck, "read", path="notes.txt")[0], "cwd is outside: joined to the root"
    deck.close()


def test_default_config_lets_reads_run_and_asks_before_deleting(in_tmp: Path) -> None:
    (in_tmp / "f.txt").write_text("x\n")
    (in_tmp / ".env").write_text("API_KEY=abc\n")
    (in_tmp / "alias").symlink_to(in_tmp / ".env")
    (in_tmp / ".env.example").write_text("API_KEY=\n")
    deck = Deck.from_config(None, environ={"TOOLDECK_TOOLS_AUDIT_ENABLED": "false"})
    assert call(deck, "read", path="f.txt") == (True, "   1\tx")
    for secret in (".env", "alias"):
        ok, text = call(deck, "read", path=secret)
        assert not ok and "read-deny" in text and "abc" not in text, secret
    assert call(deck, "read", path=".env.example") == (True, "   1\tAPI_KEY=")
    assert "confirmation_required" in call(deck, "delete_path", path="f.txt")[1]
    assert (in_tmp / "f.txt").exists()
    deck.close()


def check_path(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TOOLDECK, "check", "path", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=60, env={**os.environ})


def test_check_path_cli(root: Path) -> None:
    outside = check_path("../elsewhere", "--root", str(root), "--json", cwd=root)
    assert outside.returncode == 0, outside.stderr
    report = json.loads(outside.stdout)
    assert report["verdict"] == "deny" and report["resolved"] is None
    assert "inside-root" in report["reason"]
    inside = json.loads(check_path("notes.txt", "--root", str(root), "--json", cwd=root).stdout)
    assert isinstance(inside.pop("policy"), str)
    assert inside == {"verdict": "allow", "resolved": str(root / "notes.txt"),
                      "reason": f"read allowed inside {root}", "source": "--root"}
    delete_root = json.loads(check_path(str(root), "--root", str(root), "--op", "delete",
                                        "--json", cwd=root).stdout)
    assert delete_root["verdict"] == "deny"
    text = check_path("/etc/passwd", cwd=root)
    assert text.returncode == 0 and text.stdout.startswith("deny: ")
    assert not (root / "elsewhere").exists(), "nothing is touched"


@pytest.mark.parametrize("tool", ["read", "list_directory", "grep", "write"])
def test_a_path_with_an_unencodable_surrogate_is_invalid_parameters(
    root: Path, capsys: pytest.CaptureFixture[str], tool: str
) -> None:
    deck = make_deck(root)
    params: dict[str, object] = {"path": "a\ud800b"}
    if tool == "grep":
        params["pattern"] = "x"
    if tool == "write":
        params["content"] = ""
    result = deck.call_sync(ToolCall(tool, params))
    assert result.error is not None and result.error.category.label == "invalid_parameters"
    assert "path sandbox rule 'encodable'" in result.text
    assert "crashed" not in capsys.readouterr().err
    deck.close()


def test_a_path_with_an_escaped_byte_still_works(root: Path) -> None:
    # U+DC80..U+DCFF stand for undecodable bytes (surrogateescape): a real file name
    deck = make_deck(root)
    (root / os.fsdecode(b"raw\xff.txt")).write_text("hello\n")
    assert call(deck, "read", path="raw\udcff.txt") == (True, "   1\thello")
    deck.close()
