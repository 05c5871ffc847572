"""Removing regenerable artefacts inside the project: which segments the ``rm `` pattern skips.

Main asked for ``rm -rf __pycache__`` and ``find … -exec rm -rf {} +`` through the confirm
pattern ``rm `` while ``find . -name '*.pyc' -delete`` was allowed. Each loosening here is
checked against its neighbours: another target beside the artefact, an escape, a link out of
the root, a run-time word, a glob of wider scope.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.shell_analysis import analyze
from tooldeck.shell_analysis.artefact_removal import (
    artefact_removals,
    without_artefact_removals,
)
from tooldeck.shell_analysis.artefacts import (
    REGENERABLE_GLOBS,
    REGENERABLE_NAMES,
    is_regenerable,
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (project / "linked").symlink_to(tmp_path / "elsewhere")
    (project / "build").symlink_to(tmp_path / "elsewhere")  # a build dir that leaves the root
    (project / "src" / "dist").mkdir()
    return project


def removed(command: str, root: Path, cwd: Path | None = None) -> set[int]:
    analysis = analyze(command)
    return set(artefact_removals(analysis, [str(root)], str(cwd or root)))


EXEMPT = [
    "rm -rf __pycache__",
    "rm -rf .nyc_output coverage",
    "rm -rf src/dist src/pkg/__pycache__ .pytest_cache",
    "rm -f *.pyc src/pkg/*.pyc",
    "rm -rf src/*.egg-info",
    "rm -rf -- .tox .mypy_cache",
    "unlink .coverage",
    "rm -rf ./node_modules",
    # inside a directory a tool makes again (Criterion's reports under cargo's target)
    "rm -rf ./target/criterion",
    "rm -rf node_modules/.cache src/dist/assets",
    "rm -rf dist/*",
    "rm -rf node_modules dist .turbo",
]


@pytest.mark.parametrize("command", EXEMPT)
def test_a_removal_of_artefacts_in_the_root_is_one(root: Path, command: str) -> None:
    assert removed(command, root) == {0}


STILL_ASKED = [
    "rm -rf build",  # a link out of the root
    "rm -rf linked/__pycache__",  # through a link
    "rm -rf node_modules/../src",  # climbs out of the artefact
    "rm -rf build/x",  # inside an artefact's name that links out of the root
    "rm -rf linked/node_modules/x",
    "rm -rf ./*/target",  # a glob above the artefact
    "rm -rf ./*",  # a glob of unknown scope
    "rm -rf *",
    "rm -rf src/*/__pycache__",  # a glob above the artefact
    "rm -rf dist ~/x",  # something else beside it
    "rm -rf dist src",
    "rm -rf ~/.cache",
    "rm -rf $D/dist",
    'rm -rf "$D"',
    "rm -rf $(pwd)/dist",
    "rm -rf {dist,src}",
    "rm -rf .",
    "rm -rf ..",
    "rm -rf /tmp/dist",  # outside the root
    "rm -rf .env",  # ignored by the templates, not regenerable
    "rm -f db.sqlite3",
    "rm -rf .idea .vscode",
    "rm -f local_settings.py",
    "rm -f app.log",
    "rm -rf *.p*",
    "rm --no-preserve-root -rf dist",  # an option we do not know
    "rm",
    "env -C /etc rm -rf dist",  # another wrapper
    "cd src && rm -rf dist",  # a directory change: relative paths judged elsewhere
    "cd .. && rm -rf dist",
    "(cd /; rm -rf dist)",
    'git commit -m "$(rm -rf dist)"',  # inside a substitution: not the command as written
    "f() { rm -rf dist; }; f",
    "bash -c 'rm -rf dist'",
    # files renamed or linked under an artefact's name first
    "mv src dist && rm -rf dist",
    "git mv src dist; rm -rf dist",
    "ln -s src dist; rm -rf dist/",
    "rsync -a --remove-source-files src/ dist/ && rm -rf dist",
    "mv src dist; find . -name dist -exec rm -rf {} +",
]


@pytest.mark.parametrize("command", STILL_ASKED)
def test_neighbours_of_an_artefact_removal_are_not(root: Path, command: str) -> None:
    assert removed(command, root) == set()


def test_the_root_itself_and_its_ancestors_are_never_artefacts(tmp_path: Path) -> None:
    project = tmp_path / "build"  # a root whose own name is an artefact's
    project.mkdir()
    assert removed(f"rm -rf {project}", project) == set()
    assert removed(f"rm -rf {tmp_path}", project) == set()
    assert removed(f"rm -rf {project}/dist", project) == {0}


def test_an_unknown_working_directory_exempts_nothing(root: Path) -> None:
    assert artefact_removals(analyze("rm -rf dist"), [str(root)], None) == {}


FIND_EXEMPT = [
    "find . -name __pycache__ -type d -prune -exec rm -rf {} +",
    "find . -name '__pycache__' -type d -prune -exec rm -rf {} + && echo cleaned",
    "find src -name '*.pyc' -exec rm -f {} ;",
    "find . -maxdepth 3 -iname .pytest_cache -execdir rm -rf {} +",
]


@pytest.mark.parametrize("command", FIND_EXEMPT)
def test_find_exec_rm_of_artefacts(root: Path, command: str) -> None:
    analysis = analyze(command)
    found = artefact_removals(analysis, [str(root)], str(root))
    assert found[1] is None  # the rm find runs
    kept = found[0]
    assert kept is not None and kept.command == "find"
    assert "rm" not in [w.value for w in kept.words]  # find keeps its tests, not its -exec


FIND_STILL_ASKED = [
    "find / -name __pycache__ -exec rm -rf {} +",
    "find .. -name build -exec rm -rf {} +",
    "find ~ -name __pycache__ -exec rm -rf {} +",
    "find linked -name __pycache__ -exec rm -rf {} +",
    "find -L . -name __pycache__ -exec rm -rf {} +",
    "find . -name __pycache__ -o -name src -exec rm -rf {} +",  # -exec binds to -name src
    "find . ! -name __pycache__ -exec rm -rf {} +",
    "find . \\( -name __pycache__ \\) -exec rm -rf {} +",
    "find . -name '*.py' -exec rm -f {} +",
    "find . -name '*' -exec rm -f {} +",
    "find . -type d -exec rm -rf {} +",  # no name test
    "find . -path ./src -exec rm -rf {} +",
    "find . -name build -exec rm -rf {} + -exec rm -rf src +",
    "find . -name build -exec rm -rf {} src +",
    "find . -name build -exec sh -c 'rm -rf \"$1\"' _ {} ;",
    "find $D -name build -exec rm -rf {} +",
    "find . -name $N -exec rm -rf {} +",
]


@pytest.mark.parametrize("command", FIND_STILL_ASKED)
def test_find_neighbours_are_not(root: Path, command: str) -> None:
    assert removed(command, root) == set()


XARGS = {
    "find . -name __pycache__ -print0 | xargs -0 rm -rf": {1, 2},
    "find . -name '*.pyc' -print0 | xargs --null -r rm -f": {1, 2},
    # split on blanks: a found './src b/build' becomes './src' and 'b/build'
    "find . -name '*.pyc' | xargs rm -f": set(),
    "find . -name build -print0 | xargs rm -rf": set(),
    "find . -name build | xargs -0 rm -rf": set(),
    "find . -name build -print -print0 | xargs -0 rm -rf": set(),
    "{ echo x; find . -name build -print0; } | xargs -0 rm -rf": set(),
    "( echo /x; find . -name dist -print0 ) | xargs -0 rm -rf": set(),
    "find . -name dist -print0 | xargs -0 rm -rf src": set(),
    "find . -name dist -print0 | xargs -0 -I{} rm -rf {} src": set(),
    "find . -name dist -print0 | grep -zv x | xargs -0 rm -rf": set(),
    "find . -name src -print0 | xargs -0 rm -rf": set(),
    "find . -name dist -print0 > l; xargs -0 rm -rf < l": set(),
}


@pytest.mark.parametrize("command", XARGS)
def test_xargs_rm_fed_by_an_artefact_find(root: Path, command: str) -> None:
    assert removed(command, root) & {1} == XARGS[command] & {1}  # the xargs segment


def test_a_command_that_also_removes_something_else_keeps_that_in_view(root: Path) -> None:
    analysis = analyze("rm -rf dist && rm -rf src")
    view = without_artefact_removals(analysis, [str(root)], str(root))
    assert [s.text for s in view.segments] == ["rm -rf src"]


def test_the_catalogue_leaves_out_what_holds_data() -> None:
    for name in (".env", ".env.local", "db.sqlite3", "x.db", "instance", ".idea", ".vscode",
                 "local_settings.py", "app.log", "logs", "lib", "Makefile", "go.mod",
                 "vendor", "x.jar", "x.bak", "*", "*.py", "*.p*", "src", "docs"):
        assert not is_regenerable(name), name
    for name in ("__pycache__", "x.pyc", "*.pyc", "click.egg-info", "node_modules", "target",
                 "build/", "libx.so.1", ".coverage.host.1"):
        assert is_regenerable(name), name


SAFE = sorted(REGENERABLE_NAMES - {"build"}) + [g for g in REGENERABLE_GLOBS if "$" not in g]
UNSAFE = ["src", "docs", "README.md", ".env", "*", "./*", "..", "../dist", "~/dist", "/tmp/dist",
          "$D", "dist/../src", "build", "linked/dist", "{a,b}", "*/dist", "x.db", ".git"]


def spelled(name: str) -> str:
    """A name as a command line gives it: globs, variables and ``~`` bare, the rest quoted."""
    return name if name.startswith(("$", "{", "~")) or "*" in name else f"'{name}'"


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.sampled_from(SAFE).map(lambda n: ("safe", n)),
                          st.sampled_from(UNSAFE).map(lambda n: ("unsafe", n))),
                min_size=1, max_size=4),
       st.sampled_from(["-rf", "-f", "-r", "-fr", "-R", "--recursive --force"]))
def test_exempt_exactly_when_every_operand_is_an_artefact(
        root: Path, operands: list[tuple[str, str]], options: str) -> None:
    command = f"rm {options} " + " ".join(spelled(name) for _, name in operands)
    expected = {0} if all(kind == "safe" for kind, _ in operands) else set()
    assert removed(command, root) == expected, command


def test_symlink_fixture_is_what_it_says(root: Path) -> None:
    assert os.path.islink(root / "build") and not str(os.path.realpath(root / "build")).startswith(
        str(root))
