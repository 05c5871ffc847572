"""Secret reads from public catalogues, every location by every kind of reader (issue 12).

The locations are the credential files that scanners and post-exploitation checklists list;
each group names its source:

* LinPEAS' sensitive-file list (peass-ng/PEASS-ng ``build_lists/sensitive_files.yaml`` @
  012d8df: Cloud Credentials, VNC, Filezilla, Keyring, Kerberos, Other Interesting Files);
* MITRE ATT&CK / Atomic Red Team T1552.001 (credentials in files), T1552.003 (shell
  history), T1552.004 (private keys), T1552.007 (container API tokens), T1003.007 (process
  memory), T1003.008 (``/etc/shadow`` and its backups), T1555.003 (browser stores), T1006
  (direct volume access);
* each tool's documentation for where it keeps a login (container registries, Composer,
  Maven, Terraform, SVN, Pidgin, k3s, Ansible vault password files, cryptocurrency wallets).

Readers are the ways a file's bytes reach the output: a printer (``cat``), an encoder
(``base64``, ``xxd``, ``od``), ``strings``, an archive of it, a copy into the project, an
input redirection, an interpreter's ``open()``. Every pair must be denied. The benign
contrasts next to them must not be.

Credential CLIs print a secret on request (vendor documentation of each subcommand).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import pytest

LOCATIONS: dict[str, tuple[str, ...]] = {
    "linpeas": (
        "~/.aws/credentials", "~/.azure/msal_token_cache.json", "~/.azure/accessTokens.json",
        "~/.config/gcloud/credentials.db", "~/.config/gcloud/application_default_credentials.json",
        "~/.docker/config.json", "~/.pypirc", "~/.git-credentials", "~/.vault-token", "~/.pgpass",
        "~/.my.cnf", "~/.vnc/passwd", "~/.google_authenticator",
        "~/.local/share/keyrings/login.keyring", "/etc/NetworkManager/system-connections/w.nm",
    ),
    "atomic-red-team": (
        "~/.bash_history", "~/.zsh_history", "~/.python_history", "~/.ssh/id_rsa",
        "~/.ssh/id_ed25519", "/etc/shadow", "/etc/gshadow", "/etc/security/opasswd",
        "/var/backups/shadow.bak", "/proc/1/environ", "/proc/self/environ", "/dev/mem",
        "/var/run/secrets/kubernetes.io/serviceaccount/token", "~/.kube/config",
        "~/.mozilla/firefox/p.default/logins.json", "~/.config/google-chrome/Default/Cookies",
        "/srv/app/.env", "/srv/app/.env.production", "/opt/certs/client.p12",
        "/etc/ssl/private/server.key",
    ),
    "tool-docs": (
        "~/.npmrc", "~/.netrc", "~/.config/gh/hosts.yml", "~/.cargo/credentials.toml",
        "~/.terraform.d/credentials.tfrc.json", "/infra/prod.tfstate",
        "~/.config/containers/auth.json", "~/.composer/auth.json", "~/.m2/settings-security.xml",
        "~/.terraformrc", "~/.subversion/auth/svn.simple/k", "~/.purple/accounts.xml",
        "/etc/rancher/k3s/k3s.yaml", "/var/lib/rancher/k3s/server/token",
        "~/.ansible/vault_pass.txt", "~/.bitcoin/wallet.dat", "~/.electrum/wallets/default_wallet",
        "~/.ethereum/keystore/UTC--key",
    ),
}

READERS = (
    "cat {path}", "base64 {path}", "xxd {path}", "od -c {path}", "strings {path}",
    "head -n 3 {path}", "tar czf k.tgz {path}", "zip -r k.zip {path}", "cp {path} ./copied",
    "wc -c < {path}", "sed -n p {path}", "awk 1 {path}", "grep -a . {path}",
    "python3 -c 'print(open(\"{absolute}\").read())'",
)

CREDENTIAL_CLIS = (
    "aws configure get aws_secret_access_key", "aws configure get default.aws_session_token",
    "aws configure export-credentials --format env", "aws ecr get-login-password",
    "aws codeartifact get-authorization-token --domain d", "gcloud config config-helper",
    "gcloud auth application-default print-access-token", "kubectl config view --raw",
    "kubectl create token default", "oc whoami -t", "heroku auth:token", "vault print token",
    "docker exec web env", "kubectl exec api -- printenv", "podman exec db env -0",
    "xsel -b", "xsel --clipboard",
)

PROJECT_SECRETS = (
    # gitleaks' and trufflehog's path rules, vendor docs: key files by their names
    "cat config/secrets.yml", "cat secrets.json", "cat service-account.json",
    "cat my-proj-firebase-adminsdk-abc12.json", "cat .dockercfg", "cat deploy_key",
    # bash expands ~user: the sandbox must too
    "cat ~root/.ssh/id_rsa",
    # MITRE T1003 credential dumpers (LaZagne S0349, MimiPenguin S0179), however started
    "python3 laZagne.py all", "./mimipenguin.sh", "bash mimipenguin.sh",
)

RAW_DISKS = (
    "strings /dev/sda | grep -i passw", "cat /dev/vda1", "head -c 4096 /dev/nvme0n1 | xxd",
    "xxd /dev/mapper/root", "od -c < /dev/sda1",
)

BENIGN = (
    "aws configure get region", "kubectl config view", "kubectl config view --minify",
    "docker exec web python -m pytest", "docker exec -it web env FOO=1 ./manage.py check",
    "echo hi | xsel --clipboard --input", "xsel -bi", "echo $PWD", "echo $SSH_AUTH_SOCK",
    "env | grep -i path", "lsblk /dev/sda", "findmnt /dev/sda1", "ls -l /dev/mapper",
    "cat src/styles/shadow.css", "cat ~/.gitconfig", "ls /dev/disk/by-uuid",
    "cat src/secrets.py", "cat docs/service-account.md", "cat secrets.example.json",
    "python3 manage.py test", "bash scripts/test.sh",
)


def _commands() -> list[str]:
    found = []
    for paths in LOCATIONS.values():
        for path in paths:
            for reader in READERS:
                found.append(reader.format(path=path, absolute=os.path.expanduser(path)))
    return found


@pytest.fixture(scope="module")
def judged(default_verdicts: Callable[[Sequence[str]], dict[str, str]]) -> dict[str, str]:
    """Every command's verdict under the embedded default."""
    return default_verdicts(
        [*_commands(), *CREDENTIAL_CLIS, *PROJECT_SECRETS, *RAW_DISKS, *BENIGN,
         "env | grep -i key"])


def test_the_catalogue_is_whole() -> None:
    assert sum(len(p) for p in LOCATIONS.values()) >= 50
    assert len(_commands()) == len(set(_commands()))


def test_every_secret_location_by_every_reader_is_denied(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in _commands() if judged[c] != "deny"}
    assert wrong == {}


@pytest.mark.parametrize("command", CREDENTIAL_CLIS + PROJECT_SECRETS + RAW_DISKS)
def test_credential_printers_and_raw_disks_are_denied(judged: dict[str, str],
                                                      command: str) -> None:
    assert judged[command] == "deny", command


def test_picking_keys_out_of_the_environment_asks(judged: dict[str, str]) -> None:
    assert judged["env | grep -i key"] == "ask"


@pytest.mark.parametrize("command", BENIGN)
def test_the_contrasts_are_allowed(judged: dict[str, str], command: str) -> None:
    assert judged[command] == "allow", command
