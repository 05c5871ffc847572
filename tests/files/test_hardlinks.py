"""Hard links: a second name must not hand out a secret or a file from outside the sandbox.

Real hard links in tmp dirs. The default read rules (``.env``, keys, ``.ssh``) are used; the
home directory is a tmp dir so the test machine's own keys are never looked at.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.copy_ops import copy_path
from tooldeck.plugins.files.edit import edit_file
from tooldeck.plugins.files.read_write import read_file, write_file
from tooldeck.plugins.files.search import grep

DENY = ["**/.env", "**/*.key", "**/id_rsa*", "**/.ssh/**"]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home directory with an SSH key, outside the sandbox."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN KEY-----\nsecret\n")
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def root(tmp_path: Path, home: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / ".env").write_text("TOKEN=hunter2\n")
    (root / "README.md").write_text("hello\n")
    return root


@pytest.fixture
def sandbox(root: Path) -> PathSandbox:
    return PathSandbox([root], cwd=root, deny_read=DENY, allow_read=["**/.env.example"])


def _refusal(call: object) -> str:
    assert callable(call)
    with pytest.raises(ToolError) as caught:
        call()
    assert caught.value.category is ErrorCategory.POLICY_BLOCKED
    return caught.value.message


def test_one_name_reads(sandbox: PathSandbox, root: Path) -> None:
    assert os.stat(root / "README.md").st_nlink == 1
    assert "hello" in read_file(sandbox, "README.md").summary


def test_link_to_a_secret_in_the_root_is_refused(sandbox: PathSandbox, root: Path) -> None:
    os.link(root / ".env", root / "notes.txt")
    message = _refusal(lambda: read_file(sandbox, "notes.txt"))
    assert "hardlink-secret" in message and str(root / ".env") in message
    assert "hunter2" not in message


def test_link_to_a_key_in_home_is_refused(sandbox: PathSandbox, root: Path, home: Path) -> None:
    os.link(home / ".ssh" / "id_rsa", root / "data.txt")
    message = _refusal(lambda: read_file(sandbox, "data.txt"))
    assert "hardlink-secret" in message and ".ssh/id_rsa" in message


def test_link_to_a_file_outside_the_root_is_refused(sandbox: PathSandbox, root: Path,
                                                    tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("not yours\n")
    os.link(outside, root / "inside.txt")
    message = _refusal(lambda: read_file(sandbox, "inside.txt"))
    assert "hardlink-unknown" in message and "2 names" in message and "only 1" in message


def test_two_names_inside_the_root_read(sandbox: PathSandbox, root: Path) -> None:
    os.link(root / "README.md", root / "copy.md")
    (root / "sub").mkdir()
    os.link(root / "README.md", root / "sub" / "third.md")
    assert "hello" in read_file(sandbox, "copy.md").summary
    assert "hello" in read_file(sandbox, "sub/third.md").summary


def test_uv_hard_links_from_its_cache_into_the_venv_read(sandbox: PathSandbox, root: Path,
                                                         tmp_path: Path) -> None:
    cache = tmp_path / "uv-cache" / "archive-v0" / "abc" / "pkg"
    cache.mkdir(parents=True)
    (cache / "foo.py").write_text("def foo():\n    return 1\n")
    site = root / ".venv" / "lib" / "python3.12" / "site-packages" / "pkg"
    site.mkdir(parents=True)
    os.link(cache / "foo.py", site / "foo.py")
    assert os.stat(site / "foo.py").st_nlink == 2
    out = read_file(sandbox, ".venv/lib/python3.12/site-packages/pkg/foo.py").summary
    assert "return 1" in out
    node = root / "node_modules" / "left-pad"
    node.mkdir(parents=True)
    os.link(cache / "foo.py", node / "index.js")
    assert "return 1" in read_file(sandbox, "node_modules/left-pad/index.js").summary


def test_a_known_secret_in_a_package_store_is_still_refused(sandbox: PathSandbox, root: Path,
                                                            home: Path) -> None:
    site = root / ".venv" / "lib" / "python3.12" / "site-packages"
    site.mkdir(parents=True)
    os.link(home / ".ssh" / "id_rsa", site / "key.py")
    os.link(root / ".env", site / "env.py")
    assert "hardlink-secret" in _refusal(
        lambda: read_file(sandbox, ".venv/lib/python3.12/site-packages/key.py"))
    assert "hardlink-secret" in _refusal(
        lambda: read_file(sandbox, ".venv/lib/python3.12/site-packages/env.py"))


def test_every_reading_tool_applies_the_rules(sandbox: PathSandbox, root: Path) -> None:
    os.link(root / ".env", root / "notes.txt")
    assert "hardlink-secret" in _refusal(lambda: edit_file(sandbox, "notes.txt", "TOKEN", "T"))
    assert "hardlink-secret" in _refusal(lambda: grep(sandbox, "TOKEN", "notes.txt"))
    assert "No matches" in grep(sandbox, "hunter2", ".").summary
    assert "hardlink-secret" in _refusal(lambda: copy_path(sandbox, "notes.txt", "plain.txt"))
    assert not (root / "plain.txt").exists()
    written = write_file(sandbox, "notes.txt", "new\n")
    assert written.diff is None  # the old content would leak through the diff
    assert (root / ".env").read_text() == "TOKEN=hunter2\n"


def test_a_directory_copy_skips_and_counts_refused_links(sandbox: PathSandbox, root: Path,
                                                         tmp_path: Path) -> None:
    (root / "src").mkdir()
    os.link(root / ".env", root / "src" / "settings.txt")
    (tmp_path / "far.txt").write_text("far\n")
    os.link(tmp_path / "far.txt", root / "src" / "far.txt")
    (root / "src" / "ok.txt").write_text("ok\n")
    out = copy_path(sandbox, "src", "dst").summary
    assert "2 file(s) skipped (hard links" in out
    assert sorted(p.name for p in (root / "dst").iterdir()) == ["ok.txt"]


def test_without_read_rules_only_outside_names_matter(root: Path, tmp_path: Path) -> None:
    plain = PathSandbox([root], cwd=root)
    os.link(root / ".env", root / "notes.txt")
    assert "hunter2" in read_file(plain, "notes.txt").summary
    (tmp_path / "far.txt").write_text("far\n")
    os.link(tmp_path / "far.txt", root / "far.txt")
    assert "hardlink-unknown" in _refusal(lambda: read_file(plain, "far.txt"))


_PLACES = st.sampled_from(["root-plain", "root-secret", "deep-secret", "home-key", "outside",
                           "none"])


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(other=_PLACES, in_store=st.booleans())
def test_property_a_hard_link_never_reads_a_secret_or_an_outside_file(
        other: str, in_store: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        home, root = base / "home", base / "root"
        (home / ".ssh").mkdir(parents=True)
        root.mkdir()
        monkeypatch.setenv("HOME", str(home))
        folder = root / ("node_modules/p" if in_store else "docs")
        folder.mkdir(parents=True)
        name = folder / "file.txt"
        originals = {"root-plain": root / "plain.txt", "root-secret": root / ".env",
                     "deep-secret": root / "x" / ".env",
                     "home-key": home / ".ssh" / "id_rsa", "outside": base / "outside.txt"}
        if other == "none":
            name.write_text("mine\n")
        else:
            originals[other].parent.mkdir(parents=True, exist_ok=True)
            originals[other].write_text("theirs\n")
            os.link(originals[other], name)
        sandbox = PathSandbox([root], cwd=root, deny_read=DENY)
        try:
            read_file(sandbox, str(name))
            readable = True
        except ToolError:
            readable = False
        if other in ("root-secret", "home-key"):
            assert not readable
        elif other == "deep-secret":
            # found by the root walk; a package store skips the walk (a documented limit)
            assert readable is in_store
        elif other == "outside":
            assert readable is in_store  # expected only for package stores
        else:
            assert readable


def test_default_config_through_a_deck(tmp_path: Path, home: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "deck-project"
    project.mkdir()
    monkeypatch.chdir(project)
    (project / ".env").write_text("API_KEY=abc\n")
    os.link(project / ".env", project / "notes.txt")
    os.link(home / ".ssh" / "id_rsa", project / "key.txt")
    cache = tmp_path / "uv-cache"
    cache.mkdir()
    (cache / "mod.py").write_text("VALUE = 1\n")
    site = project / ".venv" / "lib" / "python3.12" / "site-packages"
    site.mkdir(parents=True)
    os.link(cache / "mod.py", site / "mod.py")
    deck = Deck.from_config(None, environ={"TOOLDECK_TOOLS_AUDIT_ENABLED": "false"})
    try:
        for name in ("notes.txt", "key.txt"):
            result = deck.call_sync(ToolCall("read", {"path": name}))
            assert not result.ok and "hardlink-secret" in result.text, result.text
            assert "abc" not in result.text and "BEGIN" not in result.text
        venv = deck.call_sync(ToolCall("read", {"path": str(site / "mod.py")}))
        assert venv.ok and "VALUE = 1" in venv.text
    finally:
        deck.close()
