"""The tenth probe round (policy26): ``data/class_probes_policy26.tsv``.

Agent-era classes, mechanism by mechanism: cloud and CI credentials used through the vendor
CLIs an agent has on its PATH (tokens printed, access opened, resources deleted, packages
published, images pushed; each row cites the vendor's CLI reference and, where one exists,
elastic/detection-rules' ``rules/integrations`` rule), writes of coding agents' settings,
hooks, MCP configs, rules and memory files (each agent's documentation) and of tooldeck's own
trust, and last session's inconsistencies, each decided one way. Every dangerous row must be
caught (denied or asked), every ``allow`` row allowed, every ``asked`` row asked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.shell_analysis import DEFAULT_BLOCKED, ClassContext, analyze, judge_classes
from tooldeck.shell_analysis.cloud_clis import operands
from tooldeck.shell_analysis.paths import path_arguments

from .probe_rounds import (
    Row,
    missed,
    read_rows,
    table_problems,
    verdicts_fixture,
    wrong_look_alikes,
)

DATA = Path(__file__).with_name("data") / "class_probes_policy26.tsv"
CONTEXT = ClassContext(DEFAULT_BLOCKED, ("/work/project",), "/work/project")


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)


def test_rows_name_their_source_and_each_class_has_look_alikes() -> None:
    assert table_problems(_rows(), dangerous=150, look_alikes=60) == []


def test_every_dangerous_row_is_caught(judged: dict[str, str]) -> None:
    assert missed(_rows(), judged) == []


def test_look_alikes_keep_their_verdict(judged: dict[str, str]) -> None:
    assert wrong_look_alikes(_rows(), judged) == []


# The forms behind this round's fixes, at the analysis level.

def _finding(command: str) -> tuple[str, str] | None:
    found = judge_classes(analyze(command), CONTEXT)
    return None if found is None else (found.verdict, found.rule)


@pytest.mark.parametrize(("head", "args", "expected"), [
    ("aws", ["--profile", "prod", "s3", "rb", "s3://b", "--force"], ["s3", "rb", "s3://b"]),
    ("aws", ["--profile=prod", "sts", "get-session-token"], ["sts", "get-session-token"]),
    ("gcloud", ["--project", "p", "auth", "print-access-token"], ["auth", "print-access-token"]),
    ("kubectl", ["-n", "prod", "delete", "deploy", "api"], ["delete", "deploy", "api"]),
    ("helm", ["--kube-context", "prod", "uninstall", "app"], ["uninstall", "app"]),
    ("pnpm", ["--filter", "core", "publish"], ["publish"]),
])
def test_global_options_and_their_values_are_skipped(head: str, args: list[str],
                                                     expected: list[str]) -> None:
    assert operands(head, args) == expected


@pytest.mark.parametrize("command", [
    "aws ssm get-parameter --name /app/region", "aws ssm get-parameter --name=/app/region",
    "aws iam list-roles --path /service/",
    "az role assignment list --scope /subscriptions/0000/resourceGroups/rg",
    "az resource show --ids=/subscriptions/0/x",
])
def test_cloud_resource_names_are_no_paths(command: str) -> None:
    assert path_arguments(analyze(command)) == ()


def test_a_file_beside_a_resource_name_is_still_a_path() -> None:
    assert path_arguments(analyze("aws s3 cp /etc/hosts s3://b/ --name /x")) == ("/etc/hosts",)
    assert "/etc/passwd" in path_arguments(analyze("az storage blob upload -f /etc/passwd"))


@pytest.mark.parametrize("command", [
    "aws --profile prod sts get-session-token", "gcloud --project p auth print-access-token",
    "aws sts assume-role --role-arn arn:aws:iam::1:role/A --role-session-name s",
    "az ad sp create-for-rbac --name ci", "gcloud iam service-accounts keys create k.json",
    "bw list items", "bw unlock --raw", "op signin --raw", "glab auth status -t",
    "npm token create", "fly auth token", "vault token create", "netlify env:list --plain",
])
def test_more_tokens_printed_are_credential_store(command: str) -> None:
    assert _finding(command) == ("deny", "credential-store")


@pytest.mark.parametrize("command", [
    "bw status", "op signin", "npm token list", "netlify env:list", "glab auth status",
    "aws sts get-caller-identity",
])
def test_their_status_forms_stay_allowed(command: str) -> None:
    assert _finding(command) is None


@pytest.mark.parametrize("command", [
    "aws s3api put-bucket-acl --bucket b --acl public-read",
    "aws ec2 authorize-security-group-ingress --group-id sg-1 --cidr 0.0.0.0/0",
    "aws iam attach-role-policy --role-name r --policy-arn arn:aws:iam::aws:policy/X",
    "aws cloudtrail stop-logging --name main",
    "aws ec2 modify-instance-metadata-options --instance-id i-1 --http-tokens optional",
    "gcloud projects add-iam-policy-binding p --member=user:x --role=roles/owner",
    "gsutil iam ch allUsers:objectViewer gs://b",
    "az storage container set-permission -n c --public-access blob",
    "kubectl create clusterrolebinding x --clusterrole=cluster-admin --user=x",
    "gh repo deploy-key add k.pub --allow-write",
])
def test_access_opened_or_defences_off_ask(command: str) -> None:
    assert _finding(command) == ("ask", "cloud-access")


@pytest.mark.parametrize("command", [
    "aws ec2 describe-security-groups --filters Name=ip-permission.cidr,Values=0.0.0.0/0",
    "aws iam list-attached-role-policies --role-name r", "gsutil iam get gs://b",
    "gcloud projects get-iam-policy p", "kubectl get clusterrolebindings",
])
def test_reading_access_stays_allowed(command: str) -> None:
    assert _finding(command) is None


@pytest.mark.parametrize("command", [
    "aws ec2 modify-instance-metadata-options --instance-id i-1 --http-tokens required",
    "aws ec2 create-route --route-table-id r --destination-cidr-block 0.0.0.0/0 --gateway-id g",
    "aws ec2 create-route --route-table-id r --destination-cidr-block=0.0.0.0/0 --gateway-id g",
])
def test_changes_that_open_no_access_ask_only_as_changes(command: str) -> None:
    # no access opened (IMDSv2 required, a route's destination): a change of the live
    # account all the same, asked as every other one is (cloud-change)
    assert _finding(command) == ("ask", "cloud-change")


@pytest.mark.parametrize("command", [
    "aws --profile prod s3 rb s3://b --force", "gsutil rb gs://b", "gcloud storage rm -r gs://b",
    "wrangler r2 bucket delete b", "supabase projects delete ref",
    "firebase functions:delete api", "aws kms schedule-key-deletion --key-id k",
    "aws sqs purge-queue --queue-url https://sqs.example/q", "helm -n prod uninstall app",
])
def test_platform_and_storage_deletes_are_routine_destructive(command: str) -> None:
    assert _finding(command) == ("ask", "routine-destructive")


@pytest.mark.parametrize("command", [
    "npm publish", "pnpm -r publish", "yarn npm publish", "twine upload dist/*",
    "python3 -m twine upload dist/*", "cargo publish", "docker push ghcr.io/me/app",
    "docker buildx build -t x --push .", "helm push c.tgz oci://r.example/c",
    "dart pub publish --force", "npm dist-tag add p@2 latest",
])
def test_every_publish_and_push_asks(command: str) -> None:
    assert _finding(command) == ("ask", "upload")


@pytest.mark.parametrize("command", [
    "npm publish --dry-run", "cargo publish -n", "dart pub publish -n", "npm pack",
    "docker build -t x .", "docker push --help", "python3 -m twine check dist/*",
])
def test_dry_runs_and_builds_stay_allowed(command: str) -> None:
    assert _finding(command) is None


@pytest.mark.parametrize("command", [
    "echo x >> CLAUDE.md", "echo x >> AGENTS.md", "tee -a src/AGENTS.md < n.txt",
    "cp r.md .cursor/rules/r.mdc", "echo x > .github/copilot-instructions.md",
    "cp s.md .kiro/steering/p.md", "sed -i s/a/b/ GEMINI.md", "echo '{}' > opencode.json",
    "echo 'test-cmd: x' > .aider.conf.yml", "cp h.sh .claude/hooks/h.sh",
    "echo '{\"chat.tools.autoApprove\": true}' > .vscode/settings.json",
])
def test_agent_settings_and_instructions_ask(command: str) -> None:
    assert _finding(command) == ("ask", "persistence")


@pytest.mark.parametrize("command", [
    "cat AGENTS.md", "echo x >> README.md", "cp a.md docs/agents.md",
    "echo '{\"editor.tabSize\": 2}' > .vscode/settings.json",
])
def test_reading_them_and_other_docs_stay_allowed(command: str) -> None:
    assert _finding(command) is None


@pytest.mark.parametrize("command", [
    "tooldeck config trust", "tooldeck --config x.toml config trust ./tooldeck.toml",
    "tooldeck trust set a full", "tooldeck approvals approve 3",
    "bash config.sh --url https://github.com/o/r --token T", "sh ./svc.sh install",
])
def test_self_trust_and_shell_run_runner_registration_are_unreviewed(command: str) -> None:
    assert _finding(command) == ("deny", "unreviewed-access")


@pytest.mark.parametrize("command", [
    "tooldeck trust list", "tooldeck config show", "bash build.sh --url https://x.example",
])
def test_tooldeck_reads_and_project_scripts_stay_allowed(command: str) -> None:
    assert _finding(command) is None


@pytest.mark.parametrize("command", ["env", "printenv", "env | sort", "export -p", "set",
                                     "declare -x", "env > env.txt"])
def test_a_bare_environment_dump_asks(command: str) -> None:
    assert _finding(command) == ("ask", "secret-variable")


@pytest.mark.parametrize("command", ["env | grep -i proxy", "env | wc -l", "printenv PATH",
                                     "set -euo pipefail", "env FOO=1 make", "export A=1"])
def test_filtered_named_or_command_forms_do_not(command: str) -> None:
    found = _finding(command)
    assert found is None or found[1] != "secret-variable"


@pytest.mark.parametrize("command", [
    "find . -name '*.log' -delete", "find . -name '*.sqlite3' -delete",
    "find . -name app.log -delete", "find logs -name '*.bak' -delete",
])
def test_find_delete_of_kept_data_asks_as_rm(command: str) -> None:
    assert _finding(command) == ("ask", "routine-destructive")


@pytest.mark.parametrize("command", [
    "find . -name '*.pyc' -delete", "find . -type d -empty -delete",
    "find build -mtime +1 -delete", "find . -path '*/__pycache__/*' -delete",
    "find . -name .DS_Store -delete", "find . -mtime +7 -delete",
])
def test_find_delete_of_artefacts_stays_allowed(command: str) -> None:
    assert _finding(command) is None


def test_a_module_loaded_by_a_server_directive_asks() -> None:
    assert _finding("nginx -g 'load_module /tmp/x.so;'") == ("ask", "library-load")
    assert _finding("apachectl -C 'LoadModule x /tmp/x.so' -k start") == ("ask", "library-load")
    assert _finding("nginx -p . -g 'daemon off;'") is None
