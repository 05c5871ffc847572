"""Secrets printed by the tools that keep them: secret managers, CLI tokens, the clipboard.

A secret does not have to sit in a file: a CLI prints it on request. Each entry is a command
whose documented purpose is to output a secret (vendor documentation of each tool); the rule
``credential-store`` denies it, like the keychain reads of :mod:`.escalation`.

| tool                         | reads a secret when                                        |
| ---------------------------- | ---------------------------------------------------------- |
| ``gh``, ``glab``             | ``auth token``; ``auth status -t|--show-token``; glab      |
|                              | ``variable get``                                            |
| ``git``                      | ``credential fill``; ``credential-<helper> get``           |
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
| ``fly``, ``netlify``,        | ``auth token``; ``env:get``, ``env:list --plain``;          |
| ``supabase``, ``firebase``,  | ``projects api-keys``; ``login:ci``; ``npm token create``   |
| ``npm``                      |                                                             |

Global options before the subcommand (``aws --profile prod sts get-session-token``) are
skipped with their values (:mod:`.cloud_clis`).

:func:`environment_secret_finding` asks before printing the secrets the agent's own
environment holds (``printenv GITHUB_TOKEN``, ``echo $AWS_SECRET_ACCESS_KEY``, ``env | grep
-i token``, ``docker inspect web | grep -i pass``; rule ``secret-variable``): the scrubbed
child environment rarely has them. A bare dump (``env``, ``printenv``, ``env | sort``,
``export -p``, ``set``, ``declare -x``) prints them all and asks the same; piped into a filter
or a counter (``env | grep -i proxy``, ``env | wc -l``) it is judged by what is picked.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.cloud_clis import operands as cloud_operands
from tooldeck.shell_analysis.findings import ASK, DENY, Finding, argv_finding
from tooldeck.shell_analysis.model import CommandAnalysis, Segment

__all__ = ["ENVIRONMENT_HEADS", "STORE_HEADS", "environment_secret_finding",
           "secret_store_finding"]

_READS: dict[str, tuple[tuple[str, ...], ...]] = {
    "gh": (("auth", "token"),),
    "glab": (("variable", "get"),),
    "git": (("credential", "fill"),),
    "op": (("read",),),
    "bw": (("get",), ("list", "items"), ("export",)),
    "lpass": (("show",),),
    "gopass": (("show",), ("cat",), ("otp",)),
    # Python's keyring CLI prints a stored password (keyring --help: get SERVICE USER)
    "keyring": (("get",),),
    "keepassxc-cli": (("show",),),
    "vault": (("read",), ("kv", "get"), ("print", "token"), ("token", "create")),
    "dotenv": (("list",), ("get",)), "dotenvx": (("get",),),
    # decrypters and infrastructure state that print secrets (each tool's manual)
    "ansible-vault": (("view",), ("decrypt",)), "doctl": (("auth", "token"),),
    "firebase": (("functions:config:get",), ("login:ci",)),
    # tokens issued or printed by the platforms' and registries' CLIs (each CLI's reference)
    "fly": (("auth", "token"),), "flyctl": (("auth", "token"),),
    "netlify": (("env:get",),), "supabase": (("projects", "api-keys"),),
    "npm": (("token", "create"),),
    "pulumi": (("stack", "output", "--show-secrets"), ("config", "--show-secrets")),
    "terraform": (("state", "pull"),), "tofu": (("state", "pull"),),
    "aws": (("secretsmanager", "get-secret-value"), ("secretsmanager", "batch-get-secret-value"),
            ("rds", "generate-db-auth-token"), ("sts", "get-session-token"),
            ("configure", "export-credentials"), ("ecr", "get-login-password"),
            ("ecr-public", "get-login-password"),
            ("codeartifact", "get-authorization-token"), ("sts", "assume-role"),
            ("sts", "get-federation-token"), ("ec2", "get-password-data")),
    "gcloud": (("secrets", "versions", "access"), ("auth", "print-access-token"),
               ("auth", "print-identity-token"),
               ("auth", "application-default", "print-access-token"),
               ("config", "config-helper"), ("iam", "service-accounts", "keys", "create"),
               ("storage", "hmac", "create")),
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
           ("cosmosdb", "keys", "list"), ("redis", "list-keys")),
    "kubectl": (("create", "token"),),
    "oc": (("create", "token"),),
    "heroku": (("auth:token",), ("config",), ("config:get",)),
    "doppler": (("secrets",),),
    "infisical": (("secrets",),),
}
_CLIPBOARD_ALWAYS = frozenset({"pbpaste", "wl-paste"})
_CLIPBOARD = frozenset({"xclip", "xsel"})
_XSEL_INPUT = frozenset({"-i", "--input", "-a", "--append", "-f", "--follow", "-c", "--clear",
                         "-d", "--delete", "-k", "--keep", "-x", "--exchange"})
_AWS_SECRET_KEYS = frozenset({"aws_secret_access_key", "aws_session_token",
                              "aws_security_token"})
_EXEC_HEADS = frozenset({"docker", "podman", "nerdctl", "kubectl", "oc"})
_ENV_PRINTERS = frozenset({"env", "printenv"})
_JSON_FILTERS = frozenset({"jq", "gojq", "jaq", "yq"})
_INJECTORS = frozenset({"op", "doppler", "infisical", "aws-vault", "chamber", "dotenv",
                        "dotenvx", "envconsul", "teller", "sops", "berglas", "vals"})
"""Secret injectors that run a command with secrets in its environment (their manuals)."""
_INSPECTORS = frozenset({"docker", "podman", "nerdctl"})

STORE_HEADS: frozenset[str] = (frozenset(_READS) | _CLIPBOARD_ALWAYS | _CLIPBOARD
                               | frozenset({"op", "ps", "aws"}) | _INSPECTORS | _JSON_FILTERS
                               | _INJECTORS | frozenset({"sops", "ansible-vault", "doctl",
                                                         "heroku", "firebase", "pulumi",
                                                         "terraform", "tofu"}))
"""Command names :func:`secret_store_finding` looks at."""

ENVIRONMENT_HEADS: frozenset[str] = frozenset({"printenv", "echo", "printf", "env", "set",
                                               "export", "declare", "typeset", "compgen"}
                                              ) | _INSPECTORS
"""Command names :func:`environment_secret_finding` needs to see one of."""


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
            if chosen.partition("=")[0] not in _NAMES_ONLY:
                return True
        if name in ("--template", "--show-managed-fields"):
            return True
    return False


def _why(head: str, args: Sequence[str]) -> str | None:
    operands = cloud_operands(head, args)
    if head in ("terraform", "tofu") and operands[:1] == ["output"] and any(
            a.lstrip("-").partition("=")[0] in ("json", "raw") for a in args):
        return f"{head} output -json|-raw prints sensitive outputs in plain text"
    for prefix in _READS.get(head, ()):
        if tuple(operands[: len(prefix)]) == prefix:
            return f"{head} {' '.join(prefix)} prints a secret"
    if head in ("gh", "glab") and operands[:2] == ["auth", "status"] and (
            "-t" in args or "--show-token" in args):
        return f"{head} auth status --show-token prints a token"
    if head == "netlify" and operands[:1] == ["env:list"] and "--plain" in args:
        return "netlify env:list --plain prints every variable's value"
    if "--raw" in args and (head, operands[:1]) in (("op", ["signin"]), ("bw", ["unlock"])):
        return f"{head} {operands[0]} --raw prints a session key"
    if head == "git" and operands[:1] and operands[0].startswith("credential-") and (
            operands[1:2] == ["get"]):
        return f"git {operands[0]} get prints a stored credential"
    if head == "op" and operands[:2] == ["item", "get"] and any(
            a.startswith(("--fields", "--reveal")) for a in args):
        return "op item get prints a stored secret"
    if head == "aws" and operands[:1] == ["ssm"] and "--with-decryption" in args:
        return "aws ssm get-parameter --with-decryption prints a secret"
    if head == "aws" and operands[:2] == ["configure", "get"] and not _AWS_SECRET_KEYS.isdisjoint(
            o.rpartition(".")[2] for o in operands[2:]):
        return "aws configure get prints a stored access key"
    if head in ("kubectl", "oc") and operands[:2] in (["get", "secret"], ["get", "secrets"]) and (
            _shows_data(args)):
        return f"{head} get secret with an output format prints the secrets' values"
    if head in ("kubectl", "oc") and operands[:2] == ["config", "view"] and "--raw" in args:
        return f"{head} config view --raw prints client keys and tokens"
    if head == "oc" and operands[:1] == ["whoami"] and ("-t" in args or "--show-token" in args):
        return "oc whoami --show-token prints a token"
    if head in _CLIPBOARD_ALWAYS or (head == "xclip" and any(
            a.startswith("-o") for a in args)) or (head == "xsel" and _xsel_reads(args)):
        return "reads the clipboard"
    if head == "ps" and any(not a.startswith("-") and "e" in a and a.isalpha() for a in args):
        return "ps e prints every process' environment"
    if head in ("docker", "podman", "nerdctl") and operands[:1] == ["inspect"] and any(
            ".Config.Env" in a or ".Env" in a for a in args):
        return f"{head} inspect prints a container's environment"
    if head == "sops" and any(a in ("-d", "--decrypt") for a in args):
        return "sops -d prints the decrypted secrets"
    if head == "pulumi" and "--show-secrets" in args:
        return "pulumi --show-secrets prints the stack's secrets"
    if head == "aws" and operands[:2] == ["iam", "create-access-key"]:
        return "aws iam create-access-key prints a new secret access key"
    if head in _JSON_FILTERS and any(".Config.Env" in a for a in operands[:1]):
        return f"{head} picks a container's environment out of its inspect output"
    if head in _EXEC_HEADS and operands[:1] == ["exec"] and _prints_environment(args):
        return f"{head} exec prints a container's environment"
    if head in _INSPECTORS and operands[:1] in (["run"], ["create"]) and any(
            a.startswith("--env-file") for a in args) and _prints_environment(args):
        return f"{head} run prints the environment it was given from an --env-file"
    if head in _INJECTORS and _prints_environment(args):
        return f"{head} injects secrets into a command that prints them"
    return None


def _xsel_reads(args: Sequence[str]) -> bool:
    """``xsel -o``, or ``xsel`` with no input, clear or delete mode (it prints the selection)."""
    if any(a in ("-o", "--output") or (a.startswith("-") and not a.startswith("--")
                                       and "o" in a) for a in args):
        return True
    return not any(a in _XSEL_INPUT or (a.startswith("-") and not a.startswith("--") and any(
        c in a for c in "iafcdkx")) for a in args)


def _prints_environment(args: Sequence[str]) -> bool:
    """``docker exec web env``, ``kubectl exec pod -- printenv``: the inner command dumps."""
    for index, arg in enumerate(args):
        if arg in _ENV_PRINTERS:
            rest = args[index + 1 :]
            return arg == "printenv" or all(a.startswith("-") for a in rest)
    return False


_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|"
                          r"COOKIE|(?<![A-Z0-9])(?:KEY|PASS)(?![A-Z0-9])",
                          re.IGNORECASE)
_REFERENCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "typeset", "compgen"})
_FILTERS = frozenset({"grep", "egrep", "rg", "ag", "awk", "sed"})


def environment_secret_finding(analysis: CommandAnalysis) -> Finding | None:
    """Ask before printing the secrets the environment holds (the agent's own tokens).

    ``printenv GITHUB_TOKEN``, ``echo $AWS_SECRET_ACCESS_KEY``, ``env | grep -i token``:
    a variable named for a secret, printed or filtered out of an environment dump. Asks, not
    denies: the child environment is scrubbed of such variables ([tools.shell]
    env_secret_markers), so only one an operator kept or the session set is shown.

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
        following = segments[index + 1] if index + 1 < len(segments) else None
        if _bare_dump(name, [w.value for w in words]) and not (
                following is not None and following.stdin == "pipe"
                and following.command in _SELECTORS):
            return Finding(ASK, "secret-variable", f"{segment.text!r} prints every variable "
                           "of the environment, secrets included")
        if name == "printenv" and any(_SECRET_NAME.search(w.value) for w in words):
            return Finding(ASK, "secret-variable", f"{segment.text!r} prints a secret variable")
        if name in ("echo", "printf") and any(
                _SECRET_NAME.search(v) for w in words for v in _REFERENCE.findall(w.source)):
            return Finding(ASK, "secret-variable", f"{segment.text!r} prints a secret variable")
        if (name in _DUMPERS and (name in ("env", "printenv") or not words or all(
                w.value.startswith("-") for w in words))) or (
                name in _INSPECTORS and [w.value for w in words][:1] == ["inspect"]):
            dumped = True  # a container's inspect output holds its environment too
        elif dumped and name in _FILTERS and any(_SECRET_NAME.search(w.value) for w in words):
            return Finding(ASK, "secret-variable", f"{segment.text!r} picks secrets out of "
                           "the environment")
    return None


_SELECTORS = _FILTERS | {"wc", "cut"}
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


def secret_store_finding(segment: Segment) -> Finding | None:
    """Deny a command whose purpose is to print a stored secret.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    return argv_finding(segment, DENY, "credential-store", _why)
