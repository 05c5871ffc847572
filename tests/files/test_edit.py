from __future__ import annotations

from typing import Any

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.edit import edit_file

Env = Any


def _error(call: Any) -> ToolError:
    with pytest.raises(ToolError) as caught:
        call()
    return caught.value


def test_edit_replaces_unique_occurrence_with_diff(env: Env) -> None:
    f = env.root / "f.py"
    f.write_text("def f():\n    return 1\n")
    result = edit_file(env.sandbox, "f.py", "return 1", "return 2")
    assert result.summary == "Edited f.py"
    assert f.read_text() == "def f():\n    return 2\n"
    assert result.diff is not None
    assert "-    return 1\n" in result.diff and "+    return 2\n" in result.diff


def test_edit_miss_points_at_the_closest_line(env: Env) -> None:
    (env.root / "f.py").write_text("import os\n\ndef handler(event):\n    return event\n")
    error = _error(lambda: edit_file(env.sandbox, "f.py", "def handler(evnt):", "x"))
    assert error.category is ErrorCategory.INVALID_PARAMETERS
    assert "old_string not found in f.py" in error.message
    assert "line 3: 'def handler(event):'" in error.message


def test_edit_miss_multiline_points_at_window_start(env: Env) -> None:
    (env.root / "f.txt").write_text("a\nalpha one\nbeta two\nz\n")
    error = _error(lambda: edit_file(env.sandbox, "f.txt", "alpha 1\nbeta two", "x"))
    assert "line 2: 'alpha one'" in error.message


def test_edit_miss_without_anything_close(env: Env) -> None:
    (env.root / "f.txt").write_text("aaaa\n")
    error = _error(lambda: edit_file(env.sandbox, "f.txt", "zzzzzzzz", "x"))
    assert error.message.endswith("old_string not found in f.txt")


def test_edit_ambiguity_lists_many_lines_then_ellipsis(env: Env) -> None:
    (env.root / "f.txt").write_text("x\n" * 25)
    error = _error(lambda: edit_file(env.sandbox, "f.txt", "x", "y"))
    assert "occurs 25 times" in error.message
    assert "lines 1, 2, 3" in error.message and "20 ..." in error.message


@pytest.mark.parametrize(
    ("old", "new", "rule"), [("", "x", "non-empty-old"), ("a", "a", "changes-something")]
)
def test_edit_parameter_rules(env: Env, old: str, new: str, rule: str) -> None:
    (env.root / "f.txt").write_text("a\n")
    error = _error(lambda: edit_file(env.sandbox, "f.txt", old, new))
    assert error.category is ErrorCategory.INVALID_PARAMETERS
    assert f"'{rule}'" in error.message


def test_edit_respects_the_read_sandbox(env: Env) -> None:
    (env.root / ".env").write_text("TOKEN=1\n")
    sandbox = PathSandbox([env.root], deny_read=["**/.env"], cwd=env.root)
    error = _error(lambda: edit_file(sandbox, ".env", "TOKEN=1", "TOKEN=2"))
    assert error.category is ErrorCategory.POLICY_BLOCKED
    assert (env.root / ".env").read_text() == "TOKEN=1\n"


def test_edit_refuses_binary(env: Env) -> None:
    (env.root / "b.bin").write_bytes(b"ab\x00cd")
    assert "binary" in _error(lambda: edit_file(env.sandbox, "b.bin", "ab", "x")).message


def test_edit_new_string_containing_old_string_replaces_once(env: Env) -> None:
    f = env.root / "f.txt"
    f.write_text("cat\n")
    edit_file(env.sandbox, "f.txt", "cat", "catcat")
    assert f.read_text() == "catcat\n"
