from __future__ import annotations

import os
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.tree_ops import (
    create_directory,
    delete_path,
    list_directory,
    move_path,
)

Env = Any


def _error(call: Any) -> ToolError:
    with pytest.raises(ToolError) as caught:
        call()
    return caught.value


def test_list_directory_groups_and_labels(env: Env) -> None:
    (env.root / "zdir").mkdir()
    (env.root / "adir").mkdir()
    (env.root / "b.txt").write_text("")
    (env.root / "a.txt").write_text("")
    os.mkfifo(env.root / "fifo")
    os.symlink(env.outside, env.root / "link_to_dir")
    os.symlink("a.txt", env.root / "alias")
    assert list_directory(env.sandbox, ".").summary == "\n".join(
        [
            "[dir]  adir",
            "[dir]  zdir",
            "[file] a.txt",
            "[file] b.txt",
            "[file] fifo",
            "[symlink] alias",
            "[symlink] link_to_dir",
        ]
    )


def test_list_directory_empty_and_not_a_directory(env: Env) -> None:
    (env.root / "empty").mkdir()
    assert list_directory(env.sandbox, "empty").summary == "Empty directory: empty"
    (env.root / "f.txt").write_text("")
    error = _error(lambda: list_directory(env.sandbox, "f.txt"))
    assert error.message == "f.txt is not a directory"


def test_list_directory_through_symlink_to_outside_is_blocked(env: Env) -> None:
    os.symlink(env.outside, env.root / "out")
    assert _error(lambda: list_directory(env.sandbox, "out")).category is (
        ErrorCategory.POLICY_BLOCKED
    )


def test_create_directory_is_recursive_and_idempotent(env: Env) -> None:
    assert create_directory(env.sandbox, "a/b/c").summary == "Created directory: a/b/c"
    assert (env.root / "a" / "b" / "c").is_dir()
    assert create_directory(env.sandbox, "a/b/c").summary == "Created directory: a/b/c"
    assert create_directory(env.sandbox, ".").summary == "Created directory: ."


def test_create_directory_with_file_in_the_way(env: Env) -> None:
    (env.root / "f").write_text("")
    error = _error(lambda: create_directory(env.sandbox, "f/sub"))
    assert error.category is ErrorCategory.PERMANENT_FAILURE
    assert "not a directory" in error.message


def test_create_directory_through_symlink_to_outside(env: Env) -> None:
    os.symlink(env.outside, env.root / "out")
    assert _error(lambda: create_directory(env.sandbox, "out/new")).category is (
        ErrorCategory.POLICY_BLOCKED
    )
    assert not (env.outside / "new").exists()


def test_delete_file_and_empty_dir(env: Env) -> None:
    (env.root / "f.txt").write_text("")
    (env.root / "d").mkdir()
    assert delete_path(env.sandbox, "f.txt").summary == "Deleted: f.txt"
    assert delete_path(env.sandbox, "d").summary == "Deleted: d"
    assert list(env.root.iterdir()) == []


def test_delete_non_empty_dir_needs_recursive(env: Env) -> None:
    (env.root / "d" / "e").mkdir(parents=True)
    (env.root / "d" / "e" / "f.txt").write_text("")
    error = _error(lambda: delete_path(env.sandbox, "d"))
    assert "Directory not empty" in error.message and "recursive=true" in error.message
    assert delete_path(env.sandbox, "d", recursive=True).summary == "Deleted: d"
    assert not (env.root / "d").exists()


def test_delete_symlink_removes_the_link_not_the_target(env: Env) -> None:
    target = env.outside / "victim.txt"
    target.write_text("keep")
    os.symlink(target, env.root / "link")
    os.symlink(env.outside, env.root / "dirlink")
    delete_path(env.sandbox, "link")
    delete_path(env.sandbox, "dirlink", recursive=True)
    assert target.read_text() == "keep"
    assert not os.path.lexists(env.root / "link")
    assert not os.path.lexists(env.root / "dirlink")


def test_recursive_delete_never_follows_inner_symlinks(env: Env) -> None:
    (env.outside / "victim.txt").write_text("keep")
    (env.root / "tree" / "sub").mkdir(parents=True)
    os.symlink(env.outside, env.root / "tree" / "sub" / "escape")
    delete_path(env.sandbox, "tree", recursive=True)
    assert (env.outside / "victim.txt").read_text() == "keep"
    assert not (env.root / "tree").exists()


def test_delete_missing_path(env: Env) -> None:
    assert _error(lambda: delete_path(env.sandbox, "nope")).category is (
        ErrorCategory.PERMANENT_FAILURE
    )


def test_delete_parent_of_root_is_refused(env: Env) -> None:
    assert _error(lambda: delete_path(env.sandbox, "..", recursive=True)).category is (
        ErrorCategory.POLICY_BLOCKED
    )
    assert env.root.exists()


def test_move_renames_and_creates_parents(env: Env) -> None:
    (env.root / "a.txt").write_text("x")
    result = move_path(env.sandbox, "a.txt", "new/dir/b.txt")
    assert result.summary == "Moved: a.txt -> new/dir/b.txt"
    assert (env.root / "new" / "dir" / "b.txt").read_text() == "x"
    assert not (env.root / "a.txt").exists()


def test_move_symlink_moves_the_link_itself(env: Env) -> None:
    os.symlink(env.outside, env.root / "out")
    move_path(env.sandbox, "out", "renamed")
    assert os.readlink(env.root / "renamed") == str(env.outside)


def test_move_onto_a_symlink_replaces_the_link(env: Env) -> None:
    victim = env.outside / "victim.txt"
    victim.write_text("keep")
    os.symlink(victim, env.root / "trap")
    (env.root / "a.txt").write_text("mine")
    move_path(env.sandbox, "a.txt", "trap")
    assert victim.read_text() == "keep"
    assert (env.root / "trap").read_text() == "mine"
    assert not (env.root / "trap").is_symlink()


def test_move_root_is_refused(env: Env) -> None:
    assert "'not-root-or-above'" in _error(lambda: move_path(env.sandbox, ".", "x")).message


def test_move_cannot_launder_read_denied_content(env: Env) -> None:
    (env.root / "secrets").mkdir()
    (env.root / "secrets" / "k.txt").write_text("key")
    (env.root / ".env").write_text("TOKEN")
    sandbox = PathSandbox([env.root], deny_read=["**/secrets/**", "**/.env"], cwd=env.root)
    error = _error(lambda: move_path(sandbox, ".env", "notes.txt"))
    assert "'no-read-laundering'" in error.message
    error = _error(lambda: move_path(sandbox, "secrets", "public"))
    assert "'no-read-laundering'" in error.message
    assert (env.root / "secrets" / "k.txt").exists()
    # staying protected is fine
    move_path(sandbox, ".env", "sub/.env")
    assert (env.root / "sub" / ".env").read_text() == "TOKEN"


def test_move_into_itself_is_refused_without_side_effects(env: Env) -> None:
    (env.root / "a").mkdir()
    error = _error(lambda: move_path(env.sandbox, "a", "a/b/c"))
    assert error.category is ErrorCategory.INVALID_PARAMETERS
    assert "'not-into-itself'" in error.message
    assert list((env.root / "a").iterdir()) == []
