"""Command classes that were missing (issue 12): machine-wide state, more routine harm.

Generic examples per class (not corpus rows); each read-only form of the same tool stays
allowed so the class does not add friction to ordinary work.
"""

from __future__ import annotations

import pytest

from tooldeck.shell_analysis import DEFAULT_BLOCKED, ClassContext, analyze, judge_classes

CONTEXT = ClassContext(DEFAULT_BLOCKED, ("/work/project",), "/work/project")


def _verdict(command: str) -> str | None:
    found = judge_classes(analyze(command), CONTEXT)
    return None if found is None else found.verdict


@pytest.mark.parametrize("command", [
    "iptables -P INPUT ACCEPT", "ip6tables --flush", "iptables -t nat -X",
    "nft flush ruleset", "ufw reset", "ufw default allow incoming",
    "firewall-cmd --remove-service=ssh", "auditctl -e 0", "auditctl -W /etc/passwd",
    "setenforce 0", "sysrc sshd_enable=YES", "sysctl kernel.randomize_va_space=0",
    "date -s '2001-01-01'", "date 123123592020", "timedatectl set-time '2001-01-01'",
    "hwclock --systohc", "modprobe -r some_module", "swapoff -a",
    "update-rc.d cron disable", "launchctl unload /Library/LaunchDaemons/x.plist",
    "timeout 5 iptables -F", "sh -c 'ufw disable'", "systemctl edit nginx",
    "systemctl set-property nginx CPUQuota=1%",
])
def test_machine_wide_state_changes_are_denied(command: str) -> None:
    assert _verdict(command) == "deny", command


@pytest.mark.parametrize("command", [
    "iptables -L -n -v", "iptables -S", "nft list ruleset", "ufw status verbose",
    "firewall-cmd --list-all", "auditctl -l", "sysrc -a", "sysctl -a",
    "sysctl vm.swappiness", "date", "date +%Y-%m-%d", "date -d '1 day ago' +%s",
    "date -u -r build.log", "timedatectl status", "hwclock --show", "systemctl status nginx",
    "launchctl list",
])
def test_reading_machine_state_is_allowed(command: str) -> None:
    assert _verdict(command) is None, command


@pytest.mark.parametrize("command", [
    "git checkout lib/util.py", "git checkout HEAD~1 README.md", "git checkout '*.js'",
    "chmod -R u+rw,o+w public", "chmod -R a=rwx out", "chmod -R 0757 out",
    "shred -zu notes.txt", "wipe -rf olddir", "pkill -KILL java", "killall -s 9 ruby",
    "pkill --signal=KILL gunicorn", "docker compose down --volumes", "docker volume prune -f",
    "podman system prune -a", "docker-compose down -v", "crontab -e",
])
def test_routine_harm_asks(command: str) -> None:
    assert _verdict(command) == "ask", command


@pytest.mark.parametrize("command", [
    "git checkout main", "git checkout -b fix/login-v2", "git checkout release/1.4",
    "git checkout v2.0.1", "chmod -R u+w build", "chmod -R go-w public", "chmod -R 755 dist",
    "pkill -f 'uvicorn app:main'", "kill -TERM 1234", "docker compose down",
    "docker volume ls", "docker compose up -d", "crontab -l",
])
def test_routine_work_of_the_same_tools_is_allowed(command: str) -> None:
    assert _verdict(command) is None, command


@pytest.mark.parametrize("command", [
    "make -f - build", "make -f /dev/stdin <<< 'x:'", "gmake --file=/dev/stdin",
])
def test_a_makefile_from_standard_input_asks(command: str) -> None:
    assert _verdict(command) == "ask", command


@pytest.mark.parametrize("command", ["make -f build/Makefile all", "make -j4 test"])
def test_a_makefile_from_a_file_is_allowed(command: str) -> None:
    assert _verdict(command) is None, command


@pytest.mark.parametrize("command", ["history", "history 20 | grep ssh", "fc -ln -50",
                                     "history -c"])
def test_the_shell_history_is_a_secret(command: str) -> None:
    assert _verdict(command) == "deny", command


@pytest.mark.parametrize("command", [
    "c''at notes.txt", "/usr/bin/wh\"\"oami", "head /e'tc'/ho\"\"sts", "$'\\x6c\\x73' -la",
    "cat $'/etc/\\x68osts'",
])
def test_a_command_or_path_spelled_to_hide_asks(command: str) -> None:
    assert _verdict(command) == "ask", command


@pytest.mark.parametrize("command", [
    "cat 'notes file.txt'", "ls \"$HOME\"/projects", "git log --format='%h %s'",
    "\\ls -la", "echo \"a\"b/c", "cp 'a b.txt' \"out dir/\"", "find . -name '*.py'",
    "awk -F'\\t' '{print $1}' data.tsv",
])
def test_ordinary_quoting_is_not_hiding(command: str) -> None:
    assert _verdict(command) is None, command


def test_the_cheap_secret_look_misses_no_secret_pattern() -> None:
    from tooldeck.shell_analysis.outside_reads import SECRET_PATTERNS
    from tooldeck.shell_analysis.secret_reads import SECRET_MARKERS

    for pattern in SECRET_PATTERNS:
        example = pattern.replace("*", "x")
        assert SECRET_MARKERS.search(example), pattern


def test_every_command_judged_by_its_form_is_known_to_have_effects() -> None:
    """The commands ``_read_only_form`` judges keep their writing forms' verdicts outside.

    A command missing from ``FORM_READERS`` would fall to ``outside-unknown`` (ask) when it
    writes outside the project (``xxd -r dump /etc/x``).
    """
    import inspect
    import re

    from tooldeck.shell_analysis import outside_reads
    from tooldeck.shell_analysis.unknown_effects import KNOWN_EFFECTS

    source = inspect.getsource(outside_reads._read_only_form)
    named = set(re.findall(r'head == "([^"]+)"', source))
    for group in re.findall(r"head in \(([^)]*)\)", source):
        named |= set(re.findall(r'"([^"]+)"', group))
    assert named, "the form judge names no command"
    assert named <= outside_reads.FORM_READERS, named - outside_reads.FORM_READERS
    assert outside_reads.FORM_READERS <= KNOWN_EFFECTS
