from __future__ import annotations

import os
import stat
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.read_write import read_file, write_file

Env = Any


def _error(call: Any) -> ToolError:
    with pytest.raises(ToolError) as caught:
        call()
    return caught.value


def test_read_numbers_lines_right_aligned_width_four(env: Env) -> None:
    f = env.root / "f.txt"
    f.write_text("".join(f"line {i}\n" for i in range(1, 12345)))
    out = read_file(env.sandbox, "f.txt", offset=9, limit=2).summary
    assert out == "  10\tline 10\n  11\tline 11"
    wide = read_file(env.sandbox, "f.txt", offset=12342).summary
    assert wide == "12343\tline 12343\n12344\tline 12344"


def test_read_strips_crlf_and_keeps_tabs(env: Env) -> None:
    (env.root / "f.txt").write_bytes(b"a\r\n\tb\r\nc")
    assert read_file(env.sandbox, "f.txt").summary == "   1\ta\n   2\t\tb\n   3\tc"


def test_read_empty_file_and_offset_past_end(env: Env) -> None:
    (env.root / "empty.txt").write_text("")
    assert read_file(env.sandbox, "empty.txt").summary == ""
    (env.root / "two.txt").write_text("a\nb\n")
    assert read_file(env.sandbox, "two.txt", offset=5).summary == ""
    assert read_file(env.sandbox, "two.txt", limit=0).summary == ""


def test_read_result_carries_canonical_location(env: Env) -> None:
    (env.root / "real.txt").write_text("x\n")
    os.symlink("real.txt", env.root / "alias.txt")
    assert read_file(env.sandbox, "alias.txt").locations == (str(env.root / "real.txt"),)


@pytest.mark.parametrize("data", [b"abc\x00def", b"\x89PNG\r\n\x1a\n\x00\x00"])
def test_read_refuses_binary(env: Env, data: bytes) -> None:
    (env.root / "bin").write_bytes(data)
    error = _error(lambda: read_file(env.sandbox, "bin"))
    assert error.category is ErrorCategory.PERMANENT_FAILURE
    assert "binary file" in error.message


def test_read_refuses_non_utf8(env: Env) -> None:
    (env.root / "latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    error = _error(lambda: read_file(env.sandbox, "latin1.txt"))
    assert "not valid UTF-8" in error.message


def test_read_cap(env: Env) -> None:
    (env.root / "big.txt").write_text("x" * 2000)
    error = _error(lambda: read_file(env.sandbox, "big.txt", max_read_bytes=1000))
    assert error.category is ErrorCategory.PERMANENT_FAILURE
    assert "'read-size'" in error.message and "2000 bytes" in error.message
    assert read_file(env.sandbox, "big.txt", max_read_bytes=2000).summary.startswith("   1\tx")


def test_read_fifo_does_not_block(env: Env) -> None:
    os.mkfifo(env.root / "pipe")
    error = _error(lambda: read_file(env.sandbox, "pipe"))
    assert "'regular-file'" in error.message


def test_read_directory_and_missing_file(env: Env) -> None:
    (env.root / "d").mkdir()
    assert "Is a directory" in _error(lambda: read_file(env.sandbox, "d")).message
    missing = _error(lambda: read_file(env.sandbox, "nope.txt"))
    assert missing.category is ErrorCategory.PERMANENT_FAILURE
    assert str(env.root / "nope.txt") in missing.message


@pytest.mark.parametrize(("offset", "limit"), [(-1, None), (None, -2)])
def test_read_negative_offset_or_limit(env: Env, offset: Any, limit: Any) -> None:
    (env.root / "f.txt").write_text("x")
    error = _error(lambda: read_file(env.sandbox, "f.txt", offset=offset, limit=limit))
    assert error.category is ErrorCategory.INVALID_PARAMETERS


def test_read_nul_in_path_is_invalid(env: Env) -> None:
    error = _error(lambda: read_file(env.sandbox, "f\x00.txt"))
    assert error.category is ErrorCategory.INVALID_PARAMETERS


def test_write_attaches_unified_diff(env: Env) -> None:
    f = env.root / "f.txt"
    f.write_text("a\nb\n")
    result = write_file(env.sandbox, "f.txt", "a\nc\n")
    assert result.diff is not None
    assert "-b\n" in result.diff and "+c\n" in result.diff
    assert result.locations == (str(f),)
    new = write_file(env.sandbox, "new.txt", "hello\n")
    assert new.diff is not None and "+hello\n" in new.diff


def test_write_counts_utf8_bytes(env: Env) -> None:
    assert write_file(env.sandbox, "u.txt", "héllo").summary == "Wrote 6 bytes to u.txt"


def test_write_rejects_lone_surrogates(env: Env) -> None:
    error = _error(lambda: write_file(env.sandbox, "u.txt", "bad \udc80"))
    assert error.category is ErrorCategory.INVALID_PARAMETERS
    assert not (env.root / "u.txt").exists()


def test_write_is_atomic_and_keeps_mode(env: Env) -> None:
    f = env.root / "script.sh"
    f.write_text("#!/bin/sh\n")
    f.chmod(0o750)
    write_file(env.sandbox, "script.sh", "#!/bin/sh\necho hi\n")
    assert stat.S_IMODE(f.stat().st_mode) == 0o750
    assert sorted(p.name for p in env.root.iterdir()) == ["script.sh"]


def test_write_does_not_modify_a_hard_linked_twin(env: Env) -> None:
    original = env.outside / "shared.txt"
    original.write_text("original")
    os.link(original, env.root / "twin.txt")
    write_file(env.sandbox, "twin.txt", "changed")
    assert original.read_text() == "original"
    assert (env.root / "twin.txt").read_text() == "changed"


def test_write_through_inside_symlink_writes_the_target(env: Env) -> None:
    (env.root / "real.txt").write_text("old")
    os.symlink("real.txt", env.root / "alias.txt")
    result = write_file(env.sandbox, "alias.txt", "new")
    assert (env.root / "real.txt").read_text() == "new"
    assert (env.root / "alias.txt").is_symlink()
    assert result.locations == (str(env.root / "real.txt"),)


def test_write_through_final_symlink_to_outside_is_refused(env: Env) -> None:
    target = env.outside / "victim.txt"
    target.write_text("safe")
    os.symlink(target, env.root / "innocent.txt")
    os.symlink(env.outside / "created.txt", env.root / "dangling.txt")
    for name in ("innocent.txt", "dangling.txt"):
        error = _error(lambda name=name: write_file(env.sandbox, name, "pwned"))
        assert error.category is ErrorCategory.POLICY_BLOCKED
    assert target.read_text() == "safe"
    assert not (env.outside / "created.txt").exists()


def test_write_to_existing_directory_fails(env: Env) -> None:
    (env.root / "d").mkdir()
    assert "Is a directory" in _error(lambda: write_file(env.sandbox, "d", "x")).message
    assert "Is a directory" in _error(lambda: write_file(env.sandbox, ".", "x")).message


def test_write_under_a_file_fails(env: Env) -> None:
    (env.root / "f").write_text("x")
    error = _error(lambda: write_file(env.sandbox, "f/child.txt", "x"))
    assert error.category is ErrorCategory.PERMANENT_FAILURE


def test_write_to_read_denied_path_withholds_the_diff(env: Env) -> None:
    (env.root / ".env").write_text("TOKEN=old\n")
    sandbox = PathSandbox([env.root], deny_read=["**/.env"], cwd=env.root)
    result = write_file(sandbox, ".env", "TOKEN=new\n")
    assert result.diff is None
    assert (env.root / ".env").read_text() == "TOKEN=new\n"
