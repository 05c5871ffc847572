"""Links created by the command itself: targets outside the root or secret, paths through them.

Every command is judged under the embedded default configuration in a project directory that
holds a ``.env``, nested directories and an existing symlink, by the same gates a real call
meets. The commands that were *allowed* before the link rules existed are marked "escape".
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.deck import Deck


@pytest.fixture
def project(sandbox: Path) -> Path:
    """The project: a secret, a key, nested directories, a symlink out of the root."""
    (sandbox / ".env").write_text("TOKEN=hunter2\n")
    (sandbox / "deploy.key").write_text("secret key\n")
    (sandbox / "a" / "b" / "c").mkdir(parents=True)
    (sandbox / "shared" / "lib").mkdir(parents=True)
    (sandbox / "app").mkdir()
    (sandbox / "build" / "out").mkdir(parents=True)
    (sandbox / "docs").mkdir()
    (sandbox / "etc-link").symlink_to("/etc")
    return sandbox


@pytest.fixture
def deck(project: Path, make_deck: Callable[..., Deck]) -> Deck:
    """A deck on the embedded default configuration, the project as its root."""
    return make_deck(default=True)


# Escapes: allowed before the link rules (each one a real way out of the root or to a secret).
ESCAPES = {
    # ``.`` is no path word: ``up/../outside`` was checked as ``./outside``
    "ln -s . up && echo x > up/../outside": ("ask", "link-through"),
    # an absolute target inside the root, used from deeper down: a/b/c/L/../../.. is /
    "ln -s {root} a/b/c/L && cat a/b/c/L/../../../etc/passwd": ("ask", "link-through"),
    "mkdir d && ln -s {root} d/r && cat d/r/../x": ("ask", "link-through"),
    # secrets under a second name
    "ln .env notes.txt": ("deny", "link-secret"),
    "ln -s .env notes.txt": ("deny", "link-secret"),
    "ln -sf .env notes.txt; cat notes.txt": ("deny", "link-secret"),
    "ln --symbolic deploy.key k": ("deny", "link-secret"),
    "cp -l .env copy": ("deny", "link-secret"),
    "cp --link .env copy": ("deny", "link-secret"),
    "cp --li .env copy": ("deny", "link-secret"),
    "cp -s .env copy": ("deny", "link-secret"),
    "cp -rs .env copy": ("deny", "link-secret"),
    "link .env copy": ("deny", "link-secret"),
    "ln -t docs .env": ("deny", "link-secret"),
    "ln -st docs .env": ("deny", "link-secret"),
    "ln --target-directory=docs .env": ("deny", "link-secret"),
    "ln -s README .env docs": ("deny", "link-secret"),
    "ln -T .env docs/x": ("deny", "link-secret"),
    "bash -c 'ln .env n'": ("deny", "link-secret"),
    "sh -c \"ln -s .env n && cat n\"": ("deny", "link-secret"),
    "env ln .env n": ("deny", "link-secret"),
    "nohup ln .env n": ("deny", "link-secret"),
    "timeout 5 ln -s .env n": ("deny", "link-secret"),
    "find . -maxdepth 0 -exec ln .env n \\;": ("deny", "link-secret"),
    "ln -- .env n": ("deny", "link-secret"),
    "ln .env": ("deny", "link-secret"),
    # the existing symlink: the kernel follows etc-link before ``..``
    "cat etc-link/../etc/passwd": ("ask", "link-dotdot"),
    # link creations the analyser cannot see
    "ln -s ?? up": ("ask", "link-unclear"),
    "ln -s \"$T\" up": ("ask", "link-unclear"),
    "cat list | xargs ln -s -t .": ("ask", "link-unclear"),
    "xargs -a list ln -s": ("ask", "link-unclear"),
    "ln --frobnicate x y": ("ask", "link-unclear"),
    "ln --s x y": ("ask", "link-unclear"),
    "python -c \"import os; os.symlink('/', 'r')\"": ("ask", "link-unclear"),
    "python3 -c 'import os; os.link(\"/etc/passwd\", \"p\")'": ("ask", "link-unclear"),
    "python3 -c 'from pathlib import Path; Path(\"r\").symlink_to(\"/\")'": ("ask", "link-unclear"),
    "node -e \"require('fs').symlinkSync('/', 'r')\"": ("ask", "link-unclear"),
    "perl -e 'symlink(\"/\", \"r\")'": ("ask", "link-unclear"),
    "ruby -e 'File.symlink(\"/\", \"r\")'": ("ask", "link-unclear"),
    "python -c 'import subprocess; subprocess.run([\"ln\", \"-s\", \"/\", \"r\"])'": (
        "ask", "link-unclear"),
    # a link, then a directory change: relative paths no longer mean what was checked
    "ln -s shared/lib l && cd app && ls": ("ask", "link-cd"),
}

# Denied before too (by the path check), still denied: the many spellings of a link out.
STILL_DENIED = [
    "ln -s . up; cat up/../../etc/passwd",
    "ln -s .. up && echo x > up/../outside",
    "ln -s /etc/shadow x; cat x",
    "ln -sf / r",
    "ln --symbolic /etc e",
    "ln -T / r",
    "ln -sT /etc e",
    "cp -s /etc/passwd p",
    "cp -l /etc/passwd p",
    "cp --link /etc/hostname h",
    "link /etc/passwd p",
    "ln /etc/hostname h",
    "ln -s /etc/passwd /etc/group docs",
    "ln -s ../../ up",
    "ln -s ../../etc app/y",
    "ln ~/.ssh/id_rsa k",
    "ln -s ~/.ssh/id_rsa k",
    "ln -s $HOME/.ssh k",
    "bash -c 'ln -s / r && cat r/etc/passwd'",
    "sudo ln -s / r",
    "env ln -s / r",
    "xargs ln -s / ",
    "mkdir d && ln -s / d/r && cat d/r/etc/passwd",
    "ln -s a/../../.. up",
    "ln -s -t docs /",
    "ln -st docs ../..",
    "ln -s a/b/c/../../../.. up",
]

ORDINARY = [
    "ln -s ../shared/lib app/lib",
    "ln -s ../x app/y",
    "ln -sf build/out current",
    "ln -sfn build/out current",
    "ln -sf build/out current && ls current",
    "ln -sf build/out current && ls current/",
    "ln -s shared/lib",
    "ln -s README.md docs/",
    "ln -s ../README.md docs/readme",
    "ln -srf shared/lib app/lib",
    "ln README.md docs/README.md",
    "cp -l README.md copy.md",
    "cp -r src dst",
    "cp -a build/out backup",
    "ln -s /dev/null app.log",
    "ln -s .env.example .env.sample",
    "python3 -c 'print(1)'",
    "cat a/../README.md",
]


@pytest.fixture
def verdict(deck: Deck, helpers: Any) -> Callable[[str], tuple[str, str | None, str]]:
    """``(verdict, rule, gate)`` of every gate's combined vote on a command."""
    def judge(command: str) -> tuple[str, str | None, str]:
        result: tuple[str, str | None, str] = helpers.verdict_of(deck, command)
        return result
    return judge


@pytest.mark.parametrize(("command", "expected"), ESCAPES.items())
def test_escape_is_closed(verdict: Any, project: Path, command: str,
                          expected: tuple[str, str]) -> None:
    assert verdict(command.replace("{root}", str(project)))[:2] == expected


@pytest.mark.parametrize("command", STILL_DENIED)
def test_link_out_of_the_root_is_denied(verdict: Any, command: str) -> None:
    assert verdict(command)[0] == "deny"


@pytest.mark.parametrize("command", ORDINARY)
def test_ordinary_link_is_allowed(verdict: Any, command: str) -> None:
    assert verdict(command) == ("allow", "tools.permissions.bash[0]", "permissions")


def test_symlink_target_is_judged_from_the_links_directory(verdict: Any) -> None:
    # ../shared/lib seen from app/ is ./shared/lib, from the project root it is outside
    assert verdict("ln -s ../shared/lib app/lib")[0] == "allow"
    assert verdict("ln -s ../shared/lib lib")[:2] == ("deny", "link-outside")


def test_an_existing_directory_operand_receives_the_link(verdict: Any, project: Path) -> None:
    # ``ln -s ../x app`` makes app/x -> ../x, that is ./x: inside
    assert verdict("ln -s ../README.md app")[0] == "allow"
    (project / "app" / "inner").mkdir()
    assert verdict("ln -s ../../x app/inner")[0] == "allow"
    # as a file name (app/new does not exist yet) the same target would climb out
    assert verdict("ln -s ../../x app/new")[0] == "deny"


def test_a_symlinked_link_directory_is_resolved_physically(verdict: Any, project: Path) -> None:
    # app/far -> a/b/c: a link made in it climbs from a/b/c, not from app
    (project / "app" / "far").symlink_to(project / "a" / "b" / "c")
    assert verdict("ln -s ../../../.. app/far/up")[0] == "deny"
    assert verdict("ln -s ../../.. app/far/up")[0] == "allow"


def test_the_secret_list_is_the_file_tools_read_rules(make_deck: Callable[..., Deck],
                                                      project: Path, helpers: Any) -> None:
    deck = make_deck('[tools.file]\ndeny_read = ["**/*.secret"]\n')
    (project / "x.secret").write_text("s")
    assert helpers.shell_vote(deck, "ln x.secret n").rule == "link-secret"
    assert helpers.shell_vote(deck, "ln .env n").rule != "link-secret"


async def test_escape_does_not_run(deck: Deck, project: Path, helpers: Any) -> None:
    outside = project.parent / "outside"
    result = await helpers.run(deck, "ln -s . up && echo x > up/../outside")
    assert not outside.exists()
    assert "link-through" in str(result)


async def test_secret_hard_link_is_not_made(deck: Deck, project: Path, helpers: Any) -> None:
    result = await helpers.run(deck, "ln .env notes.txt")
    assert not (project / "notes.txt").exists()
    assert "link-secret" in str(result)


_SPELLINGS = st.sampled_from([
    "ln -s {t} {n}", "ln -sf {t} {n}", "ln --symbolic {t} {n}", "ln -sT {t} {n}",
    "ln -sfn {t} {n}", "cp -s {t} {n}", "ln {t} {n}", "link {t} {n}", "cp -l {t} {n}",
    "ln -s -t {d} {t}", "ln -s {t} x {d}/", "bash -c 'ln -s {t} {n}'", "env ln -s {t} {n}",
    "ln -s {t} {n} && cat {n}/x",
])


@st.composite
def _outside_link(draw: st.DrawFn) -> str:
    """A link command whose target lies outside the project, spelt one of many ways."""
    depth = draw(st.integers(0, 3))
    directory = "/".join(["a", "b", "c"][:depth]) or "."
    name = f"{directory}/n{draw(st.integers(0, 9))}"
    climb = draw(st.integers(depth + 1, depth + 4))
    tail = draw(st.sampled_from(["", "etc", "etc/passwd", "x/y", "."]))
    target = draw(st.one_of(
        st.just("/".join([".."] * climb + ([tail] if tail else []))),
        st.sampled_from(["/", "/etc", "/etc/passwd", "/tmp", "~", "~/.ssh/id_rsa"]),
    ))
    return draw(_SPELLINGS).format(t=target, n=name, d=directory)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=_outside_link())
def test_property_a_link_out_of_the_root_is_never_allowed(verdict: Any, command: str) -> None:
    # ``{t}`` climbs above the link's directory *and* the project, or is absolute outside
    assert os.getcwd().endswith("project")
    assert verdict(command)[0] != "allow", command


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spelling=_SPELLINGS, secret=st.sampled_from([".env", "deploy.key", "./.env",
                                                    "a/../.env"]))
def test_property_a_link_to_a_secret_is_never_allowed(verdict: Any, spelling: str,
                                                      secret: str) -> None:
    command = spelling.format(t=secret, n="docs/n", d="docs")
    assert verdict(command)[0] != "allow", command


def test_inventory_is_large(project: Any) -> None:
    assert len(ESCAPES) + len(STILL_DENIED) >= 60
