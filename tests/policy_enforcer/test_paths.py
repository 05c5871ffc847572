"""The path normaliser and extractor of the policy enforcer (zeph-test-cases §5.3)."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.plugins.policy_enforcer.paths import call_paths, normalize_path


@pytest.mark.parametrize(("raw", "expected"), [
    ("/etc/passwd", "/etc/passwd"),
    ("/tmp/../etc/passwd", "/etc/passwd"),
    ("/etc/./shadow", "/etc/shadow"),
    ("/", "/"),
    ("/../etc", "/etc"),
    ("/a/b/c/d/../../../../../../etc/passwd", "/etc/passwd"),
])
def test_zeph_normalize_path_rows(raw: str, expected: str) -> None:
    """§5.3 normalize_path row, every pair."""
    assert normalize_path(raw) == expected


segments = st.lists(st.sampled_from(["a", "b", ".", "..", "", "etc", "..."]), max_size=12)


@given(segments)
def test_never_above_root_and_idempotent(parts: list[str]) -> None:
    path = "/" + "/".join(parts)
    once = normalize_path(path)
    assert once.startswith("/")
    assert ".." not in once.split("/") and "." not in once.split("/")
    assert "//" not in once
    assert normalize_path(once) == once


@given(segments)
def test_matches_posixpath_normpath_on_single_slash_absolute_paths(parts: list[str]) -> None:
    path = "/" + "/".join(parts)
    if path.startswith("//") and not path.startswith("///"):
        path = path[1:]  # normpath keeps exactly two leading slashes (POSIX): not our business
    assert normalize_path(path) == posixpath.normpath(path)


def test_path_parameters_are_normalised(tmp_path: Path) -> None:
    found = call_paths({"file_path": "/tmp/../etc/passwd"}, cwd=str(tmp_path))
    assert "/etc/passwd" in found


@pytest.mark.parametrize("command", [
    "cat /etc/passwd",
    'cat "/etc/passwd"',
    "cat '/etc/passwd'",
    "grep root --file=/etc/passwd",
    "cat </etc/passwd",
    "(cat /etc/passwd)",
    "cat /tmp/../etc/passwd",
    "cat //etc//passwd",
    "cat ../../../../../../../../etc/passwd",
    "cd /tmp && cat ../etc/passwd",
])
def test_command_paths_reach_the_target(command: str, tmp_path: Path) -> None:
    """Quoted, glued, relative and doubled-slash spellings all yield /etc/passwd."""
    assert "/etc/passwd" in call_paths({"command": command}, cwd=str(tmp_path))


def test_home_relative_paths_are_expanded(tmp_path: Path) -> None:
    home = os.path.expanduser("~")
    found = call_paths({"command": "cat ~/.ssh/id_rsa", "path": "~/x"}, cwd=str(tmp_path))
    assert f"{home}/.ssh/id_rsa" in found and f"{home}/x" in found


def test_relative_path_is_joined_to_the_working_directory(tmp_path: Path) -> None:
    assert call_paths({"path": "src/../a.py"}, cwd=str(tmp_path)) == (f"{tmp_path}/a.py",)


def test_a_symlink_is_matched_by_its_target_too(tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to("/etc")
    found = call_paths({"path": "link/passwd"}, cwd=str(tmp_path))
    assert f"{tmp_path}/link/passwd" in found and "/etc/passwd" in found


def test_urls_are_kept_as_written(tmp_path: Path) -> None:
    url = "https://example.com/a/../b?q=1"
    assert url in call_paths({"url": url}, cwd=str(tmp_path))


def test_nul_and_non_strings_are_ignored(tmp_path: Path) -> None:
    assert call_paths({"path": "/etc/\x00passwd", "file_path": 3}, cwd=str(tmp_path)) == ()
