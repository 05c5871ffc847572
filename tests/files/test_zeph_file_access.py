"""Every row of zeph-test-cases.md §2 (tests/file_access.rs), with our improvements marked."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.copy_ops import copy_path
from tooldeck.plugins.files.edit import edit_file
from tooldeck.plugins.files.read_write import read_file, write_file
from tooldeck.plugins.files.search import find_path, grep
from tooldeck.plugins.files.tree_ops import (
    create_directory,
    delete_path,
    list_directory,
    move_path,
)

Env = Any  # conftest fixture type


def _blocked(call: Any) -> ToolError:
    with pytest.raises(ToolError) as caught:
        call()
    assert caught.value.category is ErrorCategory.POLICY_BLOCKED
    return caught.value


def test_read_write_inside_sandbox(env: Env) -> None:
    hello = env.root / "hello.txt"
    hello.write_text("hello\n")
    assert read_file(env.sandbox, str(hello)).summary == "   1\thello"
    assert write_file(env.sandbox, str(hello), "overwritten").summary == (
        f"Wrote 11 bytes to {hello}"
    )
    assert read_file(env.sandbox, str(hello)).summary == "   1\toverwritten"


def test_all_ops_outside_are_sandbox_violations(env: Env, tmp_path: Path) -> None:
    target = env.outside / "file.txt"
    target.write_text("outside\n")
    inside = env.root / "src.txt"
    inside.write_text("x")
    outside2 = tmp_path / "outside2"
    outside2.mkdir()
    sb, out = env.sandbox, str(target)
    calls = [
        lambda: read_file(sb, out),
        lambda: write_file(sb, out, "pwned"),
        lambda: edit_file(sb, out, "outside", "pwned"),
        lambda: list_directory(sb, str(env.outside)),
        lambda: create_directory(sb, str(env.outside / "newdir")),
        lambda: delete_path(sb, out),
        lambda: move_path(sb, str(inside), str(outside2 / "dst.txt")),
        lambda: copy_path(sb, str(inside), str(outside2 / "dst.txt")),
    ]
    for call in calls:
        error = _blocked(call)
        assert "'inside-root'" in error.message
    assert target.read_text() == "outside\n"
    assert not (env.outside / "newdir").exists()
    assert list(outside2.iterdir()) == []
    assert inside.exists()


def test_symlink_escape_is_blocked(env: Env) -> None:
    (env.outside / "outside.txt").write_text("secret")
    os.symlink(env.outside / "outside.txt", env.root / "link.txt")
    error = _blocked(lambda: read_file(env.sandbox, str(env.root / "link.txt")))
    assert str(env.outside / "outside.txt") in error.message


def test_two_hop_symlink_chain_is_blocked(env: Env) -> None:
    (env.outside / "outside.txt").write_text("secret")
    os.symlink(env.outside / "outside.txt", env.root / "link2.txt")
    os.symlink(env.root / "link2.txt", env.root / "link1.txt")
    error = _blocked(lambda: read_file(env.sandbox, str(env.root / "link1.txt")))
    assert str(env.outside / "outside.txt") in error.message


def test_parent_traversal_is_blocked(env: Env) -> None:
    (env.outside / "outside.txt").write_text("secret")
    depth = len(env.root.parts)
    raw = str(env.root) + "/.." * depth + str(env.outside / "outside.txt")
    error = _blocked(lambda: read_file(env.sandbox, raw))
    assert str(env.outside / "outside.txt") in error.message


def test_multiple_allowed_paths(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for d in (a, b, c):
        d.mkdir()
    (a / "in_a.txt").write_text("in a\n")
    (c / "in_c.txt").write_text("in c\n")
    sandbox = PathSandbox([a, b])
    assert read_file(sandbox, str(a / "in_a.txt")).summary == "   1\tin a"
    assert write_file(sandbox, str(b / "out.txt"), "x").summary.startswith("Wrote")
    _blocked(lambda: read_file(sandbox, str(c / "in_c.txt")))


def test_empty_allowed_paths_default_to_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "x"\n')
    monkeypatch.chdir(tmp_path)
    sandbox = PathSandbox([])
    assert read_file(sandbox, str(tmp_path / "Cargo.toml")).summary.startswith("   1\t[package]")


def test_tilde_only_allowed_paths_block_a_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Zeph (issue #2115) left "~/nonexistent" unexpanded; we expand it (improvement), and a
    # file elsewhere is still outside the sandbox.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    real = tmp_path / "real.txt"
    real.write_text("x")
    sandbox = PathSandbox(["~/nonexistent"])
    assert sandbox.roots == (tmp_path / "home" / "nonexistent",)
    _blocked(lambda: read_file(sandbox, str(real)))


def test_tilde_plus_real_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    (real_dir / "f.txt").write_text("ok\n")
    sandbox = PathSandbox(["~/nonexistent", real_dir])
    assert read_file(sandbox, str(real_dir / "f.txt")).summary == "   1\tok"


def test_tilde_root_is_expanded_improvement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # improvement over the older Zeph: "~/proj" really means $HOME/proj
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "f.txt").write_text("home\n")
    sandbox = PathSandbox(["~/proj"])
    assert read_file(sandbox, "~/proj/f.txt").summary == "   1\thome"


def test_nonexistent_allowed_path_plus_real_dir(tmp_path: Path) -> None:
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    (real_dir / "f.txt").write_text("ok\n")
    sandbox = PathSandbox(["/nonexistent/tooldeck/path", real_dir])
    assert read_file(sandbox, str(real_dir / "f.txt")).summary == "   1\tok"


def test_delete_sandbox_root_is_refused(env: Env) -> None:
    (env.root / "keep.txt").write_text("x")
    error = _blocked(lambda: delete_path(env.sandbox, str(env.root), recursive=True))
    assert "'not-root-or-above'" in error.message
    assert str(env.root) in error.message
    assert (env.root / "keep.txt").exists()


def test_move_inside_to_outside(env: Env) -> None:
    (env.root / "a.txt").write_text("x")
    _blocked(lambda: move_path(env.sandbox, str(env.root / "a.txt"), str(env.outside / "a.txt")))
    assert (env.root / "a.txt").exists()
    assert not (env.outside / "a.txt").exists()


def test_move_outside_to_inside(env: Env) -> None:
    (env.outside / "a.txt").write_text("x")
    _blocked(lambda: move_path(env.sandbox, str(env.outside / "a.txt"), str(env.root / "a.txt")))
    assert (env.outside / "a.txt").exists()
    assert not (env.root / "a.txt").exists()


def test_copy_inside_to_outside(env: Env) -> None:
    (env.root / "a.txt").write_text("x")
    _blocked(lambda: copy_path(env.sandbox, str(env.root / "a.txt"), str(env.outside / "a.txt")))
    assert not (env.outside / "a.txt").exists()


def test_copy_outside_to_inside(env: Env) -> None:
    (env.outside / "a.txt").write_text("secret")
    _blocked(lambda: copy_path(env.sandbox, str(env.outside / "a.txt"), str(env.root / "a.txt")))
    assert not (env.root / "a.txt").exists()


def test_write_deep_path_creates_parents(env: Env) -> None:
    deep = env.root / "a" / "b" / "c" / "file.txt"
    result = write_file(env.sandbox, str(deep), "deep")
    assert result.summary == f"Wrote 4 bytes to {deep}"
    assert deep.read_text() == "deep"


def test_grep_outside_is_blocked(env: Env) -> None:
    (env.outside / "creds.txt").write_text("password=1\n")
    _blocked(lambda: grep(env.sandbox, "password", str(env.outside)))


def test_find_path_lists_inside_only(env: Env) -> None:
    (env.root / "inside.txt").write_text("x")
    (env.outside / "outside.txt").write_text("x")
    inside = find_path(env.sandbox, ".", f"{env.root}/*.txt")
    assert inside.summary == str(env.root / "inside.txt")
    outside = find_path(env.sandbox, ".", f"{env.outside}/*.txt")
    assert "outside.txt" not in outside.summary
    assert outside.summary == f"No files matching: {env.outside}/*.txt"


def test_grep_without_path_uses_cwd_outside_sandbox(env: Env, tmp_path: Path) -> None:
    sandbox = PathSandbox([env.root], cwd=tmp_path / "elsewhere")
    _blocked(lambda: grep(sandbox, "anything"))


def test_edit_with_absent_old_string(env: Env) -> None:
    (env.root / "f.txt").write_text("alpha\nbeta\n")
    with pytest.raises(ToolError) as caught:
        edit_file(env.sandbox, str(env.root / "f.txt"), "gamma", "delta")
    assert f"old_string not found in {env.root / 'f.txt'}" in caught.value.message
    assert (env.root / "f.txt").read_text() == "alpha\nbeta\n"


def test_edit_with_several_occurrences_is_refused_improvement(env: Env) -> None:
    # Zeph replaced the first occurrence silently; we refuse and list the lines (improvement)
    f = env.root / "f.txt"
    f.write_text("x = 1\ny = 2\nx = 1\n")
    with pytest.raises(ToolError) as caught:
        edit_file(env.sandbox, str(f), "x = 1", "x = 3")
    assert caught.value.category is ErrorCategory.INVALID_PARAMETERS
    assert "occurs 2 times" in caught.value.message
    assert "lines 1, 3" in caught.value.message
    assert f.read_text() == "x = 1\ny = 2\nx = 1\n"
    result = edit_file(env.sandbox, str(f), "x = 1", "x = 3", replace_all=True)
    assert result.summary == f"Edited {f}"
    assert f.read_text() == "x = 3\ny = 2\nx = 3\n"


def test_read_offset_and_limit(env: Env) -> None:
    f = env.root / "four.txt"
    f.write_text("one\ntwo\nthree\nfour\n")
    assert read_file(env.sandbox, str(f), offset=1, limit=2).summary == "   2\ttwo\n   3\tthree"


def test_deny_read_matches_and_allow_read_empty(env: Env) -> None:
    (env.root / ".env").write_text("TOKEN=1\n")
    sandbox = PathSandbox([env.root], deny_read=["**/.env"])
    error = _blocked(lambda: read_file(sandbox, str(env.root / ".env")))
    assert "'read-deny'" in error.message


def test_deny_read_and_allow_read_both_match(env: Env) -> None:
    (env.root / ".env").write_text("TOKEN=1\n")
    sandbox = PathSandbox([env.root], deny_read=["**/.env"], allow_read=[f"{env.root}/.env"])
    assert read_file(sandbox, str(env.root / ".env")).summary == "   1\tTOKEN=1"
