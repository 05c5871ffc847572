"""A secret read by a path relative to a directory the command changed to is denied.

Main resolved every relative path from where the command starts, so ``cd ~/.config/gh && cat
hosts.yml`` (GitHub CLI's token), ``cd ~/.kube && cat config`` and ``cd /proc/self && cat
environ`` were allowed: ``hosts.yml``, ``config`` and ``environ`` name nothing secret in the
project. The rule only adds denials; a project's own files after ``cd`` keep their verdict.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.shell_analysis import analyze
from tooldeck.shell_analysis.changed_directory import changed_directory_secret_finding

Judge = Callable[[Sequence[str]], dict[str, str]]

DENIED = [
    "cd ~/.config/gh && cat hosts.yml",
    "cd ~/.docker && cat config.json",
    "cd ~/.kube && cat config",
    "cd ~/.kube; cat config",
    "(cd ~/.kube && cat config)",
    "cd ~ && cd .kube && head config",
    "pushd ~/.aws && cat credentials && popd",
    "cd ~/.config && cat gh/hosts.yml",
    "cd /proc/self && cat environ",
    "cd ~/.local/share/keyrings && base64 login.keyring",
    "cd /var/run/secrets/kubernetes.io/serviceaccount && cat token",
    "cd ~/.ssh && tail -n +1 id_ed25519",
    "cd ~ && cp .netrc project-copy.txt",
]

ALLOWED = [
    "cd src && cat config.py",
    "cd tests && cat fixtures/credentials_test.json",
    "cd docs && grep -rn token .",
    "cd frontend && cat .env.example",
    "cd backend && cat settings/secrets.example.yaml",
    "cd src && cat token.ts",
    "cd /usr/share/doc && cat bash/README",
]


@pytest.mark.parametrize("command", DENIED)
def test_a_secret_relative_to_a_changed_directory_is_denied(default_verdicts: Judge,
                                                            command: str) -> None:
    assert default_verdicts([command])[command] == "deny"


@pytest.mark.parametrize("command", ALLOWED)
def test_project_files_after_a_change_of_directory_stay_allowed(default_verdicts: Judge,
                                                                command: str) -> None:
    assert default_verdicts([command])[command] == "allow"


SECRETS = ["~/.config/gh/hosts.yml", "~/.docker/config.json", "~/.kube/config",
           "~/.aws/credentials", "~/.ssh/id_rsa", "/proc/1/environ",
           "~/.local/share/keyrings/login.keyring", "/etc/ssl/private/server.key",
           "~/.git-credentials", "~/.pgpass"]


@settings(max_examples=200, deadline=None)
@given(secret=st.sampled_from(SECRETS), data=st.data(),
       reader=st.sampled_from(["cat", "head", "less", "base64", "xxd", "strings", "sort"]),
       joiner=st.sampled_from([" && ", "; ", "\n"]))
def test_every_split_of_a_secret_path_is_caught(secret: str, data: st.DataObject,
                                                reader: str, joiner: str) -> None:
    # cd into any ancestor of the secret, then read the rest by a relative path
    parts = secret.split("/")
    cut = data.draw(st.integers(min_value=1, max_value=len(parts) - 1))
    directory, rest = "/".join(parts[:cut]) or "/", "/".join(parts[cut:])
    command = f"cd {shlex.quote(directory) if not directory.startswith('~') else directory}" \
              f"{joiner}{reader} {shlex.quote(rest)}"
    found = changed_directory_secret_finding(analyze(command), os.getcwd(), [os.getcwd()])
    assert found is not None and found.rule == "secret-read", command
