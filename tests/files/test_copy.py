from __future__ import annotations

import os
import stat
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.copy_ops import copy_path

Env = Any


def _error(call: Any) -> ToolError:
    with pytest.raises(ToolError) as caught:
        call()
    return caught.value


def test_copy_file_creates_parents_and_keeps_mode(env: Env) -> None:
    src = env.root / "run.sh"
    src.write_text("#!/bin/sh\n")
    src.chmod(0o755)
    result = copy_path(env.sandbox, "run.sh", "bin/tools/run.sh")
    assert result.summary == "Copied: run.sh -> bin/tools/run.sh"
    dst = env.root / "bin" / "tools" / "run.sh"
    assert dst.read_text() == "#!/bin/sh\n"
    assert stat.S_IMODE(dst.stat().st_mode) == 0o755


def test_copy_directory_skips_symlinks_and_special_files(env: Env) -> None:
    (env.outside / "secret.txt").write_text("secret")
    tree = env.root / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "a.txt").write_text("a")
    (tree / "sub" / "b.txt").write_text("b")
    os.symlink(env.outside / "secret.txt", tree / "leak.txt")
    os.symlink(env.outside, tree / "sub" / "leakdir")
    os.mkfifo(tree / "pipe")
    result = copy_path(env.sandbox, "tree", "copy")
    assert result.summary.split("\n") == [
        "Copied: tree -> copy",
        "1 special file(s) skipped (FIFO, socket or device)",
        "2 symlink(s) skipped (never followed when copying a directory)",
    ]
    copied = sorted(str(p.relative_to(env.root / "copy")) for p in (env.root / "copy").rglob("*"))
    assert copied == ["a.txt", "sub", "sub/b.txt"]


def test_copy_directory_into_itself_is_refused(env: Env) -> None:
    (env.root / "tree").mkdir()
    error = _error(lambda: copy_path(env.sandbox, "tree", "tree/inner"))
    assert error.category is ErrorCategory.INVALID_PARAMETERS
    assert "'not-into-itself'" in error.message
    assert list((env.root / "tree").iterdir()) == []


def test_copy_source_symlink_is_followed_only_inside(env: Env) -> None:
    (env.root / "real.txt").write_text("real")
    os.symlink("real.txt", env.root / "alias.txt")
    copy_path(env.sandbox, "alias.txt", "dup.txt")
    assert (env.root / "dup.txt").read_text() == "real"
    os.symlink(env.outside / "x", env.root / "out.txt")
    assert _error(lambda: copy_path(env.sandbox, "out.txt", "y.txt")).category is (
        ErrorCategory.POLICY_BLOCKED
    )


def test_copy_cannot_launder_read_denied_content(env: Env) -> None:
    (env.root / ".env").write_text("TOKEN")
    (env.root / "cfg").mkdir()
    (env.root / "cfg" / ".env").write_text("TOKEN")
    (env.root / "cfg" / "app.toml").write_text("ok")
    sandbox = PathSandbox([env.root], deny_read=[f"{env.root}/.env", f"{env.root}/cfg/.env"])
    error = _error(lambda: copy_path(sandbox, str(env.root / ".env"), str(env.root / "n.txt")))
    assert "'no-read-laundering'" in error.message
    result = copy_path(sandbox, str(env.root / "cfg"), str(env.root / "cfg2"))
    assert "1 file(s) skipped (protected by deny_read)" in result.summary
    assert sorted(p.name for p in (env.root / "cfg2").iterdir()) == ["app.toml"]


def test_copy_missing_source(env: Env) -> None:
    assert _error(lambda: copy_path(env.sandbox, "nope", "x")).category is (
        ErrorCategory.PERMANENT_FAILURE
    )
