"""Cloud changes that open access or blind the defenders: they ask (rule ``cloud-access``).

A vendor CLI an agent finds on its PATH acts with the user's cloud identity. Deleting what
it names is :mod:`.routine_destructive`'s, printing a secret :mod:`.secret_stores`'; these
change *who can reach* a resource, or whether anyone sees it happen. Each row is an API of the
vendor's CLI reference that elastic/detection-rules (``rules/integrations/aws|gcp|azure``)
or Kubernetes' RBAC documentation flags:

| class                | commands                                                         |
| -------------------- | ---------------------------------------------------------------- |
| opened to everyone   | a changing command of ``aws``, ``gcloud``, ``gsutil``, ``az``    |
|                      | naming a public principal: ``0.0.0.0/0``, ``::/0``, ``allUsers``, |
|                      | ``allAuthenticatedUsers``, a ``public-read*`` ACL, ``Group=all``, |
|                      | ``--values-to-add all``, ``--public-access blob|container``,      |
|                      | ``--allow-blob-public-access true``, an NSG source ``*``          |
| access granted       | ``aws iam create-user|create-login-profile|attach-*-policy|       |
|                      | put-*-policy|add-user-to-group|update-assume-role-policy``,      |
|                      | ``aws s3api put-bucket-acl|put-bucket-policy|put-object-acl|       |
|                      | delete-public-access-block``, an image or snapshot shared         |
|                      | (``modify-*-attribute`` adding an account); ``gcloud …            |
|                      | add-iam-policy-binding|set-iam-policy``, ``gcloud iam roles|      |
|                      | service-accounts create``, ``ssh-keys`` added to metadata;        |
|                      | ``gsutil iam|acl ch|set``; ``az role assignment create``, ``az ad |
|                      | user|sp create``, ``az ad group member add``; ``kubectl create     |
|                      | clusterrolebinding|rolebinding``, ``kubectl certificate approve``;|
|                      | ``gh ssh-key|gpg-key add``, ``gh repo deploy-key add``, ``gh api``|
|                      | writes to collaborators, keys, hooks, members, secrets, branch    |
|                      | protection (``gh api -X PUT repos/o/r/collaborators/u``)          |
| defences turned off  | ``aws cloudtrail stop-logging``, ``aws configservice              |
|                      | stop-configuration-recorder``, an ``aws … disable-*`` of a        |
|                      | service (Security Hub, EBS encryption…), ``aws organizations      |
|                      | leave-organization``, ``modify-instance-metadata-options          |
|                      | --http-tokens optional`` (IMDSv1 back on)                         |

Any other change a control-plane CLI makes to live infrastructure asks too, as rule
``cloud-change`` (:func:`cloud_change_finding`): every ``aws`` operation but the reads
(``describe-*``, ``list-*``, ``get-*``, ``head-*``, ``lookup-*``, ``search-*``, ``scan``,
``query``, ``filter-*``, ``select-*``, ``batch-get-*``, ``validate-*``, ``estimate-*``,
``simulate-*``, ``test-*``, ``wait``, ``logs tail``, ``s3 ls``, a download with ``s3 cp|sync``;
an upload is :mod:`.uploads`'), every ``gcloud`` and ``az`` command without a read verb
(``list``, ``describe``, ``show``, ``get-*``, ``list-*``, ``show-*``, ``read``, ``tail``,
``search``, ``info``, ``version``, ``exists``, ``wait``, ``storage ls|cat`` and a
``storage cp|rsync`` download), every ``kubectl``/``oc`` subcommand but the reads (``get``,
``describe``, ``logs``, ``top``, ``explain``, ``diff``, ``events``, ``wait``, ``config view``,
``auth can-i``, ``rollout status|history``, ``port-forward``, ``proxy``, a ``--dry-run``;
``exec``, whose command is judged as one run over ssh is), ``helm install|upgrade|rollback``,
and the deploy verbs of infrastructure-as-code and platform CLIs (``terraform|tofu apply``,
``pulumi up``, ``cdk|sam|serverless|fly|firebase|wrangler deploy``, ``vercel --prod``,
``netlify deploy --prod``; ``plan``, ``preview``, ``diff`` and ``synth`` do not). The user's
cloud account is not the project: a coding agent lists and describes it freely, and asks
before it changes a machine, a function, a trail, a cluster or a copy of the data in it.

Listing, describing and reading (``aws s3 ls``, ``gcloud projects get-iam-policy``,
``kubectl get clusterrolebindings``) stay allowed; a filter naming ``0.0.0.0/0`` in a
``describe-*`` call changes nothing, and neither does a route's destination (``aws ec2
create-route --destination-cidr-block 0.0.0.0/0``: where traffic goes, not who may come in).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.cloud_clis import operands as cloud_operands
from tooldeck.shell_analysis.findings import ASK, Finding, argv_finding
from tooldeck.shell_analysis.model import Segment

__all__ = ["CLOUD_ACCESS_HEADS", "CLOUD_CHANGE_HEADS", "cloud_access_finding",
           "cloud_change_finding"]

_PUBLIC_CLIS = frozenset({"aws", "gcloud", "gsutil", "az"})
_PUBLIC = re.compile(
    r"(?:^|[=,:\s\[{])(?:0\.0\.0\.0/0|::/0|allusers|allauthenticatedusers|public-read(?:-write)?"
    r"|group=all)(?:$|[,:\s\]}])", re.IGNORECASE)
_PUBLIC_OPTIONS: dict[str, frozenset[str]] = {
    # options whose value opens a resource to everyone (each CLI's reference)
    "--values-to-add": frozenset({"all"}),
    "--public-access": frozenset({"blob", "container"}),
    "--allow-blob-public-access": frozenset({"true"}),
    "--source-address-prefixes": frozenset({"*", "internet", "any"}),
    "--source-address-prefix": frozenset({"*", "internet", "any"}),
}
_READ_VERBS = ("describe", "list", "get", "show", "ls", "cat", "lookup", "search")

_GRANTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "gcloud": (("iam", "roles", "create"), ("iam", "service-accounts", "create")),
    "gsutil": (("iam", "ch"), ("iam", "set"), ("acl", "ch"), ("acl", "set"),
               ("defacl", "ch"), ("defacl", "set")),
    "az": (("role", "assignment", "create"), ("ad", "user", "create"),
           ("ad", "sp", "create"), ("ad", "group", "member", "add"),
           ("ad", "app", "permission", "grant")),
    "kubectl": (("create", "clusterrolebinding"), ("create", "rolebinding"),
                ("certificate", "approve")),
    "oc": (("create", "clusterrolebinding"), ("create", "rolebinding"),
           ("certificate", "approve"), ("adm", "policy")),
    "gh": (("ssh-key", "add"), ("gpg-key", "add"), ("repo", "deploy-key", "add")),
}
_AWS_GRANT_VERBS: dict[str, tuple[str, ...]] = {
    "iam": ("create-user", "create-login-profile", "update-login-profile", "attach-",
            "put-user-policy", "put-role-policy", "put-group-policy", "add-user-to-group",
            "update-assume-role-policy", "create-policy-version",
            "set-default-policy-version"),
    "s3api": ("put-bucket-acl", "put-bucket-policy", "put-object-acl",
              "delete-public-access-block", "delete-bucket-policy"),
}
_SHARING_VERBS = ("modify-image-attribute", "modify-snapshot-attribute",
                  "modify-db-snapshot-attribute", "modify-db-cluster-snapshot-attribute")
_DEFENCES_OFF = ("stop-logging", "stop-configuration-recorder", "disable-",
                 "leave-organization")

CLOUD_ACCESS_HEADS: frozenset[str] = _PUBLIC_CLIS | frozenset(_GRANTS)
"""Command names :func:`cloud_access_finding` looks at."""


def _reads_only(operands: Sequence[str]) -> bool:
    return any(o.startswith(_READ_VERBS) for o in operands[:4])


def _public(args: Sequence[str]) -> str | None:
    for option, value in zip(args, [*args[1:], ""], strict=False):
        name, joined, tail = option.partition("=")
        opened = _PUBLIC_OPTIONS.get(name)
        if opened is not None and (tail if joined else value).strip("'\"").lower() in opened:
            return f"{name} {(tail if joined else value)}"
    return next((a for previous, a in zip(["", *args], args, strict=False)
                 if _PUBLIC.search(a) and "destination" not in previous
                 and "destination" not in a.partition("=")[0]), None)


def _aws(operands: Sequence[str], args: Sequence[str]) -> str | None:
    service, verb = [*operands[:2], "", ""][:2]
    if verb.startswith(_AWS_GRANT_VERBS.get(service, ("\0",))):
        return f"aws {service} {verb} changes who can access the account's resources"
    if verb.startswith(_SHARING_VERBS) and any(
            "add" in a.lower() for a in args if not a.startswith("--attribute")):
        return f"aws {service} {verb} shares an image or a snapshot with other accounts"
    if verb.startswith(_DEFENCES_OFF):
        return f"aws {service} {verb} turns a defence or its audit trail off"
    if verb == "modify-instance-metadata-options" and "optional" in args:
        return "aws ec2 modify-instance-metadata-options turns IMDSv1 back on"
    return None


def _why(head: str, args: Sequence[str]) -> str | None:
    operands = cloud_operands(head, args)
    if _reads_only(operands):
        return None
    if head in _PUBLIC_CLIS:
        public = _public(args)
        if public is not None:
            return f"{head} opens a resource to everyone ({public})"
    if head == "aws":
        return _aws(operands, args)
    if head == "gcloud" and any(o in ("add-iam-policy-binding", "set-iam-policy")
                                for o in operands):
        return "gcloud grants a role on a resource (an IAM policy binding)"
    if head == "gcloud" and any(o == "add-metadata" for o in operands) and any(
            "ssh-keys" in a for a in args):
        return "gcloud adds SSH keys that log in to the project's machines"
    for prefix in _GRANTS.get(head, ()):
        if tuple(operands[: len(prefix)]) == prefix:
            return f"{head} {' '.join(prefix)} changes who can access"
    if head == "gh" and operands[:1] == ["api"] and _gh_api_grants(operands[1:], args):
        return "gh api changes who can access a repository or organisation"
    return None


_GH_ACCESS = re.compile(r"(?:^|/)(?:collaborators|invitations|keys|hooks|members|memberships|"
                        r"outside_collaborators|permissions|teams/[^/]+/repos|secrets|"
                        r"variables|protection|rulesets)(?:/|$)")
"""REST endpoints that decide who reaches a repository or organisation (GitHub's REST
reference: collaborators, deploy keys, webhooks, members, team repositories, Actions secrets
and permissions, branch protection and rulesets)."""
_GH_FIELDS = ("-f", "-F", "--field", "--raw-field", "--input")


def _gh_api_grants(operands: Sequence[str], args: Sequence[str]) -> bool:
    """``gh api -X PUT repos/o/r/collaborators/u -f permission=admin``: a write to access.

    gh api sends POST when fields are given and no method is (gh-api(1)), GET otherwise.
    """
    method = next((b for a, b in itertools.pairwise([*args, ""]) if a in ("-X", "--method")),
                  next((a.partition("=")[2] or a[2:] for a in args
                        if a.startswith(("--method=", "-X")) and a != "-X"), ""))
    if not method and any(a.startswith(_GH_FIELDS) for a in args):
        method = "POST"
    return method.upper() in ("POST", "PUT", "PATCH", "DELETE") and any(
        _GH_ACCESS.search(o) for o in operands if "=" not in o)


def cloud_access_finding(segment: Segment) -> Finding | None:
    """Ask before a vendor CLI opens access or turns a defence off.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    return argv_finding(segment, ASK, "cloud-access", _why)


_AWS_READS = ("describe-", "list-", "get-", "head-", "lookup-", "search-", "scan", "query",
              "filter-", "select-", "batch-get-", "validate-", "estimate-", "simulate-",
              "test-", "wait", "help", "decode-", "detect-", "preview-", "verify")
_AWS_READ_COMMANDS = frozenset({("s3", "ls"), ("logs", "tail"), ("configure", "list"),
                                ("configure", "get"), ("history", "list"), ("history", "show"),
                                ("s3", "presign")})
_AWS_COPIES = frozenset({"cp", "sync", "mv"})
_GCLOUD_AZ_READS = frozenset({"list", "describe", "show", "read", "tail", "search", "info",
                              "version", "exists", "wait", "help", "get-value", "topic",
                              "cheat-sheet", "ls", "cat", "du", "hash"})
_GCLOUD_COPIES = frozenset({"cp", "rsync", "mv"})
_GCLOUD_AZ_READ_PREFIXES = ("get-", "list-", "show-", "describe-", "search-", "check-")
_KUBE_READS = frozenset({"get", "describe", "logs", "log", "top", "explain", "api-resources",
                         "api-versions", "version", "cluster-info", "diff", "events", "wait",
                         "completion", "plugin", "kustomize", "options", "help",
                         "port-forward", "proxy", "whoami", "status", "projects",
                         # a command run in a container is judged as that command, as one
                         # run over ssh is (tests/shell/test_remote_and_local_work.py)
                         "exec"})
_KUBE_READ_PAIRS = frozenset({("config", "view"), ("config", "get-contexts"),
                              ("config", "current-context"), ("config", "get-clusters"),
                              ("config", "get-users"), ("auth", "can-i"), ("auth", "whoami"),
                              ("rollout", "status"), ("rollout", "history"), ("cert", "list")})
_HELM_CHANGES = frozenset({"install", "upgrade", "rollback"})
_DEPLOYS: dict[str, frozenset[str]] = {
    # infrastructure as code and platforms: the verb that changes what runs (each CLI's
    # reference; plan, preview, diff, synth, build and a local dev server do not)
    "terraform": frozenset({"apply", "import"}), "tofu": frozenset({"apply", "import"}),
    "terragrunt": frozenset({"apply", "run-all"}), "pulumi": frozenset({"up", "update"}),
    "cdk": frozenset({"deploy"}), "sam": frozenset({"deploy", "sync"}),
    "serverless": frozenset({"deploy"}), "sls": frozenset({"deploy"}),
    "fly": frozenset({"deploy"}), "flyctl": frozenset({"deploy"}),
    "firebase": frozenset({"deploy"}), "wrangler": frozenset({"deploy", "publish"}),
    "vercel": frozenset({"deploy", "--prod"}), "netlify": frozenset({"--prod"}),
    "railway": frozenset({"up"}), "heroku": frozenset({"releases:rollback"}),
    "eb": frozenset({"deploy"}), "copilot": frozenset({"deploy"}),
}
"""Deploy commands by CLI: a word that makes the command change live infrastructure."""

CLOUD_CHANGE_HEADS: frozenset[str] = frozenset({"aws", "gcloud", "az", "kubectl", "oc",
                                                "helm"}) | frozenset(_DEPLOYS)
"""Command names :func:`cloud_change_finding` looks at."""


def _aws_changes(operands: Sequence[str]) -> bool:
    service, verb = [*operands[:2], "", ""][:2]
    if not verb or verb.startswith(_AWS_READS) or (service, verb) in _AWS_READ_COMMANDS:
        return False
    if service == "s3" and verb in _AWS_COPIES:  # a download to a local path reads
        remote = [o for o in operands[2:] if o.startswith("s3://")]
        return verb == "mv" or len(remote) >= 2  # bucket to bucket: a copy elsewhere
    return True


def _change_why(head: str, args: Sequence[str]) -> str | None:
    if any(a in ("--help", "-h", "help") for a in args) or not args:
        return None
    operands = cloud_operands(head, args)
    if head in _DEPLOYS:
        verbs = _DEPLOYS[head]  # the first operand (vercel deploy), or a flag (--prod)
        verb = next((a for a in [*operands[:1], *args] if a in verbs
                     and (a.startswith("-") or a == operands[0])), None)
        if verb is None or "--dry-run" in args or (head == "netlify" and "deploy" not in args):
            return None
        return f"{head} {verb} deploys to live infrastructure"
    if head == "aws":
        changes = _aws_changes(operands)
    elif head == "gcloud" and operands[:1] == ["storage"] and operands[1:2] and (
            operands[1] in _GCLOUD_COPIES):  # a download to a local path reads
        remote = [o for o in operands[2:] if o.startswith("gs://")]
        changes = operands[1] == "mv" or len(remote) >= 2
    elif head in ("gcloud", "az"):
        changes = len(operands) >= 2 and not any(
            o in _GCLOUD_AZ_READS or o.startswith(_GCLOUD_AZ_READ_PREFIXES)
            for o in operands[:5])
    elif head == "helm":
        changes = operands[:1] != [] and operands[0] in _HELM_CHANGES and not any(
            a.startswith("--dry-run") for a in args)
    else:
        changes = bool(operands) and operands[0] not in _KUBE_READS and (
            tuple(operands[:2]) not in _KUBE_READ_PAIRS) and not any(
            a.startswith("--dry-run") and a != "--dry-run=none" for a in args)
    if not changes:
        return None
    return f"{head} {' '.join(operands[:3])} changes live cloud infrastructure"


def cloud_change_finding(segment: Segment) -> Finding | None:
    """Ask before a control-plane CLI changes live infrastructure (the module text).

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    return argv_finding(segment, ASK, "cloud-change", _change_why)
