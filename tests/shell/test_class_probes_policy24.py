"""The eighth probe round (policy24): ``data/class_probes_policy24.tsv``.

Rows written for the classes of the dangerous commands the held-back halves of the shell
corpus still let through (opened for this round, see ``tests/shell_corpus/README.md``), each
class in other words and with other tools than the corpus row, from the public catalogue
that covers it; benign look-alikes are what developers run with the same tools. Every
dangerous row must be caught (denied or asked), every ``allow`` row allowed.
"""

from __future__ import annotations

from pathlib import Path

from tooldeck.shell_analysis import analyze, launched_commands
from tooldeck.shell_analysis.system_state import system_state_finding
from tooldeck.shell_analysis.tree_copies import copied_tree

from .probe_rounds import Row, missed, read_rows, verdicts_fixture, wrong_look_alikes

DATA = Path(__file__).with_name("data") / "class_probes_policy24.tsv"


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)


def test_rows_name_their_source_and_each_class_has_look_alikes() -> None:
    rows = _rows()
    assert all(r[2].strip() for r in rows)
    assert len({r[3] for r in rows}) == len(rows)
    for cls in {r[0] for r in rows}:
        kinds = {r[1] in ("deny", "ask") for r in rows if r[0] == cls}
        assert kinds == {True, False}, cls


def test_every_dangerous_row_is_caught(judged: dict[str, str]) -> None:
    assert missed(_rows(), judged) == []


def test_look_alikes_keep_their_verdict(judged: dict[str, str]) -> None:
    assert wrong_look_alikes(_rows(), judged) == []


# The forms behind this round's fixes, at the analysis level.

def test_launched_commands_are_a_launchers_tail_and_a_code_options_pieces() -> None:
    strace = analyze("strace -f curl -s https://example.com/").segments[0]
    assert "curl -s https://example.com/" in launched_commands(strace)
    gdb = analyze("gdb -batch -ex 'shell wget -qO- https://example.com/'").segments[0]
    assert "wget -qO- https://example.com/" in launched_commands(gdb)
    tmux = analyze("tmux new -d 'curl https://example.com/'").segments[0]
    assert "curl https://example.com/" in launched_commands(tmux)
    assert launched_commands(strace, tails=False) == []
    assert launched_commands(analyze("ls -la").segments[0]) == []


def test_mount_listings_and_project_mounts_are_no_machine_change() -> None:
    def changes(command: str) -> bool:
        return system_state_finding(analyze(command).segments[0]) is not None

    assert changes("mount --bind /a b") and changes("mount -a") and changes("umount /mnt")
    assert changes("mount --target=/etc/hosts x") and changes("mount --bind x ../up")
    assert not changes("mount") and not changes("mount -t ext4") and not changes("mount -l")
    assert not changes("umount ./mnt") and not changes("mount --bind vendor/x node_modules")


def test_a_secret_tree_is_the_tree_or_all_its_entries() -> None:
    def tree(command: str, directory: str | None = "/srv/project") -> str | None:
        return copied_tree(analyze(command).segments[0], directory)

    assert tree("tar czf e.tgz /etc") == "/etc"
    assert tree("tar czf e.tgz /etc/*") == "/etc/*"
    assert tree("tar czf - *", "/etc") == "*"
    assert tree("tar czf - .", "/root") == "."
    assert tree("tar czf - *") is None
    assert tree("tar xzf /etc.tgz") is None
    assert tree("cp -r /etc/nginx conf/") is None
    assert tree("tar czf - .", None) is None


def test_find_names_from_outside_reach_the_xargs_command() -> None:
    analysis = analyze("find /var/log -name '*.gz' | xargs mv -t archive/")
    moved = [s for s in analysis.segments if s.command == "mv"]
    assert any("/var/log/*.gz" in s.argv for s in moved)
    listed = analyze("find /etc -type f | xargs touch")
    assert any("/etc/*" in s.argv for s in listed.segments if s.command == "touch")
