"""Developer sessions: tests, lint, typecheck, wheel (installed, not editable), docs."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import nox

nox.options.sessions = ["tests", "lint", "typecheck"]
ROOT = Path(__file__).parent


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite against an editable install (what CI runs)."""
    session.install("-e", ".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over the whole tree."""
    session.install("ruff>=0.6")
    session.run("ruff", "check", ".")


def _link_farm(tmp: str) -> str:
    """The package as it is installed: tooldeck/ with plugins/ and filters/ inside."""
    pkg = Path(tmp) / "tooldeck"
    pkg.mkdir()
    for entry in (ROOT / "core").iterdir():
        (pkg / entry.name).symlink_to(entry)
    (pkg / "plugins").symlink_to(ROOT / "plugins")
    (pkg / "filters").symlink_to(ROOT / "filters")
    return tmp


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict on the package as installed (core, plugins, filters)."""
    session.install("-e", ".[test]", "mypy>=1.10")
    with tempfile.TemporaryDirectory() as tmp:
        farm = _link_farm(tmp)
        session.chdir(farm)
        session.run("mypy", "--config-file", str(ROOT / "pyproject.toml"), "-p", "tooldeck")


@nox.session
def wheel(session: nox.Session) -> None:
    """Build the wheel, install it (not editable) in a fresh venv, run the suite against it."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "src"  # build from a copy: an in-tree build leaves build/ behind
        shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
            ".git", ".venv", ".nox", "build", "*.egg-info", "__pycache__"))
        session.run("python", "-m", "pip", "wheel", "--no-deps", "-w", tmp, str(source))
        wheels = list(Path(tmp).glob("tooldeck-*.whl"))
        session.install(str(wheels[0]) + "[test]")
        session.chdir(tmp)  # so the source folders cannot shadow the installed package
        session.run("pytest", str(ROOT / "tests"), "-p", "no:cacheprovider",
                    "--rootdir", str(ROOT), *session.posargs,
                    env={"TOOLDECK_TESTS_INSTALLED": "1", **os.environ})


@nox.session
def docs(session: nox.Session) -> None:
    """Check the docs (every hook and key documented, references current) and build the site."""
    session.install("-e", ".[test]")
    session.run("pytest", "tests/plugin_api/test_hooks_documented.py", "tests/docs",
                *session.posargs)
    with tempfile.TemporaryDirectory() as site:
        session.run("mkdocs", "build", "--strict", "--site-dir", site,
                    env={"NO_MKDOCS_2_WARNING": "1"})
