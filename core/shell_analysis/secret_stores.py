"""Secrets printed by the tools that keep them: secret managers, CLI tokens, the clipboard.

A secret does not have to sit in a file: a CLI prints it on request. Each entry is a command
whose documented purpose is to output a secret (vendor documentation of each tool); the rule
``credential-store`` denies it, like the keychain reads of :mod:`.escalation`.

| tool                         | reads a secret when                                        |
| ---------------------------- | ---------------------------------------------------------- |
| ``gh``, ``glab``             | ``auth token``; ``auth status -t|--show-token``; glab      |
|                              | ``variable get``                                            |
| ``git``                      | ``credential fill``; ``credential-<helper> get``           |
|                              | ``config`` printing an ``http.*.extraheader`` (the token    |
|                              | ``actions/checkout`` stores); setting one is no read        |
| ``op`` (1Password)           | ``read``; ``item get`` with ``--fields``/``--reveal``;      |
|                              | ``signin --raw`` (the session token)                        |
| ``bw`` (Bitwarden)           | ``get``, ``list items``, ``export``, ``unlock --raw``       |
| ``lpass``, ``gopass``,       | ``show`` (gopass also ``cat``, ``otp``)                     |
| ``keepassxc-cli``            |                                                             |
| ``keyring`` (Python's CLI)   | ``get``                                                     |
| ``vault``                    | ``read``; ``kv get``                                        |
| ``vault``                    | ``print token``; ``token create``                           |
| ``aws``                      | ``secretsmanager get-secret-value`` (and ``batch-get-``);   |
|                              | ``rds generate-db-auth-token``; ``ssm get-parameter(s)``    |
|                              | with ``--with-decryption``; ``sts get-session-token``;      |
|                              | ``configure export-credentials``; ``configure get`` of a key |
|                              | or token; ``ecr get-login-password``; ``codeartifact        |
|                              | get-authorization-token``; ``sts assume-role``,             |
|                              | ``get-federation-token`` (temporary keys); ``ec2            |
|                              | get-password-data``                                          |
| ``gcloud``                   | ``secrets versions access``; ``auth print-access-token`` / |
|                              | ``print-identity-token`` (also under ``application-default``);|
|                              | ``config config-helper`` (prints the access token);         |
|                              | ``iam service-accounts keys create``, ``storage hmac create``|
| ``az``                       | ``keyvault secret show|download``; ``account                |
|                              | get-access-token``; ``storage account keys list``,          |
|                              | ``generate-sas``; ``ad sp create-for-rbac``, ``ad app|sp    |
|                              | credential reset`` (each prints a new password); an app's    |
|                              | publishing profiles and credentials, function, registry,    |
|                              | Cosmos DB and Redis keys                                    |
| ``kubectl``, ``oc``          | ``get secret(s)`` with an output format (``-o yaml|json|    |
|                              | jsonpath|go-template…``; the default names-only listing and |
|                              | ``-o name|wide`` print no value); ``create token``;         |
|                              | ``config view --raw`` (client keys and tokens unredacted)   |
| ``heroku``                   | ``auth:token``                                              |
| ``doppler``, ``infisical``   | ``secrets`` (listing values)                                |
| ``xclip``, ``xsel``,         | reading the clipboard (``-o``, ``--output``; ``pbpaste``,   |
| ``pbpaste``, ``wl-paste``    | ``wl-paste`` always)                                        |
| ``ps``                       | BSD-style ``e`` (``ps auxwwe``): every process' environment |
| ``docker|podman inspect``    | a format printing ``.Config.Env`` (a container's secrets)   |
| ``jq``, ``yq``, ``gojq``      | a filter starting at ``.Config.Env`` (the same, from JSON)  |
| ``docker|podman|kubectl exec``| running ``env``/``printenv`` in a container: its secrets    |
| ``docker|podman run``        | ``--env-file`` given to a container that runs ``env``      |
| ``op run``, ``doppler run``, | a secret injector running ``env``/``printenv``             |
| ``aws-vault exec`` …         |                                                             |
| ``dotenv``, ``dotenvx``      | ``list``, ``get`` (python-dotenv's and dotenvx's CLIs)      |
| ``sops``, ``ansible-vault``  | ``-d``/``--decrypt``; ``view``, ``decrypt``                 |
| ``terraform``, ``pulumi``    | ``state pull`` (the state holds secrets); ``--show-secrets``|
| ``terraform``, ``tofu``      | ``output -json``/``-raw`` (sensitive outputs in plain text) |
| ``heroku``, ``doctl``,       | ``config``, ``config:get``; ``auth token``;                 |
| ``firebase``, ``aws``        | ``functions:config:get``; ``iam create-access-key``         |
| ``fly``, ``netlify``,        | ``auth token``; ``env:get``, ``env:list --plain|--json``;   |
| ``supabase``, ``firebase``,  | ``projects api-keys``; ``login:ci``; ``npm token create``   |
| ``npm``                      |                                                             |
| ``vercel``, ``railway``,     | ``env pull``, ``pull``; ``variables`` (not ``--set``);      |
| ``heroku``, ``firebase``     | ``pg:credentials:url``; ``functions:secrets:access``        |
| ``infisical``, ``chamber``,  | ``export``; ``export|read|env``, ``list -e``; ``inject``,   |
| ``op``, ``vault``            | ``document get``, ``item get --format json``; ``token       |
|                              | lookup``                                                    |
| ``az``                       | app settings and connection strings (``webapp|functionapp   |
|                              | config appsettings list`` …), ``containerapp secret show``, |
|                              | service keys, ``acr login --expose-token``                  |
| ``aws``, ``gcloud``          | ``eks get-token``, ``ecr get-authorization-token``, ``sso   |
|                              | get-role-credentials`` …; ``redis instances get-auth-string``|
| ``kind``, ``k3d``, ``doctl`` | a kubeconfig with client keys printed                        |
| ``kubectl``, ``oc``          | ``view-secret``; ``set env --list``; ``oc extract secret/…`` |
| ``gh``, ``glab``             | ``auth git-credential get``; ``variable export``; ``config   |
|                              | get`` of a token                                             |
| ``docker-credential-*``      | ``get`` (a registry's stored login)                          |
| ``git-crypt``, ``git secret``| ``unlock``, ``export-key``; ``reveal``, ``cat``              |
| ``age``, ``rage``, ``gpg``   | ``-d`` of a file named for a secret (``secrets.env.age``)    |
| ``terraform`` …              | ``show -json`` (the state in plain text); ``terragrunt``     |
| ``docker|podman compose``,   | ``exec|run`` of ``env``; ``heroku run env``; ``fly ssh       |
| ``heroku``, ``fly``          | console -C printenv``, ``fly machine exec … env``            |

Global options before the subcommand (``aws --profile prod sts get-session-token``) are
skipped with their values (:mod:`.cloud_clis`).

:func:`environment_secret_finding` asks before printing the secrets the agent's own
environment holds (``printenv GITHUB_TOKEN``, ``echo $AWS_SECRET_ACCESS_KEY``, ``env | grep
-i token``, ``docker inspect web | grep -i pass``; rule ``secret-variable``): the scrubbed
child environment rarely has them. A bare dump (``env``, ``printenv``, ``env | sort``,
``export -p``, ``set``, ``declare -x``) prints them all and asks the same; piped into a filter
or a counter (``env | grep -i proxy``, ``env | wc -l``) it is judged by what is picked.
So is a one-liner printing ``os.environ`` or ``process.env`` (or a secret of it by name), and
a deployed service's or a container's configuration printed with its environment (the
``_CONFIGURATIONS`` table: ``aws lambda get-function-configuration``, ``gcloud run services
describe``, ``docker inspect web``, ``docker compose config``, ``helm get values``): it asks
unless a projection names fields that hold no environment (``--query Runtime``, ``--format
'{{.State.Status}}'``) or a filter, a counter or ``jq`` picks them. Any of these fed to a
network sender is denied (:func:`exposes_environment`, :mod:`.uploads`).

A screen capture (``screencapture -x``, ``scrot``, ``grim``, ImageMagick's ``import``, ``xwd
-root``…) asks, rule ``screen-capture`` (:func:`screen_capture_finding`): what the screen shows
may be a secret, as the clipboard's content may, but a UI task may want a screenshot.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.cloud_clis import operands as cloud_operands
from tooldeck.shell_analysis.findings import ASK, DENY, Finding, argv_finding
from tooldeck.shell_analysis.interpreters import INTERPRETER_CODE_OPTIONS, WHOLE_ENVIRONMENT
from tooldeck.shell_analysis.model import CommandAnalysis, Segment, Word
from tooldeck.shell_analysis.secret_reads import SECRET_MARKERS

__all__ = ["CONFIGURATION_HEADS", "ENVIRONMENT_HEADS", "SCREEN_HEADS", "STORE_HEADS",
           "environment_secret_finding", "exposes_environment", "screen_capture_finding",
           "secret_store_finding"]

_READS: dict[str, tuple[tuple[str, ...], ...]] = {
    "gh": (("auth", "token"), ("auth", "git-credential")),
    "glab": (("variable", "get"), ("variable", "export")),
    "git": (("credential", "fill"),),
    "op": (("read",), ("inject",), ("document", "get")),
    "bw": (("get",), ("list", "items"), ("export",)),
    "lpass": (("show",),),
    "gopass": (("show",), ("cat",), ("otp",)),
    # Python's keyring CLI prints a stored password (keyring --help: get SERVICE USER)
    "keyring": (("get",),),
    "keepassxc-cli": (("show",),),
    "vault": (("read",), ("kv", "get"), ("print", "token"), ("token", "create"),
              ("token", "lookup")),
    "dotenv": (("list",), ("get",)), "dotenvx": (("get",),),
    # decrypters and infrastructure state that print secrets (each tool's manual)
    "ansible-vault": (("view",), ("decrypt",)),
    "firebase": (("functions:config:get",), ("login:ci",), ("functions:secrets:access",)),
    # tokens issued or printed by the platforms' and registries' CLIs (each CLI's reference)
    "fly": (("auth", "token"),), "flyctl": (("auth", "token"),),
    "netlify": (("env:get",),), "supabase": (("projects", "api-keys"),),
    # every variable of a deployed app, printed or written to a file (each CLI's reference)
    "vercel": (("env", "pull"), ("pull",)), "infisical": (("secrets",), ("export",)),
    "chamber": (("export",), ("read",), ("env",)),
    "git-crypt": (("unlock",), ("export-key",)),
    "kind": (("get", "kubeconfig"),), "k3d": (("kubeconfig", "get"),),
    "npm": (("token", "create"),),
    "pulumi": (("stack", "output", "--show-secrets"), ("config", "--show-secrets")),
    "terraform": (("state", "pull"),), "tofu": (("state", "pull"),),
    "terragrunt": (("state", "pull"),),
    "aws": (("secretsmanager", "get-secret-value"), ("secretsmanager", "batch-get-secret-value"),
            ("rds", "generate-db-auth-token"), ("sts", "get-session-token"),
            ("configure", "export-credentials"), ("ecr", "get-login-password"),
            ("ecr-public", "get-login-password"),
            ("codeartifact", "get-authorization-token"), ("sts", "assume-role"),
            ("sts", "get-federation-token"), ("ec2", "get-password-data"),
            ("eks", "get-token"), ("ecr", "get-authorization-token"),
            ("sso", "get-role-credentials"), ("redshift", "get-cluster-credentials"),
            ("lightsail", "get-relational-database-master-user-password")),
    "gcloud": (("secrets", "versions", "access"), ("auth", "print-access-token"),
               ("auth", "print-identity-token"),
               ("auth", "application-default", "print-access-token"),
               ("config", "config-helper"), ("iam", "service-accounts", "keys", "create"),
               ("storage", "hmac", "create"), ("redis", "instances", "get-auth-string")),
    "az": (("keyvault", "secret", "show"), ("keyvault", "secret", "download"),
           ("account", "get-access-token"), ("storage", "account", "keys", "list"),
           ("storage", "account", "generate-sas"), ("ad", "sp", "create-for-rbac"),
           ("ad", "app", "credential", "reset"), ("ad", "sp", "credential", "reset"),
           # an app's deployment credentials and keys (each command's reference)
           ("webapp", "deployment", "list-publishing-profiles"),
           ("webapp", "deployment", "list-publishing-credentials"),
           ("functionapp", "deployment", "list-publishing-profiles"),
           ("functionapp", "deployment", "list-publishing-credentials"),
           ("functionapp", "keys", "list"), ("acr", "credential", "show"),
           ("cosmosdb", "keys", "list"), ("redis", "list-keys"),
           # an app's settings are its environment; connection strings and service keys
           ("webapp", "config", "appsettings", "list"),
           ("functionapp", "config", "appsettings", "list"),
           ("staticwebapp", "appsettings", "list"),
           ("webapp", "config", "connection-string", "list"),
           ("storage", "account", "show-connection-string"),
           ("containerapp", "secret", "show"), ("search", "admin-key", "show"),
           ("cognitiveservices", "account", "keys", "list"),
           ("servicebus", "namespace", "authorization-rule", "keys", "list"),
           ("eventhubs", "namespace", "authorization-rule", "keys", "list")),
    "kubectl": (("create", "token"), ("view-secret",)),
    "oc": (("create", "token"),),
    "heroku": (("auth:token",), ("config",), ("config:get",), ("pg:credentials:url",)),
    "doppler": (("secrets",),),
    "doctl": (("auth", "token"), ("kubernetes", "cluster", "kubeconfig", "show")),
}
_CLIPBOARD_ALWAYS = frozenset({"pbpaste", "wl-paste"})
_CLIPBOARD = frozenset({"xclip", "xsel"})
_XSEL_INPUT = frozenset({"-i", "--input", "-a", "--append", "-f", "--follow", "-c", "--clear",
                         "-d", "--delete", "-k", "--keep", "-x", "--exchange"})
_AWS_SECRET_KEYS = frozenset({"aws_secret_access_key", "aws_session_token",
                              "aws_security_token"})
_EXEC_VERBS: dict[str, tuple[tuple[str, ...], ...]] = {
    # a command run in a container, a machine or a one-off dyno (each CLI's reference)
    **dict.fromkeys(("docker", "podman", "nerdctl"),
                    (("exec",), ("container", "exec"), ("compose", "exec"),
                     ("compose", "run"))),
    **dict.fromkeys(("docker-compose", "podman-compose"), (("exec",), ("run",))),
    "kubectl": (("exec",),), "oc": (("exec",),), "heroku": (("run",),),
    "fly": (("ssh", "console"), ("machine", "exec")),
    "flyctl": (("ssh", "console"), ("machine", "exec")),
}
_ENV_PRINTERS = frozenset({"env", "printenv"})
_JSON_FILTERS = frozenset({"jq", "gojq", "jaq", "yq"})
_INJECTORS = frozenset({"op", "doppler", "infisical", "aws-vault", "chamber", "dotenv",
                        "dotenvx", "envconsul", "teller", "sops", "berglas", "vals",
                        "railway", "netlify"})
"""Secret injectors that run a command with secrets in its environment (their manuals;
``railway run``, ``netlify dev:exec``)."""
_INSPECTORS = frozenset({"docker", "podman", "nerdctl"})
_DECRYPTERS = frozenset({"gpg", "gpg2", "age", "rage"})
_CREDENTIAL_HELPERS = frozenset({
    # Docker's credential helpers print the stored login for a registry read on input
    # (docs.docker.com/reference/cli/docker/login/#credential-helpers)
    "docker-credential-desktop", "docker-credential-osxkeychain", "docker-credential-pass",
    "docker-credential-secretservice", "docker-credential-wincred",
    "docker-credential-ecr-login", "docker-credential-gcloud", "docker-credential-gcr"})

STORE_HEADS: frozenset[str] = (frozenset(_READS) | _CLIPBOARD_ALWAYS | _CLIPBOARD
                               | frozenset({"op", "ps", "aws"}) | _INSPECTORS | _JSON_FILTERS
                               | _INJECTORS | frozenset(_EXEC_VERBS) | _DECRYPTERS
                               | _CREDENTIAL_HELPERS
                               | frozenset({"sops", "ansible-vault", "doctl", "heroku",
                                            "firebase", "pulumi", "terraform", "tofu",
                                            "terragrunt", "railway", "chamber", "git",
                                            "gcloud", "az", "helm", "systemctl",
                                            "docker-compose", "podman-compose"}))
"""Command names :func:`secret_store_finding` looks at."""


_NAMES_ONLY = frozenset({"name", "wide"})
"""``kubectl get -o`` formats that print no secret's data (the default prints names too)."""


def _shows_data(args: Sequence[str]) -> bool:
    """Whether ``kubectl get`` is told an output format that prints the objects' data."""
    for option, value in itertools.pairwise([*args, ""]):
        name, joined, tail = option.partition("=")
        if name in ("-o", "--output") or (option.startswith("-o") and len(option) > 2
                                            and not option.startswith("--")):
            chosen = tail if joined else (option[2:] if name not in ("-o", "--output")
                                          else value)
            kind, _, columns = chosen.partition("=")
            if kind not in _NAMES_ONLY and not (kind == "custom-columns"
                                                and not _DATA_COLUMN.search(columns)):
                return True
        if name in ("--template", "--show-managed-fields"):
            return True
    return False


_DATA_COLUMN = re.compile(r"\.(?:data|stringData)\b")


def _names_secrets(resources: str) -> bool:
    """``secret``, ``secrets/db``, ``configmaps,secrets``: a ``kubectl get`` resource list."""
    return any(part.partition("/")[0].partition(".")[0] in ("secret", "secrets")
               for part in resources.lower().split(","))


_SECRET_KEY = re.compile(r"token|secret|password|_auth", re.IGNORECASE)


def _platform_why(head: str, operands: Sequence[str], args: Sequence[str]) -> str | None:
    """The platform CLIs' forms that print values only with a flag or outside a subcommand."""
    if head == "railway" and operands[:1] in (["variables"], ["variable"], ["vars"]) and not (
            {"-s", "--set"} & set(args) or any(a.startswith("--set=") for a in args)):
        return "railway variables prints every variable's value"
    if head == "netlify" and operands[:1] == ["env:list"] and (
            "--plain" in args or "--json" in args):
        return "netlify env:list --plain|--json prints every variable's value"
    if head == "chamber" and operands[:1] == ["list"] and ("-e" in args or "--expand" in args):
        return "chamber list --expand prints every secret's value"
    if head in ("gh", "glab") and operands[:2] == ["config", "get"] and any(
            _SECRET_KEY.search(o) for o in operands[2:]):
        return f"{head} config get prints a stored token"
    if head == "git":  # git -C DIR -c KEY=V secret reveal: git's own options skipped
        verb = [a for previous, a in itertools.pairwise(["", *args])
                if not a.startswith("-") and previous not in ("-C", "-c")][:2]
        if verb in (["secret", "reveal"], ["secret", "cat"], ["crypt", "unlock"],
                    ["crypt", "export-key"]):
            return f"git {verb[0]} {verb[1]} decrypts the repository's secrets"
    if head == "az" and ((operands[:3] == ["containerapp", "secret", "list"]
                          and "--show-values" in args)
                         or (operands[:2] == ["acr", "login"] and "--expose-token" in args)):
        return f"az {' '.join(operands[:3])} prints a secret"
    return None


def _kube_why(head: str, operands: Sequence[str], args: Sequence[str]) -> str | None:
    if operands[:1] == ["get"] and len(operands) > 1 and _names_secrets(operands[1]) and (
            _shows_data(args)):
        return f"{head} get secret with an output format prints the secrets' values"
    if operands[:2] == ["config", "view"] and "--raw" in args:
        return f"{head} config view --raw prints client keys and tokens"
    if operands[:2] == ["set", "env"] and ("--list" in args or "--resolve" in args):
        return f"{head} set env --list prints a workload's environment"
    if head == "oc" and operands[:1] == ["extract"] and any(
            _names_secrets(o) for o in operands[1:]):
        return "oc extract writes or prints a secret's decoded data"
    if head == "oc" and operands[:1] == ["whoami"] and ("-t" in args or "--show-token" in args):
        return "oc whoami --show-token prints a token"
    return None


def _decrypts_secret(head: str, args: Sequence[str]) -> str | None:
    """``gpg -d secrets.env.gpg``, ``age -d -i k.txt secrets/db.age``: a secret decrypted."""
    if not any(a in ("-d", "--decrypt") or (head in ("age", "rage") and a.startswith("-")
                                            and not a.startswith("--") and "d" in a)
               for a in args):
        return None
    for arg in args:
        plain = re.sub(r"\.(?:gpg|pgp|asc|age)$", "", arg)
        if plain != arg and (SECRET_MARKERS.search(plain) or "secret" in plain.lower()):
            return f"{head} decrypts the secret {arg!r}"
    return None


_NAME_FIELDS = frozenset({"name", "slotsetting", "type", "length"})


def _names_only_query(args: Sequence[str]) -> bool:
    """An ``az`` ``--query`` that picks the settings' names, not their values."""
    for option, value in itertools.pairwise([*args, ""]):
        name, joined, tail = option.partition("=")
        if name == "--query":
            fields = _FIELD.findall(tail if joined else value)
            return bool(fields) and all(f.lower() in _NAME_FIELDS for f, _, _ in fields)
    return False


def _inspects_environment(head: str, operands: Sequence[str], args: Sequence[str]) -> bool:
    """``docker inspect`` told a format that prints ``.Config.Env`` or all of ``.Config``."""
    if head not in _INSPECTORS or not (operands[:1] == ["inspect"]
                                        or operands[:2] == ["container", "inspect"]):
        return False
    return any(".Env" in a or re.search(r"\.Config(?![.\w])", a) for a in args)


def _why(head: str, args: Sequence[str]) -> str | None:
    operands = cloud_operands(head, args)
    if head in ("terraform", "tofu", "terragrunt") and operands[:1] in (["output"], ["show"]) and (
            any(a.lstrip("-").partition("=")[0] == "json" for a in args)
            or (operands[0] == "output" and any(a.lstrip("-") == "raw" for a in args))):
        return f"{head} {operands[0]} -json|-raw prints sensitive values in plain text"
    if head == "doppler" and "--only-names" in args:
        return None  # doppler secrets --only-names (docs.doppler.com: the CLI's secrets page)
    if head == "az" and _names_only_query(args):
        return None  # az webapp config appsettings list --query "[].name"
    for prefix in _READS.get(head, ()):
        if tuple(operands[: len(prefix)]) == prefix:
            return f"{head} {' '.join(prefix)} prints a secret"
    platform = _platform_why(head, operands, args)
    if platform is not None:
        return platform
    if head in ("kubectl", "oc"):
        kube = _kube_why(head, operands, args)
        if kube is not None:
            return kube
    if head in _DECRYPTERS:
        return _decrypts_secret(head, args)
    if head in _CREDENTIAL_HELPERS and operands[:1] == ["get"]:
        return f"{head} get prints a registry's stored login"
    if head in ("gh", "glab") and operands[:2] == ["auth", "status"] and (
            "-t" in args or "--show-token" in args):
        return f"{head} auth status --show-token prints a token"
    if "--raw" in args and (head, operands[:1]) in (("op", ["signin"]), ("bw", ["unlock"])):
        return f"{head} {operands[0]} --raw prints a session key"
    if head == "git" and "config" in args and any("extraheader" in a.lower() for a in args) and (
            not _sets_config(args)):
        return "git config prints an http.extraheader (actions/checkout's token)"
    if head == "git" and operands[:1] and operands[0].startswith("credential-") and (
            operands[1:2] == ["get"]):
        return f"git {operands[0]} get prints a stored credential"
    if head == "op" and operands[:2] == ["item", "get"] and any(
            a.startswith(("--fields", "--reveal")) or a in ("--format=json", "json")
            for a in args):
        return "op item get prints a stored secret"
    if head == "aws" and operands[:1] == ["ssm"] and "--with-decryption" in args:
        return "aws ssm get-parameter --with-decryption prints a secret"
    if head == "aws" and operands[:2] == ["configure", "get"] and not _AWS_SECRET_KEYS.isdisjoint(
            o.rpartition(".")[2] for o in operands[2:]):
        return "aws configure get prints a stored access key"
    if head in _CLIPBOARD_ALWAYS or (head == "xclip" and any(
            a.startswith("-o") for a in args)) or (head == "xsel" and _xsel_reads(args)):
        return "reads the clipboard"
    if head == "ps" and _ps_environment(args):
        return "ps e prints every process' environment"
    if _inspects_environment(head, operands, args):
        return f"{head} inspect prints a container's environment"
    if head == "sops" and (any(a in ("-d", "--decrypt") for a in args)
                           or operands[:1] == ["decrypt"]):
        return "sops -d prints the decrypted secrets"
    if head == "pulumi" and "--show-secrets" in args:
        return "pulumi --show-secrets prints the stack's secrets"
    if head == "aws" and operands[:2] == ["iam", "create-access-key"]:
        return "aws iam create-access-key prints a new secret access key"
    if head in _JSON_FILTERS and any(".Config.Env" in a for a in operands[:1]):
        return f"{head} picks a container's environment out of its inspect output"
    if head in _INSPECTORS and operands[:1] == ["compose"]:
        operands = ["compose", *_compose_operands(args)]
    if _runs_remotely(head, operands) and _prints_environment(operands):
        return f"{head} {' '.join(operands[:2])} prints the environment it runs in"
    if head in _INSPECTORS and operands[:1] in (["run"], ["create"]) and any(
            a.startswith("--env-file") for a in args) and _prints_environment(args):
        return f"{head} run prints the environment it was given from an --env-file"
    if head in _INJECTORS and _prints_environment(args):
        return f"{head} injects secrets into a command that prints them"
    return None


def _sets_config(args: Sequence[str]) -> bool:
    """Whether ``git config`` is told to change, not print (``--unset``, ``--add``, a value)."""
    if any(a.startswith(("--unset", "--add", "--replace-all", "--remove-section")) for a in args):
        return True
    reads = ("--get", "--get-all", "--get-regexp", "-l", "--list", "--show-origin")
    if any(a.startswith(reads) for a in args):
        return False
    tail = args[args.index("config") + 1:]
    return len([a for a in tail if not a.startswith("-")]) > 1  # git config KEY VALUE


def _runs_remotely(head: str, operands: Sequence[str]) -> bool:
    """A command run in a container or on a machine (``docker exec``, ``heroku run``)."""
    return any(tuple(operands[: len(verb)]) == verb for verb in _EXEC_VERBS.get(head, ()))


def _xsel_reads(args: Sequence[str]) -> bool:
    """``xsel -o``, or ``xsel`` with no input, clear or delete mode (it prints the selection)."""
    if any(a in ("-o", "--output") or (a.startswith("-") and not a.startswith("--")
                                       and "o" in a) for a in args):
        return True
    return not any(a in _XSEL_INPUT or (a.startswith("-") and not a.startswith("--") and any(
        c in a for c in "iafcdkx")) for a in args)


_ENVIRON = re.compile(r"^/proc/[^/]+/environ$")


def _prints_environment(args: Sequence[str]) -> bool:
    """``docker exec web env``, ``kubectl exec pod -- printenv``: the inner command dumps.

    A command given as one string (``fly ssh console -C 'printenv DATABASE_URL'``) is split
    into its words; ``cat /proc/1/environ`` in there dumps a process' environment too.
    """
    words = [w for a in args for w in (a.split() if " " in a else [a])]
    if any(_ENVIRON.match(w) for w in words):
        return True
    for index, arg in enumerate(words):
        if arg in _ENV_PRINTERS:
            rest = itertools.takewhile(lambda w: w not in _SHELL_OPERATORS, words[index + 1 :])
            return arg == "printenv" or all(a.startswith("-") for a in rest)
    return False


_SHELL_OPERATORS = frozenset({"|", "||", "&&", ";"})


_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|"
                          r"COOKIE|(?<![A-Z0-9])(?:KEY|PASS)(?![A-Z0-9])|"
                          # connection strings carry a password (DATABASE_URL, SENTRY_DSN)
                          r"(?:DATABASE|DB|REDIS|MONGO(?:DB)?|POSTGRES(?:QL)?|MYSQL|AMQP)_UR[LI]|"
                          r"(?<![A-Z0-9])DSN(?![A-Z0-9])|_DSN|CONNECTION_?STRING",
                          re.IGNORECASE)
_CODE_NAME = re.compile(r"(?:os\.environ(?:\.get)?\s*[\[(]|os\.getenv\(|process\.env\.|"
                        r"process\.env\[|\bENV\[|\$ENV\{|getenv\()\s*['\"]?([A-Za-z_]\w*)")
_CODE_RUNNERS = frozenset(INTERPRETER_CODE_OPTIONS)
"""Interpreters whose one-liner may print the environment (``python3 -c 'print(os.environ)'``:
:data:`.interpreters.WHOLE_ENVIRONMENT`) or a secret of it by name."""
_REFERENCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "typeset", "compgen"})
_FILTERS = frozenset({"grep", "egrep", "rg", "ag", "awk", "sed"})


def environment_secret_finding(analysis: CommandAnalysis) -> Finding | None:
    """Ask before printing the secrets an environment holds (the agent's own, a service's).

    ``printenv GITHUB_TOKEN``, ``echo $AWS_SECRET_ACCESS_KEY``, ``env | grep -i token``:
    a variable named for a secret, printed or filtered out of an environment dump. Asks, not
    denies: the child environment is scrubbed of such variables ([tools.shell]
    env_secret_markers), so only one an operator kept or the session set is shown. A deployed
    service's or a container's configuration printed with its environment (``aws lambda
    get-function-configuration``, ``docker inspect web``) is such a dump too: piped into a
    filter, a counter or ``jq``, it is judged by what is picked.

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    dumped = False
    segments = analysis.segments
    for index, segment in enumerate(segments):
        if not segment.command_positions:
            continue
        name = segment.command
        words = segment.words[segment.command_positions[-1] + 1 :]
        values = [w.value for w in words]
        following = segments[index + 1] if index + 1 < len(segments) else None
        whole = _whole_dump(segment, values)
        if whole is not None and not (following is not None and following.stdin == "pipe"
                                      and following.command in _SELECTORS):
            return Finding(ASK, "secret-variable", f"{segment.text!r}: {whole}")
        named = _named_variable(name, words)
        if named is not None:
            return Finding(ASK, "secret-variable", f"{segment.text!r} prints {named}")
        if whole is not None or (name in _DUMPERS and (name in ("env", "printenv") or not words
                                                       or all(v.startswith("-")
                                                              for v in values))) or (
                name in _INSPECTORS and values[:1] == ["inspect"]):
            dumped = True  # a container's inspect output holds its environment, narrowed too
        elif dumped and _picks_secret(name, values):
            return Finding(ASK, "secret-variable", f"{segment.text!r} picks secrets out of "
                           "the environment")
    return None


def _whole_dump(segment: Segment, values: Sequence[str]) -> str | None:
    """What a segment prints whole: every variable, or a configuration holding them."""
    if _bare_dump(segment.command, values):
        return "prints every variable of the environment, secrets included"
    if segment.command in CONFIGURATION_HEADS:
        return _configuration_why(segment.command, values)
    return None


def _named_variable(name: str, words: Sequence[Word]) -> str | None:
    """``printenv GITHUB_TOKEN``, ``echo $NPM_TOKEN``, ``declare -p``, a one-liner's getenv."""
    if name == "printenv" and any(_SECRET_NAME.search(w.value) for w in words):
        return "a secret variable"
    if name in ("echo", "printf") and any(
            _SECRET_NAME.search(v) for w in words for v in _REFERENCE.findall(w.source)):
        return "a secret variable"
    if name in ("declare", "typeset", "export") and any(
            w.value.startswith("-") and "p" in w.value for w in words) and any(
            _SECRET_NAME.search(w.value) for w in words if not w.value.startswith("-")):
        return "a secret variable"
    if name.rstrip("0123456789.") in _CODE_RUNNERS and any(
            WHOLE_ENVIRONMENT.search(w.value) or any(_SECRET_NAME.search(n)
                                              for n in _CODE_NAME.findall(w.value))
            for w in words):
        return "the environment or a secret variable of it"
    return None


_SECRET_FAMILY = re.compile(
    r"^\^?(?:db|database|dsn|auth|creds?|credentials?|pwd|aws|azure|gcp|openai|anthropic|"
    r"stripe|postgres|pg|mysql|mongo|redis)_?$", re.IGNORECASE)
"""A filter word that picks the variables of a secret's family (``env | grep -i db``: DB_PASSWORD,
DATABASE_URL; ``grep AWS``: the access keys), not one secret by name."""
_ALTERNATIVES = re.compile(r"\\?\|")
r"""A grep pattern's alternatives (``-E 'db|redis'``, basic ``'db\|redis'``)."""


def _picks_secret(name: str, values: Sequence[str]) -> bool:
    """What a filter after a dump picks: a secret's name, or (``jq``) the environment."""
    if name in _FILTERS:
        return any(_SECRET_NAME.search(v) or any(_SECRET_FAMILY.match(alternative)
                                                 for alternative in _ALTERNATIVES.split(v))
                   for v in values)
    if name in _JSON_FILTERS:
        program = next((v for v in values if not v.startswith("-")), ".")
        return bool(_SECRET_NAME.search(program)) or not _picks_fields(program)
    return False


_SELECTORS = _FILTERS | _JSON_FILTERS | {"wc", "cut"}
"""What a dump may be piped into without printing it whole: a filter (judged by the name it
picks) or a counter."""
_DUMP_OPTIONS: dict[str, frozenset[str]] = {
    "export": frozenset({"-p"}), "declare": frozenset({"-p", "-x", "-px", "-xp"}),
    "typeset": frozenset({"-p", "-x", "-px", "-xp"}), "set": frozenset(),
}


def _bare_dump(name: str, words: Sequence[str]) -> bool:
    """``env``, ``printenv``, ``export -p``, ``set``, ``declare -x``: every variable printed."""
    if name in ("env", "printenv"):
        return all(w.startswith("-") for w in words)
    options = _DUMP_OPTIONS.get(name)
    return options is not None and all(w in options for w in words)


_CONFIGURATIONS: dict[str, tuple[tuple[str, ...], ...]] = {
    # a deployed service's configuration, its environment variables included (each
    # operation's response in the CLI reference: Environment, environment, env, envVariables)
    "aws": (("lambda", "get-function-configuration"), ("lambda", "get-function"),
            ("lambda", "list-functions"), ("ecs", "describe-task-definition"),
            ("apprunner", "describe-service"),
            ("elasticbeanstalk", "describe-configuration-settings"),
            ("amplify", "get-app"), ("amplify", "get-branch"),
            ("batch", "describe-job-definitions"), ("codebuild", "batch-get-projects"),
            ("lightsail", "get-container-services")),
    "gcloud": (("run", "services", "describe"), ("run", "jobs", "describe"),
               ("functions", "describe"), ("app", "versions", "describe")),
    "az": (("containerapp", "show"),),
    "helm": (("get", "values"), ("get", "all"), ("get", "manifest")),
    "systemctl": (("show-environment",),),
    **dict.fromkeys(_INSPECTORS, (("inspect",), ("container", "inspect"))),
}
_PROJECTIONS: dict[str, frozenset[str]] = {
    "aws": frozenset({"--query"}), "az": frozenset({"--query"}),
    "gcloud": frozenset({"--format"}), "helm": frozenset(),
    **dict.fromkeys(_INSPECTORS, frozenset({"-f", "--format"})),
}
"""The option that narrows a command's output to the fields it names."""
_ENVIRONMENT_FIELD = re.compile(r"env|variable|secret|userdata|\bvalues\b", re.IGNORECASE)
_HOLDERS = frozenset({
    # the objects of each _CONFIGURATIONS response that hold its environment: printed whole,
    # they print it (Lambda, ECS, App Runner, Beanstalk, Amplify, Batch, CodeBuild, Lightsail,
    # Cloud Run and Functions, Container Apps, docker inspect)
    "configuration", "functions", "taskdefinition", "containerdefinitions", "service",
    "sourceconfiguration", "imageconfiguration", "configurationsettings", "optionsettings",
    "app", "branch", "jobdefinitions", "containerproperties", "projects",
    "containerservices", "currentdeployment", "containers", "spec", "template",
    "serviceconfig", "properties", "config"})
_FIELD = re.compile(r"([A-Za-z_]\w*)((?:\[[^\]]*\])*)(\.?)")
_WHOLE = re.compile(r"^\s*(?:json|yaml|@|\*)?\s*$|\{\{\s*(?:json\s+)?\.\s*\}\}",
                    re.IGNORECASE)


def _narrow(head: str, args: Sequence[str]) -> bool:
    """Whether a projection picks fields that hold no environment (``--query Runtime``)."""
    options = _PROJECTIONS.get(head, frozenset())
    for option, value in itertools.pairwise([*args, ""]):
        name, joined, tail = option.partition("=")
        if name not in options:
            continue
        chosen = tail if joined else value
        if head == "gcloud" and "(" not in chosen:
            return False  # --format=yaml: every field
        return _picks_fields(chosen)
    return False


def _picks_fields(projection: str) -> bool:
    """Whether a projection names fields, none of them an environment or an object holding one.

    ``Runtime``, ``Functions[].FunctionName``, ``{{.State.Status}}``, ``.[0].State``: yes;
    ``Environment.Variables``, ``Configuration``, ``{{json .}}``, ``.[0]``: no.
    """
    if _WHOLE.search(projection) or _ENVIRONMENT_FIELD.search(projection):
        return False
    fields = _FIELD.findall(projection)
    return bool(fields) and not any(field.lower() in _HOLDERS and not dotted
                                    for field, _, dotted in fields)


_COMPOSE_VALUES = frozenset({"-f", "--file", "-p", "--project-name", "--env-file", "--profile",
                             "--project-directory", "--ansi", "--parallel", "--progress"})
"""Compose's global options that take a value (docs.docker.com/reference/cli/docker/compose)."""


def _compose_operands(args: Sequence[str]) -> list[str]:
    """``docker compose -f x.yml exec web env`` → ``["exec", "web", "env"]``."""
    return [a for previous, a in itertools.pairwise(["", *args])
            if not a.startswith("-") and previous not in _COMPOSE_VALUES and a != "compose"]


def _configuration_why(head: str, args: Sequence[str]) -> str | None:
    operands = cloud_operands(head, args)
    if head in _INSPECTORS and operands[:1] == ["compose"]:
        head, operands = "docker-compose", operands[1:]
    if head in ("docker-compose", "podman-compose"):
        operands = _compose_operands(args)
    if head in ("docker-compose", "podman-compose") and operands[:1] in (["config"],
                                                                         ["convert"]):
        shown = {"--services", "--volumes", "--profiles", "--images", "--hash", "-q",
                 "--quiet", "--networks"}
        if shown.isdisjoint(args):
            return "compose config prints the project with its .env values interpolated"
        return None
    if head == "systemctl" and operands[:1] == ["show"] and any(
            a.partition("=")[2] == "Environment" or a == "Environment" for a in args):
        return "systemctl show -p Environment prints a unit's environment"
    if head == "aws" and operands[:2] == ["ec2", "describe-instance-attribute"] and any(
            a.lower() == "userdata" or a.lower().endswith("=userdata") for a in args):
        return "the instance's user data often carries its secrets"
    for prefix in _CONFIGURATIONS.get(head, ()):
        if tuple(operands[: len(prefix)]) == prefix and not _narrow(head, args):
            return (f"{head} {' '.join(prefix)} prints a configuration with its "
                    "environment variables")
    return None


CONFIGURATION_HEADS: frozenset[str] = frozenset(_CONFIGURATIONS) | {
    "docker-compose", "podman-compose"}
"""Command names whose configuration output may carry an environment (the module text)."""

ENVIRONMENT_HEADS: frozenset[str] = frozenset({
    "printenv", "echo", "printf", "env", "set", "export", "declare", "typeset", "compgen",
    }) | _CODE_RUNNERS | _INSPECTORS | CONFIGURATION_HEADS
"""Command names :func:`environment_secret_finding` needs to see one of."""


def exposes_environment(segment: Segment) -> bool:
    """Whether a segment prints an environment: whole, a secret of it, or in a configuration.

    :param segment: one analysed segment.
    :returns: true for ``aws lambda get-function-configuration …``, ``docker inspect web``,
        ``printenv GITHUB_TOKEN``, ``python3 -c 'print(os.environ)'``.
    """
    if not segment.command_positions:
        return False
    words = segment.words[segment.command_positions[-1] + 1 :]
    return _whole_dump(segment, [w.value for w in words]) is not None or (
        _named_variable(segment.command, words) is not None)


_SCREEN_CAPTURES: dict[str, tuple[str, ...]] = {
    # programs that save what the screen shows (each one's manual; LOOBins' screencapture,
    # MITRE T1113): with no option, unless a listed option makes it capture
    "screencapture": (), "scrot": (), "grim": (), "gnome-screenshot": (), "spectacle": (),
    "maim": (), "flameshot": (), "xfce4-screenshooter": (), "shutter": (),
    "import": (), "xwd": ("-root",),  # ImageMagick's import captures a window or the screen
}
SCREEN_HEADS: frozenset[str] = frozenset(_SCREEN_CAPTURES)
"""Command names :func:`screen_capture_finding` looks at."""


def screen_capture_finding(segment: Segment) -> Finding | None:
    """Ask before capturing the screen: what it shows may be secret (rule ``screen-capture``).

    ``screencapture -x shot.png`` (silent), ``scrot``, ``import -window root x.png``, ``xwd
    -root``; ``xwd`` of one window it is told is left alone, and so is a help or version
    request.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    needed = _SCREEN_CAPTURES.get(segment.command)
    if needed is None or not segment.command_positions:
        return None
    args = segment.argv[1:]
    if needed and not set(needed) & set(args):
        return None
    if any(a in ("-h", "--help", "-v", "--version") for a in args):
        return None
    return Finding(ASK, "screen-capture", f"{segment.text!r} captures the screen: what it "
                   "shows may be a secret")


def secret_store_finding(segment: Segment) -> Finding | None:
    """Deny a command whose purpose is to print a stored secret.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    return argv_finding(segment, DENY, "credential-store", _why)


_PS_VALUES = frozenset({"-o", "-O", "-C", "-p", "-q", "-u", "-U", "-g", "-G", "-t", "-s",
                        "--pid", "--ppid", "--user", "--User", "--group", "--Group", "--sid",
                        "--tty", "--format", "--sort", "-k"})
"""ps(1) options that take a value (``-o pid,etime,cmd``, ``-C node``): not BSD flags."""


def _ps_environment(args: Sequence[str]) -> bool:
    """BSD-style ``ps e`` (``ps eww``, ``ps auxe``): every process' environment printed."""
    for option, arg in itertools.pairwise(["", *args]):
        if option in _PS_VALUES:
            continue
        if not arg.startswith("-") and arg.isalpha() and "e" in arg:
            return True
    return False
