"""The glob translator used by the read sandbox and find_path."""

from __future__ import annotations

import fnmatch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.paths import compile_glob


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("/a/*", "/a/b", True),
        ("/a/*", "/a/b/c", False),  # * never crosses /
        ("/a/**", "/a/b/c", True),
        ("/a/**", "/a", True),  # trailing /** includes the directory itself
        ("/a/**", "/ab", False),
        ("/a/**/c", "/a/c", True),
        ("/a/**/c", "/a/x/y/c", True),
        ("/a/**/c", "/a/xc", False),
        ("**/.env", "/home/u/p/.env", True),
        ("**/.env", "/.env", True),
        ("**/.env", "/home/u/p/.envrc", False),
        ("**/secrets/**", "/p/secrets/k/v", True),
        ("*.pem", "/deep/dir/key.pem", True),  # relative: anywhere
        ("*.pem", "/deep/dir/key.pem.txt", False),
        ("/x/?.txt", "/x/a.txt", True),
        ("/x/?.txt", "/x//.txt", False),
        ("/x/[ab].c", "/x/b.c", True),
        ("/x/[!ab].c", "/x/c.c", True),
        ("/x/[!ab].c", "/x/a.c", False),
        ("/x/[!ab].c", "/x//.c", False),
        ("/x/*.{pem,key}", "/x/id.key", True),
        ("/x/*.{pem,key}", "/x/id.pub", False),
        ("/x/a+b(c).txt", "/x/a+b(c).txt", True),  # regex metacharacters are literal
        ("/x/a+b(c).txt", "/x/aab(c)xtxt", False),
        ("/etc/shadow", "/etc/shadow", True),
        ("/root/*", "/root/.bashrc", True),
        ("/home/*/.ssh/*", "/home/bob/.ssh/id_rsa", True),
        ("/home/*/.ssh/*", "/home/bob/x/.ssh/id_rsa", False),
        ("/x/\uff0f", "/x/\uff0f", True),
        ("/x/*", "/x/\uff0f/", False),
        ("/x/*", "/x/name\nwith-newline", True),
    ],
)
def test_glob_semantics(pattern: str, path: str, expected: bool) -> None:
    assert compile_glob(pattern).matches(path) is expected


@pytest.mark.parametrize("pattern", ["/a/[bc", "/a/{b,c", "", "a\x00b"])
def test_invalid_globs_raise_value_error(pattern: str) -> None:
    with pytest.raises(ValueError):
        compile_glob(pattern)


def test_relative_glob_with_cwd_is_anchored_there() -> None:
    glob = compile_glob("src/*.py", cwd="/proj")
    assert glob.matches("/proj/src/a.py")
    assert not glob.matches("/other/src/a.py")
    assert glob.base == "/proj/src"


def test_pathological_glob_matches_in_linear_time() -> None:
    glob = compile_glob("/" + "*a" * 30 + "b")
    assert not glob.matches("/" + "a" * 5000)


# "." and ".." never occur as components of a normalised path
names = st.text(alphabet=st.sampled_from("abc.*?-_"), min_size=1, max_size=8).filter(
    lambda s: s not in (".", "..")
)
plain = st.text(alphabet=st.sampled_from("abc.-_"), min_size=1, max_size=8).filter(
    lambda s: s not in (".", "..")
)


@given(pattern=names, name=plain)
def test_single_component_globs_agree_with_fnmatch(pattern: str, name: str) -> None:
    glob = compile_glob("/d/" + pattern)
    assert glob.matches("/d/" + name) is fnmatch.fnmatchcase(name, pattern)
