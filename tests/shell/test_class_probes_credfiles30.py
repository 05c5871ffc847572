"""The twelfth probe round (credfiles30): ``data/class_probes_credfiles30.tsv``.

Credential files of Linux and macOS developer machines, located from credential harvesters'
own module lists (LaZagne, HackBrowserData, firefox_decrypt, chainbreaker, mimipenguin) and
each application's documentation, and every way to read one: content readers, ``sqlite3``,
``python3 -c``, copies and archives into the project or ``/tmp``, links, ``find -exec``,
globs, quoted spaces, ``$HOME``/``~``/``/Users/$USER``/``/home/*`` spellings, relative climbs
and the keyring and password managers' CLIs. Measured on main first: 75 of 282 dangerous rows
allowed, 17 caught with an ask instead of a deny, and one look-alike denied (``git log
-- config/credentials.yml.enc``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.shell_analysis import DEFAULT_BLOCKED, ClassContext, analyze, judge_classes
from tooldeck.shell_analysis.outside_reads import glob_names_secret, is_secret_path
from tooldeck.shell_analysis.secret_reads import secret_read_finding

from .probe_rounds import Row, read_rows, round_tests, table_problems, verdicts_fixture

DATA = Path(__file__).with_name("data") / "class_probes_credfiles30.tsv"
ROOT = "/work/project"
CONTEXT = ClassContext(DEFAULT_BLOCKED, (ROOT,), ROOT)


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)
# every dangerous row is a deny: a credential read or copied, or a CLI that prints one
(test_every_dangerous_row_is_caught, test_look_alikes_keep_their_verdict,
 test_each_row_gets_its_documented_verdict) = round_tests(DATA)


def test_rows_name_their_source_and_each_class_has_look_alikes() -> None:
    assert table_problems(_rows(), dangerous=200, look_alikes=70) == []


@pytest.mark.parametrize("path", [
    "/home/dev/.config/BraveSoftware/Brave-Browser/Local State",
    "/Users/dev/Library/Application Support/Vivaldi/Default",
    "/home/dev/.config/discord/Local Storage/leveldb", "/etc/wireguard/wg0.conf",
    "/opt/homebrew/etc/wireguard/wg0.conf", "/etc/openvpn/client.conf",
    "/home/dev/.local/share/kwalletd/kdewallet.kwl", "/private/var/db/SystemKey",
    "/home/dev/.config/JetBrains/DataGrip2024.1/c.pwd", "/home/dev/.3T",
    "/home/dev/.config/pypoetry/auth.toml", "/home/dev/.config/Bitwarden CLI/data.json",
    "/var/lib/cloud/instances/i-1/user-data.txt", "/var/lib/etcd/member/snap/db",
    "/etc/credstore.encrypted/db.cred", "/home/dev/.local/state/nvim/shada/main.shada",
])
def test_credential_locations_are_secret(path: str) -> None:
    assert is_secret_path(path)


@pytest.mark.parametrize("path", [
    "/home/dev/.config/Code/User/settings.json", "/home/dev/.cargo/config.toml",
    "/etc/NetworkManager/NetworkManager.conf", "/var/lib/kubelet/config.yaml",
    "/var/log/cloud-init-output.log", "/home/dev/.config/hexchat/logs",
    "/home/dev/.config/JetBrains",
])
def test_their_settings_and_logs_are_not(path: str) -> None:
    assert not is_secret_path(path)


@pytest.mark.parametrize(("path", "secret"), [
    ("/Users/dev/Library/Application Support/Google/Chrome/*/Login*", True),
    ("/home/dev/.config/google-chrome/Prof*/Local Sta??", True),
    ("/home/*/.ssh/id_*", True), ("/home/dev/.mozilla/firefox/*/key?.db", True),
    ("/etc/*.conf", False), ("/home/dev/.config/*.json", False), ("/var/log/sys*", False),
    ("/home/dev/projects/*/README*", False),
])
def test_a_glob_that_spells_a_secret_name(path: str, secret: bool) -> None:
    assert glob_names_secret(path) is secret


def _finding(command: str) -> tuple[str, str] | None:
    found = judge_classes(analyze(command), CONTEXT)
    return None if found is None else (found.verdict, found.rule)


@pytest.mark.parametrize("command", [
    "cat ${XDG_RUNTIME_DIR}/containers/auth.json",
    "sqlite3 \"/Users/$USER/Library/Application Support/Microsoft Edge/Default/Web Data\" .dump",
    "cp \"$SRC/.ssh/id_rsa\" .", "cat $CONF_DIR/.env",
])
def test_a_secret_behind_a_variable_is_read(command: str) -> None:
    segment = analyze(command).segments[0]
    found = secret_read_finding(segment, ROOT, (ROOT,))
    assert found is not None and found.rule == "secret-read", command


@pytest.mark.parametrize("command", [
    "cat $CONF_DIR/.env.example", "cat \"$SRC/credentials.py\"", "cat \"$LOG_DIR/app.log\"",
    "git log --oneline -- config/credentials.yml.enc", "git log -- .env",
])
def test_templates_code_and_history_lists_are_not(command: str) -> None:
    assert secret_read_finding(analyze(command).segments[0], ROOT, (ROOT,)) is None


@pytest.mark.parametrize("command", ["git log -p -- .env", "git log --patch -- .env",
                                     "git show HEAD:.env", "git diff HEAD~1 -- .env"])
def test_git_commands_that_print_content_read(command: str) -> None:
    found = secret_read_finding(analyze(command).segments[0], ROOT, (ROOT,))
    assert found is not None and found.rule == "secret-read"


@pytest.mark.parametrize("command", [
    "kwallet-query -r 'Chromium Safe Storage' -f 'Chromium Keys' kdewallet",
    "wg showconf wg0", "wg show wg0 private-key", "my_print_defaults -s client",
    "systemd-creds decrypt /etc/credstore.encrypted/db.cred -",
    "nmcli device wifi show-password", "keepassxc-cli export Passwords.kdbx",
    "keepassxc-cli show -s Passwords.kdbx github", "rbw get github", "aws-vault export prod",
    "mysql --print-defaults",
])
def test_keyring_and_network_secret_clis_are_credential_store(command: str) -> None:
    assert _finding(command) == ("deny", "credential-store")


@pytest.mark.parametrize("command", [
    "kwallet-query -l kdewallet", "wg show", "wg show wg0 public-key", "my_print_defaults client",
    "systemd-creds list", "nmcli device wifi list", "keepassxc-cli ls Passwords.kdbx",
    "rbw list", "aws-vault list", "mysql --version",
])
def test_their_listing_forms_are_not(command: str) -> None:
    found = _finding(command)
    assert found is None or found[1] != "credential-store"
