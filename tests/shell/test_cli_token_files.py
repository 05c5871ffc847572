"""Developer CLIs' token files, by the locations their documentation gives, are secrets.

Each location holds a token or password the CLI writes at login (the CLIs' own docs; the
same tokens are gitleaks' and trufflehog's detectors): read outside the project they are
denied like ``~/.aws/credentials``, and their neighbours that hold no secret stay readable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

Judge = Callable[[Sequence[str]], dict[str, str]]

TOKEN_FILES = [
    "~/.fly/config.yml", "~/.config/vercel/auth.json", "~/.config/stripe/config.toml",
    "~/.ngrok2/ngrok.yml", "~/.config/ngrok/ngrok.yml", "~/.mc/config.json",
    "~/.gradle/gradle.properties", "~/.m2/settings.xml", "~/.snowsql/config",
    "~/.dbt/profiles.yml", "~/.ibmcloud/config.json", "~/.aliyun/config.json",
    "~/.config/hcloud/cli.toml", "~/.linode-cli", "~/.circleci/cli.yml",
    "~/.travis/config.yml", "~/.config/glab-cli/config.yml", "~/.config/tea/config.yml",
    "~/.tsh/keys/proxy.example.com/alice", "~/.step/secrets/root_ca_key", "~/.netrc.gpg",
    "~/.viminfo",
]
READERS = ["cat {}", "head -n 5 {}", "grep -i token {}", "base64 {}"]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("path", TOKEN_FILES)
def test_cli_token_files_are_secrets(default_verdicts: Judge, path: str, reader: str) -> None:
    command = reader.format(path)
    assert default_verdicts([command])[command] == "deny"


@pytest.mark.parametrize("command", [
    "cat ~/.gitconfig", "ls ~/.gradle", "cat ~/.config/gh/config.yml",
    "cat gradle.properties", "cat pom.xml",
])
def test_their_neighbours_stay_readable(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] == "allow"
