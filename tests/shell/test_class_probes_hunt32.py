"""The thirteenth probe round (hunt32): ``data/class_probes_hunt32.tsv``.

Hunting for secrets and extracting them: searches of a home, ``/``, the homes, volumes, web
roots and logs by a secret's name, a wallet's files or a key format (regular expressions
included: ``api[_-]?key``, ``.*\\.\\(pem\\|key\\)``), recursive listings filtered for secret
names, git's history searched for keys, a secret field picked out of a file (``jq -r
.private_key sa.json``, ``grep -A1 aws_secret_access_key config.ini``, one-liners), and a
password checked on the command line (``dscl . -authonly``, ``sshpass -p``, ``ldapwhoami
-w``). Measured on main first: 118 of 275 dangerous rows allowed, 7 caught with an ask
instead of a deny, and one look-alike denied (``man sudoers``, a manual page read as the
file ``sudoers``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.shell_analysis import analyze
from tooldeck.shell_analysis.model import Segment
from tooldeck.shell_analysis.password_checks import password_check_finding
from tooldeck.shell_analysis.secret_fields import secret_field_finding
from tooldeck.shell_analysis.secret_reads import (
    listing_hunt_finding,
    secret_hunt_finding,
    secret_read_finding,
)
from tooldeck.shell_analysis.secret_stores import secret_store_finding

from .probe_rounds import Row, read_rows, round_tests, table_problems, verdicts_fixture

DATA = Path(__file__).with_name("data") / "class_probes_hunt32.tsv"
ROOT = "/work/project"


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)
# every dangerous row is caught with its verdict: a hunt or a password tried is denied, a
# secret field picked out of a project file asks
(test_every_dangerous_row_is_caught, test_look_alikes_keep_their_verdict,
 test_each_row_gets_its_documented_verdict) = round_tests(DATA)


def test_rows_name_their_source_and_each_class_has_look_alikes() -> None:
    assert table_problems(_rows(), dangerous=200, look_alikes=80) == []


def _segment(command: str) -> Segment:
    return analyze(command).segments[0]


@pytest.mark.parametrize("command", [
    "rg -i 'api[_-]?key' /home", "find ~ -regex '.*\\.\\(pem\\|key\\)$'",
    "grep -rhoE 'xox[baprs]-[0-9A-Za-z-]+' ~", "find /home/dev -name '*secret*'",
    "find /Volumes -name '*.kdbx'", "grep -rn DB_PASSWORD /var/www",
    "zgrep -i password /var/log/*.gz", "fd -e kdbx . ~", "tree -a -P '*.pem' ~",
    "find ~ -name 'UTC--*'", "locate nkbihfbeogaeaoehlefnkodbefgpgknn",
    "find / -ipath '*ledger live*'", "grep -rE 'postgres(ql)?://[^:]+:[^@]+@' ~",
])
def test_a_search_spelt_as_a_pattern_or_of_a_wider_tree_hunts(command: str) -> None:
    found = secret_hunt_finding(_segment(command), (ROOT,))
    assert found is not None and found.rule == "secret-read", command


@pytest.mark.parametrize("command", [
    "grep -ri error /var/log/syslog", "find /usr/share/fonts -name '*.ttf'",
    "grep -r O_CLOEXEC /usr/include", "find ~/projects -maxdepth 2 -name pyproject.toml",
    "fd -e py token", "tree -P '*.key' .", "grep -n token *.py", "grep -n password config/*.yml",
])
def test_other_searches_do_not(command: str) -> None:
    assert secret_hunt_finding(_segment(command), (ROOT,)) is None


@pytest.mark.parametrize("command", [
    "ls -laR ~ | grep -i id_rsa", "tree -a ~ | grep -i credentials",
    "rg --files --hidden ~ | grep -E '(id_rsa|\\.env)'", "git log -p | grep -i token",
    "git log -p -G 'AKIA[0-9A-Z]{16}'", "git config --list | grep -i extraheader",
    "git grep -i password $(git rev-list --all)",
])
def test_a_listing_or_the_history_filtered_for_secrets_hunts(command: str) -> None:
    found = listing_hunt_finding(analyze(command))
    assert found is not None and found.rule == "secret-read", command


@pytest.mark.parametrize("command", [
    "ls -R src | grep -i token", "ls ~ | grep -i secret", "git log -p | grep -c TODO",
    "git log -p -S 'def parse_args'", "git config --list | grep -i user",
    "git grep -n password_hash",
])
def test_the_projects_listings_and_code_history_do_not(command: str) -> None:
    assert listing_hunt_finding(analyze(command)) is None


@pytest.mark.parametrize("command", [
    "jq -r .private_key sa.json", "jq -r '.[\"private_key\"]' key.json",
    "yq eval '.spring.datasource.password' application.yml",
    "dasel -f config.yaml '.database.password'", "jq -r '.auths[].auth' docker-config.json",
    "grep -A1 aws_secret_access_key config.ini", "awk -F= '/secret/{print $2}' app.conf",
    "sed -n '/BEGIN.*PRIVATE/,/END/p' bundle.txt",
    "python3 -c 'import json;print(json.load(open(\"sa.json\"))[\"private_key\"])'",
    "node -p 'require(\"./oauth.json\").client_secret'", "ssh-keygen -y -f deploy/id_rsa",
])
def test_a_secret_field_picked_out_of_a_file_is_read(command: str) -> None:
    found = secret_field_finding(_segment(command))
    assert found is not None and found.rule == "secret-read", command


@pytest.mark.parametrize("command", [
    "jq '.usage.total_tokens' response.json", "jq .password_policy settings.json",
    "jq -r .client_email sa-public.json", "grep -n secret_key signer.py",
    "grep -rn password src/", "grep -n token .github/workflows/ci.yml",
    "awk '/version/{print $2}' setup.cfg", "python3 -c 'import os; print(os.getcwd())'",
    "node -p 'require(\"./package.json\").name'", "ssh-keygen -l -f ~/.ssh/id_ed25519.pub",
    "ssh-keygen -t ed25519 -f deploy/key -N ''", "grep -c password config.ini",
    "grep -q token settings.yaml", "sed -i 's/^password=.*/password=/' db.ini",
])
def test_public_fields_code_searches_and_fingerprints_are_not(command: str) -> None:
    assert secret_field_finding(_segment(command)) is None


@pytest.mark.parametrize("command", [
    "dscl . -authonly dev hunter2", "security unlock-keychain -p hunter2",
    "sshpass -p hunter2 ssh dev@host.example.com", "smbclient -L //f.example.com -U dev%pw",
    "ldapwhoami -x -D uid=dev -w hunter2", "kinit dev@EXAMPLE.COM <<< hunter2",
    "htpasswd -vb .htpasswd dev hunter2",
    "expect -c 'spawn su dev; expect Password:; send hunter2\\r'",
])
def test_a_password_tried_on_the_command_line_is_credential_store(command: str) -> None:
    found = password_check_finding(_segment(command))
    assert found is not None and found.rule == "credential-store", command


@pytest.mark.parametrize("command", [
    "dscl . -read /Users/dev UserShell", "security list-keychains", "kinit dev@EXAMPLE.COM",
    "ldapwhoami -x -D uid=dev -W", "htpasswd -nbB dev hunter2", "expect tests/cli.exp",
    "smbclient -L //f.example.com -U dev",
])
def test_prompting_and_listing_forms_are_not(command: str) -> None:
    assert password_check_finding(_segment(command)) is None


@pytest.mark.parametrize("command", ["man sudoers", "man 5 shadow", "man ssh_config"])
def test_a_manual_page_name_is_no_file(command: str) -> None:
    assert secret_read_finding(_segment(command), ROOT, (ROOT,)) is None


def test_a_manual_page_file_is_one() -> None:
    found = secret_read_finding(_segment("man -l .env"), ROOT, (ROOT,))
    assert found is not None and found.rule == "secret-read"


@pytest.mark.parametrize(("command", "prints"), [
    ("git config --get-regexp 'http\\..*\\.extraheader'", True),
    ("git config --get http.https://github.com/.extraheader", True),
    ("git config --local http.https://github.com/.extraheader", True),
    ("git config --unset-all http.https://github.com/.extraheader", False),
    ("git config http.https://github.com/.extraheader 'AUTHORIZATION: basic x'", False),
    ("git config --get remote.origin.url", False),
])
def test_git_config_printing_an_extraheader_is_credential_store(command: str,
                                                               prints: bool) -> None:
    found = secret_store_finding(_segment(command))
    assert (found is not None and found.rule == "credential-store") is prints, command
