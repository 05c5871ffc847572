"""Paths the gate used not to see (issue 12): words after a redirection, ``< file`` sources,
and secret files inside the project; and ``/etc/passwd`` is not a secret.

Every example goes through a real deck built from the embedded default configuration.
"""

from __future__ import annotations

from typing import Any

import pytest

from tooldeck.shell_analysis import analyze


def _verdict(make_deck: Any, helpers: Any, command: str) -> str:
    return str(helpers.verdict_of(make_deck("", default=True), command)[0])


def test_words_after_a_redirection_are_arguments() -> None:
    assert analyze("ls 2>/dev/null -la /srv/data").segments[0].argv == (
        "ls", "-la", "/srv/data")
    found = analyze("find . -name x 2>/dev/null -exec rm {} +")
    assert [s.command for s in found.segments] == ["find", "rm"]


def test_input_redirection_sources_are_recorded() -> None:
    assert analyze("sort -u < data/in.txt > out.txt").input_sources == ("data/in.txt",)


@pytest.mark.parametrize("command", [
    "cat 2>/dev/null ~/.aws/credentials", "head -c 100 2>&1 ~/.ssh/id_ed25519",
    "cp 2>/dev/null notes.txt /opt/elsewhere/", "wc -c < ~/.git-credentials",
    "tr a b < /proc/self/environ", "while read -r l; do :; done < ~/.netrc",
])
def test_paths_hidden_behind_redirections_are_judged(make_deck: Any, helpers: Any,
                                                    command: str) -> None:
    assert _verdict(make_deck, helpers, command) == "deny", command


@pytest.mark.parametrize("command", [
    "cat .env", "grep DB_ .env.local", "source .env.production", ". ./.env",
    "cat keys/signing.key", "openssl pkey -in tls/privkey.pem -noout -text",
    "base64 deploy/id_ed25519", "cat nested/.aws/credentials", "xxd service.p12",
    "cp .env /srv/backup/", "sed -n 1p config/.env",
])
def test_secret_files_inside_the_project_are_denied(make_deck: Any, helpers: Any,
                                                    command: str) -> None:
    assert _verdict(make_deck, helpers, command) == "deny", command


@pytest.mark.parametrize("command", [
    "cp .env.example .env", "echo DEBUG=1 >> .env", "test -f .env && echo present",
    "ls -la .env", "cat .env.example", "openssl x509 -in tls/fullchain.pem -noout -dates",
    "cat src/credentials.py", "sort < data/in.txt", "wc -l < /etc/os-release",
    "cat /etc/passwd", "grep -c bash /etc/passwd", "cut -d: -f1 /etc/group",
    "ls 2>/dev/null src", "sed -i 's/DEBUG=0/DEBUG=1/' .env", "grep -rn 'id_rsa' docs",
    "grep -e .env -r src", "rg -l credentials.json src",
])
def test_ordinary_work_around_secret_files_is_not_denied(make_deck: Any, helpers: Any,
                                                         command: str) -> None:
    assert _verdict(make_deck, helpers, command) != "deny", command


@pytest.mark.parametrize("command", [
    "git commit -m \"$(cat <<'EOF'\nDrop the `sudo rm` step\n\nIt ran `rm -rf out`.\nEOF\n)\"",
    "gh pr create --title \"$(git log -1 --format=%s)$(date +%F)\" --body 'x'",
    "git commit -m \"fix: don't call c''at\"",
])
def test_a_message_is_data_even_when_it_looks_built(make_deck: Any, helpers: Any,
                                                     command: str) -> None:
    assert _verdict(make_deck, helpers, command) == "allow", command


def test_a_word_built_for_a_command_still_asks(make_deck: Any, helpers: Any) -> None:
    assert _verdict(make_deck, helpers, "cat $(printf x)etc$(printf y)hosts") == "ask"
