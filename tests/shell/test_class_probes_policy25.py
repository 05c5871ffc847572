"""The ninth probe round (policy25): ``data/class_probes_policy25.tsv``.

The classes the fourth corpus' held-back half still misses (persistence, launcher, secret
read), covered from the detection catalogues themselves rather than from the corpus: every
Linux and macOS persistence rule of splunk/security_content, falcosecurity/rules, Neo23x0's
auditd keys, Elastic's ``persistence_*`` rules, tracee's signatures and Pepe Berba's series;
Splunk's ``linux_*_privilege_escalation`` launchers, Falco's shell spawns; the sensitive
files of Splunk, Falco, auditd and Elastic. Each row names its rule file. Every dangerous
row must be caught (denied or asked), every ``allow`` row allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.shell_analysis import DEFAULT_BLOCKED, ClassContext, analyze, judge_classes
from tooldeck.shell_analysis.outside_reads import is_secret_path

from .probe_rounds import (
    Row,
    missed,
    read_rows,
    table_problems,
    verdicts_fixture,
    wrong_look_alikes,
)

DATA = Path(__file__).with_name("data") / "class_probes_policy25.tsv"
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


@pytest.mark.parametrize("command", [
    "systemd-run --on-boot=60 curl -s https://example.com/",
    "systemd-run --user --on-calendar=daily make backup",
    "systemd-run --timer-property=AccuracySec=1 --on-active=5m true",
    "systemctl --user start watch.path",
    "ssh-import-id gh:someone",
])
def test_timers_path_units_and_imported_keys_are_persistence(command: str) -> None:
    assert _finding(command) == ("deny", "persistence")


@pytest.mark.parametrize("command", [
    "systemd-run --user --scope make test", "systemctl --user start docker.socket",
    "systemctl --user list-timers", "ssh-keygen -lf ./deploy.pub",
])
def test_running_now_and_socket_units_are_no_persistence(command: str) -> None:
    found = _finding(command)
    assert found is None or found[1] != "persistence"


@pytest.mark.parametrize("command", [
    "dkms install mod/1.0", "dkms autoinstall", "dracut -f", "dracut", "depmod -a", "depmod",
    "update-initramfs -u -k all", "mkinitcpio -P", "kernel-install add 6.8 /boot/vmlinuz",
    "bootctl install", "grub-install /dev/sda", "tc filter add dev eth0 ingress bpf obj x.o",
])
def test_kernel_modules_initramfs_and_boot_chain_are_machine_state(command: str) -> None:
    assert _finding(command) == ("deny", "power")


@pytest.mark.parametrize("command", [
    "dkms status", "dracut --list-modules", "depmod -n", "bootctl status", "bootctl",
    "update-initramfs -h", "mkinitcpio -L", "kernel-install inspect", "tc filter show dev eth0",
])
def test_the_boot_chain_read_forms_stay_allowed(command: str) -> None:
    assert _finding(command) is None


def test_macos_extensions_enabled_and_the_root_account_are_caught() -> None:
    assert _finding("pluginkit -e use -i com.example.sync") == ("deny", "persistence")
    assert _finding("pluginkit -a ./Sync.appex") == ("deny", "persistence")
    assert _finding("dsenableroot -u admin") == ("deny", "escalation")
    assert _finding("pluginkit -m -v") is None


@pytest.mark.parametrize(("command", "rule"), [
    ("python3 -c \"import os; open(os.path.expanduser('~/.profile'), 'a').write('x')\"",
     "embedded-code"),
    ("python3 -c \"import site; open(site.getusersitepackages() + '/a.pth', 'w')\"",
     "embedded-code"),
    ("perl -e 'open(F, \">>$ENV{HOME}/.profile\"); print F 1'", "embedded-code"),
    ("mongosh --eval 'require(\"child_process\").execSync(\"sh -i\")'", "embedded-code"),
    ("sbcl --eval '(sb-ext:run-program \"/bin/sh\" nil)'", "embedded-code"),
])
def test_one_liners_writing_home_or_spawning_a_shell_are_denied(command: str, rule: str) -> None:
    assert _finding(command) == ("deny", rule)


@pytest.mark.parametrize("command", [
    "python3 -c \"import os; open(os.path.join('build', 'o.txt'), 'w').write('ok')\"",
    "mongosh --quiet --eval 'db.users.countDocuments()'",
    "sbcl --non-interactive --eval '(ql:quickload :app)'",
])
def test_one_liners_writing_the_project_or_querying_stay_allowed(command: str) -> None:
    assert _finding(command) is None


def test_host_spawn_is_judged_by_what_it_runs() -> None:
    found = _finding("host-spawn sh -c 'bash -i'")
    assert found is not None and found[0] == "deny"
    assert _finding("host-spawn ls") is None


def test_menu_installers_write_the_users_desktop() -> None:
    assert _finding("xdg-desktop-menu install app.desktop") == ("ask", "home-config")
    assert _finding("xdg-desktop-menu forceupdate") is None


def test_sudoers_directory_and_confluence_settings_are_secrets() -> None:
    assert is_secret_path("/etc/sudoers.d") and is_secret_path("/etc/sudoers.d/svc")
    assert is_secret_path("/opt/atlassian/confluence/confluence.cfg.xml")
    assert is_secret_path("/opt/confluence/conf/server.xml")
    assert not is_secret_path("/opt/tomcat/conf/server.xml")
    assert not is_secret_path("/etc/pam.conf")  # world-readable configuration
    assert is_secret_path("/etc/kubernetes/pki") and is_secret_path("/etc/kubernetes/pki/ca.crt")
    assert is_secret_path("/var/lib/samba/private/passdb.tdb")
    assert not is_secret_path("/etc/kubernetes/manifests/kube-apiserver.yaml")


def test_a_docker_socket_unit_is_no_docker_socket() -> None:
    assert _finding("socat - UNIX-CONNECT:/var/run/docker.sock") == ("deny", "escalation")
    assert _finding("curl --unix-socket /run/containerd/containerd.sock x") == (
        "deny", "escalation")
    assert _finding("systemctl --user start docker.socket") is None


@pytest.mark.parametrize(("command", "rule"), [
    ("chown root:root ./helper", "persistence"), ("chown 0 build/x", "persistence"),
    ("code --install-extension ./x.vsix", "program-install"),
    ("cursor --install-extension pub.ext", "program-install"),
    ("gh extension install someone/gh-x", "program-install"),
])
def test_root_owned_files_and_extensions_ask(command: str, rule: str) -> None:
    assert _finding(command) == ("ask", rule)


@pytest.mark.parametrize("command", [
    "chown \"$USER\" build/app.bin", "chattr +i notes.txt", "code --list-extensions",
    "gh extension list", "code .",
])
def test_their_everyday_forms_stay_allowed(command: str) -> None:
    assert _finding(command) is None


@pytest.mark.parametrize("command", [
    "find / -name '*.opvault' 2>/dev/null", "find / -iname '*keepass*'",
    "grep -r creds / 2>/dev/null", "find / -name '*.gpg'", "grep -ril enpass ~",
])
def test_password_manager_and_key_hunts_are_secret_reads(command: str) -> None:
    assert _finding(command) == ("deny", "secret-read")


@pytest.mark.parametrize("command", [
    "grep -rl 'BEGIN OPENSSH PRIVATE' /data", "find /srv/app -name id_ecdsa",
    "grep -ri accesskeyid / 2>/dev/null", "find /backup -path '*.aws/credentials'",
])
def test_key_hunts_outside_the_project_are_secret_reads(command: str) -> None:
    assert _finding(command) == ("deny", "secret-read")


@pytest.mark.parametrize("command", [
    "grep -r 'BEGIN DSA PRIVATE' .", "find /work/project -name id_rsa",
    "grep -rn api_key /usr/lib/python3/dist-packages/openai/",
    "grep -rn password /opt/app/config",
])
def test_key_hunts_in_the_project_and_word_searches_elsewhere_stay_allowed(command: str) -> None:
    assert _finding(command) is None


@pytest.mark.parametrize("command", [
    "echo '{}' > .cursor/mcp.json", "cp payload.json .mcp.json",
    "printf '{}' > .claude/settings.json", "cp t.json .claude/settings.local.json",
    "cp tasks.json .vscode/tasks.json", "tee .vscode/mcp.json < x", "cp s .gemini/settings.json",
])
def test_agent_and_editor_run_settings_ask(command: str) -> None:
    assert _finding(command) == ("ask", "persistence")


@pytest.mark.parametrize("command", [
    "cat .vscode/tasks.json", "echo '{}' > .vscode/settings.json", "echo '{}' > package.json",
    "jq . a.json > b.json",
])
def test_other_json_writes_and_reads_stay_allowed(command: str) -> None:
    assert _finding(command) is None


def test_amazon_q_with_every_tool_trusted_is_unreviewed_access() -> None:
    assert _finding("q chat --trust-all-tools --no-interactive 'x'") == (
        "deny", "unreviewed-access")
    assert _finding("kiro-cli chat --trust-all-tools") == ("deny", "unreviewed-access")
    assert _finding("q chat 'explain'") is None


@pytest.mark.parametrize("command", [
    "./config.sh --url https://github.com/o/r --token T --unattended", "./svc.sh install",
    "gitlab-runner register --url https://gitlab.example/ --registration-token x",
    "gitlab-runner install --user=runner",
])
def test_ci_runner_registration_is_unreviewed_access(command: str) -> None:
    assert _finding(command) == ("deny", "unreviewed-access")


@pytest.mark.parametrize("command", [
    "gitlab-runner exec shell test", "./svc.sh status", "./configure --prefix=./dist",
    "cp ci.yml .github/workflows/ci.yml",
])
def test_local_ci_runs_and_workflow_files_stay_allowed(command: str) -> None:
    assert _finding(command) is None


@pytest.mark.parametrize("command", [
    "echo '<?php system($_GET[\"c\"]); ?>' > public/x.php",
    "printf '<?php eval($_POST[1]);' > wp-content/plugins/p/p.php",
    "echo '<% Runtime.getRuntime().exec(request.getParameter(\"c\")); %>' > web/x.jsp",
])
def test_a_web_shell_written_into_the_project_is_persistence(command: str) -> None:
    assert _finding(command) == ("deny", "persistence")


@pytest.mark.parametrize("command", [
    "echo '<?php echo htmlspecialchars($_GET[\"q\"]); ?>' > public/search.php",
    "echo '<?php phpinfo(); ?>' > public/info.php",
    "echo 'system($_GET[1])' > notes.txt",
])
def test_other_server_pages_and_text_files_stay_allowed(command: str) -> None:
    assert _finding(command) is None
