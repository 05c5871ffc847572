"""The file tools skip what a project's developers ignore, decided as ``git check-ignore`` does."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.search import find_path, grep
from tooldeck.plugins.files.tree_ops import list_directory

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

_GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def _git(root: Path, *args: str, stdin: str = "") -> str:
    done = subprocess.run(
        ["git", "-c", f"core.excludesFile={os.devnull}", *args], cwd=root, input=stdin,
        capture_output=True, text=True, env=_GIT_ENV, check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)


def _all_files(root: Path) -> list[str]:
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        found += [os.path.relpath(os.path.join(dirpath, f), root) for f in filenames]
    return sorted(found)


def _git_visible(root: Path) -> set[str]:
    files = _all_files(root)
    if not files:
        return set()
    ignored = set(_git(root, "check-ignore", "--stdin", stdin="".join(f + "\n" for f in files))
                  .split("\n"))
    return set(files) - ignored


def _our_visible(root: Path) -> set[str]:
    sandbox = PathSandbox([root], cwd=root)
    result = find_path(sandbox, ".", "**", max_results=10_000)
    listed = result.summary.split("\n") if not result.summary.startswith("No files") else []
    return {os.path.relpath(p, root) for p in listed if os.path.isfile(p)}


PROJECT = {
    ".gitignore": "*.log\n!keep.log\nbuild/\n/local.py\n",
    ".git/info/exclude": "scratch.py\n",
    ".ignore": "notes.txt\n",
    "README.md": "needle\n",
    "local.py": "needle\n",
    "app.log": "needle\n",
    "keep.log": "needle\n",
    "notes.txt": "needle\n",
    "src/app.py": "needle = 1\n",
    "src/local.py": "needle = 1\n",
    "src/scratch.py": "needle = 1\n",
    "src/.gitignore": "gen/\n*.py\n!keep.py\n!app.py\n",
    "src/keep.py": "needle = 1\n",
    "src/other.py": "needle = 1\n",
    "src/gen/keep.py": "needle = 1\n",
    "src/lib/.gitignore": "!other.py\n",
    "src/lib/other.py": "needle = 1\n",
    "build/out.py": "needle = 1\n",
    ".venv/pyvenv.cfg": "home = /usr/bin\n",
    ".venv/lib/python3.11/site-packages/pkg/mod.py": "needle = 1\n",
    "node_modules/pkg/index.js": "needle\n",
    "pkg/__pycache__/mod.cpython-311.pyc": "needle\n",
    "pkg/mod.py": "needle = 1\n",
}
"""A project with an in-project venv, node_modules, nested ignore files and negations."""

OWN_PY = ["pkg/mod.py", "src/app.py", "src/keep.py", "src/lib/other.py"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    _git(root, "init", "-q")
    _write(root, PROJECT)
    return root


def test_find_path_lists_the_projects_own_python_files(project: Path) -> None:
    sandbox = PathSandbox([project], cwd=project)
    found = find_path(sandbox, ".", "**/*.py").summary.split("\n")
    assert found == [f"{project}/{rel}" for rel in OWN_PY]


def test_find_path_include_ignored_lists_everything(project: Path) -> None:
    sandbox = PathSandbox([project], cwd=project)
    found = find_path(sandbox, ".", "**/*.py", include_ignored=True).summary.split("\n")
    assert f"{project}/.venv/lib/python3.11/site-packages/pkg/mod.py" in found
    assert f"{project}/build/out.py" in found
    assert f"{project}/src/gen/keep.py" in found
    assert len(found) == 11


def test_decisions_match_git_check_ignore_on_the_project(project: Path) -> None:
    (project / ".ignore").unlink()  # git does not read .ignore
    expected = {p for p in _git_visible(project)
                if not p.startswith((".venv/", "node_modules/", "pkg/__pycache__/"))}
    assert _our_visible(project) == expected


def test_dot_ignore_overrides_gitignore(project: Path) -> None:
    sandbox = PathSandbox([project], cwd=project)
    assert find_path(sandbox, ".", "*.txt").summary.startswith("No files matching")
    (project / ".ignore").write_text("!*.log\n")
    found = find_path(sandbox, ".", "*.log").summary.split("\n")
    assert found == [f"{project}/app.log", f"{project}/keep.log"]


def test_grep_skips_ignored_files_unless_asked(project: Path) -> None:
    sandbox = PathSandbox([project], cwd=project)
    hits = {line.split(":")[0] for line in grep(sandbox, "needle", ".").summary.split("\n")}
    assert hits == {f"{project}/{rel}" for rel in ["README.md", "keep.log", *OWN_PY]}
    everything = grep(sandbox, "needle", ".", include_ignored=True).summary
    assert f"{project}/node_modules/pkg/index.js:1: needle" in everything
    assert f"{project}/build/out.py:1: needle = 1" in everything


def test_grep_searches_a_named_ignored_file(project: Path) -> None:
    sandbox = PathSandbox([project], cwd=project)
    assert grep(sandbox, "needle", "app.log").summary == f"{project}/app.log:1: needle"


def test_list_directory_hides_ignored_entries_and_says_so(project: Path) -> None:
    sandbox = PathSandbox([project], cwd=project)
    listing = list_directory(sandbox, ".").summary.split("\n")
    assert listing == [
        "[dir]  pkg", "[dir]  src",
        "[file] .gitignore", "[file] .ignore", "[file] README.md", "[file] keep.log",
        "[7 ignored entries not listed; include_ignored=true lists them]",
    ]
    full = list_directory(sandbox, ".", include_ignored=True).summary.split("\n")
    assert "[dir]  .venv" in full and "[dir]  node_modules" in full and "[file] app.log" in full


def test_rules_of_a_parent_apply_when_walking_a_subdirectory(project: Path) -> None:
    sandbox = PathSandbox([project], cwd=project)
    found = find_path(sandbox, "src", "**/*.py").summary.split("\n")
    assert found == [f"{project}/src/app.py", f"{project}/src/keep.py",
                     f"{project}/src/lib/other.py"]


def test_ignore_files_outside_the_sandbox_are_not_read(project: Path) -> None:
    sandbox = PathSandbox([project / "src"], cwd=project / "src")
    found = find_path(sandbox, ".", "**/*.py").summary.split("\n")
    assert f"{project}/src/local.py" not in found  # src/.gitignore: *.py applies
    assert f"{project}/src/scratch.py" not in found
    (project / "src" / ".gitignore").unlink()
    found = find_path(sandbox, ".", "**/*.py").summary.split("\n")
    assert f"{project}/src/scratch.py" in found  # .git/info/exclude is outside the sandbox


def test_a_read_denied_ignore_file_is_not_used(project: Path) -> None:
    sandbox = PathSandbox([project], cwd=project, deny_read=["**/src/.gitignore"])
    found = find_path(sandbox, "src", "*.py").summary.split("\n")
    assert f"{project}/src/other.py" in found


def test_a_cut_list_says_how_many_there_were(tmp_path: Path) -> None:
    for i in range(1_418):
        (tmp_path / f"m{i:04d}.py").write_text("")
    sandbox = PathSandbox([tmp_path], cwd=tmp_path)
    lines = find_path(sandbox, ".", "*.py").summary.split("\n")
    assert len(lines) == 201
    assert lines[-1] == "200 of 1,418 paths; narrow the pattern"


# --------------------------------------------------------------------------- property

_NAMES = ("a", "b", "keep.py", "x.py", "y.txt", "z.log")
_PATTERNS = (
    "*.py", "!keep.py", "a/", "b", "/a", "a/**", "!a/x.py", "**/b/x.py", "*.log", "!*.log",
    "a/*", "x.*", "**/keep.py", "!b/", "a/b/", "/*.txt", "!a/", "b/*.py", "**/a", "!**/x.py",
    "[ab]", "?.py", "a/**/x.py", "!a/**", "*", "!*/", "\\!keep.py", "#a", "b/ ",
)
_DIRS = ("", "a", "b", "a/b", "b/a", "a/a")


@st.composite
def _trees(draw: st.DrawFn) -> dict[str, str]:
    files: dict[str, str] = {}
    for directory in _DIRS:
        for name in draw(st.lists(st.sampled_from(_NAMES[2:]), max_size=3, unique=True)):
            files[f"{directory}/{name}".lstrip("/")] = ""
    for directory in draw(st.lists(st.sampled_from(_DIRS), max_size=3, unique=True)):
        lines = draw(st.lists(st.sampled_from(_PATTERNS), min_size=1, max_size=5))
        files[f"{directory}/.gitignore".lstrip("/")] = "\n".join(lines) + "\n"
    if draw(st.booleans()):
        files[".git/info/exclude"] = draw(st.sampled_from(_PATTERNS)) + "\n"
    return files


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=_trees())
def test_decisions_match_git_check_ignore_on_generated_trees(files: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _git(root, "init", "-q")
        _write(root, files)
        assert _our_visible(root) == _git_visible(root)
