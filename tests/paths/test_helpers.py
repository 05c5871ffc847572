from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox, canonicalize, is_within, lexical_normalize

Farm = Any


def test_lexical_normalize() -> None:
    assert lexical_normalize("/a/./b/../c") == Path("/a/c")
    assert lexical_normalize("/../../x") == Path("/x")
    assert lexical_normalize("//a//b/") == Path("/a/b")


def test_canonicalize_follows_dangling_links_and_keeps_missing_suffix(farm: Farm) -> None:
    assert canonicalize(farm.root / "dangle_out" / "more") == farm.outside / "nope.txt" / "more"
    assert canonicalize(farm.root / "chain1") == farm.outside / "secret.txt"
    assert canonicalize(farm.root / "missing" / "x") == farm.root / "missing" / "x"
    assert canonicalize(farm.root / "dotdot_out" / "secret.txt") == farm.outside / "secret.txt"


def test_canonicalize_relative_uses_process_cwd(
    farm: Farm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(farm.root)
    assert canonicalize("link_in") == farm.root / "real" / "file.txt"


def test_canonicalize_symlink_target_with_dotdot_through_a_link(farm: Farm) -> None:
    # link_in_abs -> <root>/real ; "link_in_abs/../x" is lexical, but a *target* containing ".."
    # is resolved physically after its own links
    os.symlink("link_in_abs/../../outside", farm.root / "tricky")
    assert canonicalize(farm.root / "tricky") == farm.outside


def test_is_within_compares_whole_components() -> None:
    assert is_within("/a/b", "/a")
    assert is_within("/a", "/a")
    assert not is_within("/ab", "/a")
    assert is_within("/anything", "/")
    assert is_within("/a/b/../c", "/a")
    assert not is_within("/a/../b", "/a")


def test_sandbox_glob_relative_to_base(farm: Farm) -> None:
    sandbox = PathSandbox([farm.root], cwd=farm.root)
    glob = sandbox.glob("*.txt", base="real")
    assert glob.base == str(farm.root / "real")
    assert glob.matches(str(farm.root / "real" / "file.txt"))
    with pytest.raises(ToolError) as caught:
        sandbox.glob("*.txt", base="re\x00al")
    assert caught.value.category is ErrorCategory.INVALID_PARAMETERS


def test_has_read_rules(farm: Farm) -> None:
    assert not PathSandbox([farm.root], allow_read=["*.txt"]).has_read_rules
    assert PathSandbox([farm.root], deny_read=["*.txt"]).has_read_rules
    assert PathSandbox([farm.root], cwd=farm.root).cwd == farm.root
