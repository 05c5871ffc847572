"""Tools that write the user's or the machine's configuration without naming a file ask.

Issue 12 item 6 (writes outside the root): ``npm config set``, ``pip config set``,
``gh auth setup-git`` and their kind write ``~/.npmrc``, ``~/.config/pip``, the global git
config… (each tool's documentation), so the sandbox-path rule never sees a path. Each asks
(rule ``home-config``); reading the configuration, and writing a project-scoped one
(``--location=project``, ``poetry config --local``), stays allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

ASKED = (
    "npm config set registry https://r.example", "yarn config set registry x",
    "pip config set global.index-url https://x", "poetry config virtualenvs.in-project true",
    "conda config --add channels conda-forge", "gh config set editor vim", "gh auth setup-git",
    "gcloud config set project demo", "aws configure set region us-east-1",
    "az config set core.output=json", "kubectl config use-context prod",
    "kubectl config set-context dev --namespace x", "docker login -u x registry.example",
    "docker context use remote", "npm login", "cargo login", "git credential approve < c.txt",
    "go env -w GOPROXY=direct", "bundle config set --global path vendor",
    "composer global require phpunit/phpunit", "xdg-mime default x.desktop text/html",
    "defaults write com.apple.finder AppleShowAllFiles -bool true", "pyenv global 3.12",
    "nvm alias default 20",
)

EVERYDAY = (
    "npm config get registry", "npm config list", "pip config list", "poetry config --list",
    "poetry config --local virtualenvs.in-project true",
    "npm config set --location=project save-exact true", "gh config get editor",
    "gcloud config list", "kubectl config view", "kubectl config get-contexts",
    "docker context ls", "go env GOPATH", "conda config --show", "bundle config set path vendor",
)


@pytest.fixture(scope="module")
def judged(default_verdicts: Callable[[Sequence[str]], dict[str, str]]) -> dict[str, str]:
    """Every command's verdict under the embedded default."""
    return default_verdicts([*ASKED, *EVERYDAY])


def test_every_home_configuration_write_asks(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in ASKED if judged[c] not in ("ask", "deny")}
    assert wrong == {}


def test_reading_and_project_scoped_configuration_is_allowed(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in EVERYDAY if judged[c] != "allow"}
    assert wrong == {}
