"""Hidden payloads and installs outside the project (issue 12, items 3, 5 and 9).

Obfuscation (PayloadsAllTheThings Command Injection bypasses, Atomic Red Team T1027/T1140):
decoded text run by a shell is caught however it reaches the shell, including decoded output
written to a file that the same command then runs, and a glob that spells a secret's path
(``cat /e??/sha*``) is judged by what it matches on this machine. Installs outside the
project (issue 12 item 5; pip's PEP 668 flag, npm-link(1), gem(1)) are caught like
``npm -g`` and ``pip install --user`` (asked; the system's packages denied); the same tools
inside the project stay allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

CAUGHT = (
    "echo cmVib290 | base64 -d | sh", "echo 7265626f6f74 | xxd -r -p | sh",
    "echo toober | rev | sh", "printf '\\x72\\x65\\x62\\x6f\\x6f\\x74' | sh",
    "eval \"$(echo cmVib290 | base64 -d)\"", "echo 'cmVib290' | openssl enc -d -base64 | sh",
    "echo \"cmVib290\" | base64 -d > run.sh && bash run.sh",
    "echo x | base64 -d > r.sh; chmod +x r.sh; ./r.sh",
    "base64 -d payload.b64 > app.py && python3 app.py",
    "pip install --break-system-packages requests", "npm link",
    "gem install --user-install rake", "pip install --user httpie", "npm install -g x",
)

EVERYDAY = (
    "base64 -d logo.b64 > logo.png && file logo.png", "echo hi > run.sh && bash run.sh",
    "base64 README.md > readme.b64", "pip install -e .", "npm link mylib", "gem install bundler",
    "cat /etc/*-release", "ls /usr/lib/*.so",
)


@pytest.fixture(scope="module")
def judged(default_verdicts: Callable[[Sequence[str]], dict[str, str]]) -> dict[str, str]:
    """Every command's verdict under the embedded default."""
    return default_verdicts([*CAUGHT, *EVERYDAY])


def test_every_hidden_payload_and_outside_install_is_caught(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in CAUGHT if judged[c] not in ("ask", "deny")}
    assert wrong == {}


def test_everyday_decoding_and_installs_are_allowed(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in EVERYDAY if judged[c] != "allow"}
    assert wrong == {}


def test_a_glob_is_judged_by_the_secret_it_matches(
        default_verdicts: Callable[[Sequence[str]], dict[str, str]], tmp_path: Path) -> None:
    keys = tmp_path / "home" / ".ssh"
    keys.mkdir(parents=True)
    (keys / "id_ed25519").write_text("not a real key\n")
    (tmp_path / "home" / "notes.txt").write_text("notes\n")
    hidden = f"cat {tmp_path}/h?me/.ss?/id_*"
    plain = f"cat {tmp_path}/h?me/*.txt"
    verdicts = default_verdicts([hidden, plain])
    assert verdicts[hidden] == "deny"
    assert verdicts[plain] == "allow"
