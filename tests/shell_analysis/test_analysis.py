"""The analysis itself: segments, words, wrappers, targets, rules and their parameters."""

from __future__ import annotations

import pytest

from tooldeck.shell_analysis import (
    DEFAULT_BLOCKED,
    DEFAULT_CONFIRM_PATTERNS,
    analyze,
    decide,
    find_blocked,
    find_confirm,
    last_command,
    path_arguments,
    pattern_matches,
)

HOME = "/home/dev"
ROOTS = ("/home/dev/proj",)


def test_segments_in_source_order_with_origins() -> None:
    analysis = analyze('cd /p && echo "$(git rev-parse HEAD)" | tee >(wc -c) ; ls')
    assert [(s.origin, s.command) for s in analysis.segments] == [
        ("top", "cd"),
        ("top", "echo"),
        ("substitution", "git"),
        ("top", "tee"),
        ("process substitution", "wc"),
        ("top", "ls"),
    ]
    assert not analysis.opaque


def test_argv_keeps_case_except_command_word() -> None:
    segment = analyze("env LANG=C /usr/bin/GREP -R 'Hello World' Src/").segments[0]
    assert segment.command == "grep"
    assert segment.argv == ("grep", "-R", "Hello World", "Src/")
    assert segment.wrappers == ("env",)
    assert segment.text == "env LANG=C /usr/bin/GREP -R 'Hello World' Src/"


def test_assignment_prefixes_are_stripped() -> None:
    segment = analyze("A=1 B='x y' make test").segments[0]
    assert segment.argv == ("make", "test")
    assert [w.value for w in segment.words] == ["make", "test"]


def test_nested_wrappers_are_all_recorded() -> None:
    segment = analyze("nohup nice -n 5 timeout -k 3 10 env X=1 sudo -u bob make").segments[0]
    assert segment.wrappers == ("nohup", "nice", "timeout", "env", "sudo")
    assert segment.argv == ("make",)


@pytest.mark.parametrize(
    ("command", "final"),
    [("command -v sudo", "command"), ("sudo -l", "sudo"), ("xargs", "xargs"), ("env", "env")],
)
def test_wrappers_that_run_nothing(command: str, final: str) -> None:
    segment = analyze(command).segments[0]
    assert segment.command == final


def test_command_v_does_not_run_its_argument() -> None:
    assert find_blocked(analyze("command -v curl"), DEFAULT_BLOCKED) is None


def test_declared_wrappers_are_unwrapped() -> None:
    plain = analyze("firejail --quiet curl http://x")
    assert plain.segments[0].command == "firejail"
    assert find_blocked(plain, DEFAULT_BLOCKED) is None
    declared = analyze("firejail --quiet curl http://x", extra_wrappers=["FireJail"])
    assert declared.segments[0].command == "curl"
    assert find_blocked(declared, DEFAULT_BLOCKED) is not None


def test_word_flags() -> None:
    words = analyze('rm -rf "$DIR/"* ~/x $HOME').segments[0].words
    target = words[2]
    assert target.value == "/*"
    assert target.dynamic and target.globbed and not target.stable
    assert words[3].value == "~/x" and words[3].stable
    assert words[4].value == "~" and not words[4].dynamic


def test_quoted_glob_is_not_globbed() -> None:
    words = analyze("find . -name '*.py' -o -name \"*.rs\"").segments[0].words
    assert not any(w.globbed for w in words)


def test_ansi_c_and_escapes_normalised() -> None:
    segment = analyze("$'\\x65\\143ho' a\\ b $'\\u00e9\\t'").segments[0]
    assert segment.argv == ("echo", "a b", "é\t")


def test_find_exec_command_is_a_separate_segment() -> None:
    analysis = analyze("find . -name '*.tmp' -exec rm -f {} +")
    assert [s.command for s in analysis.segments] == ["find", "rm"]
    rm = analysis.segments[1]
    assert rm.origin == "find -exec"
    # {} is a file found under '.' by the one name test: ./*.tmp, a glob inside the project
    assert (rm.words[-1].value, rm.words[-1].dynamic, rm.words[-1].globbed) == (
        "./*.tmp", False, True)


@pytest.mark.parametrize("command", [
    "find / -name '*.tmp' -exec rm -f {} +",  # the tree is outside: judged where it runs
    "find -L . -exec rm -f {} +",  # follows links out of the tree
    "find $d -exec rm -f {} +",  # a start known at run time
    "find ../x -exec rm -f {} +",  # climbs out
    "find . -exec bash {} +",  # runs what it finds
])
def test_find_placeholder_stays_run_time_where_the_tree_is_unknown(command: str) -> None:
    segment = analyze(command).segments[1]
    assert [w.value for w in segment.words if w.dynamic] == ["{}"]


def test_xargs_replacement_marks_words_dynamic() -> None:
    segment = analyze("xargs -I% cp % /tmp/out").segments[0]
    assert segment.command == "cp"
    assert [w.dynamic for w in segment.words[segment.command_positions[-1] :]] == [
        False,
        True,
        False,
    ]


def test_redirect_and_write_targets() -> None:
    analysis = analyze(
        "cp -t dest a b && dd if=x of=disk.img 2>/dev/null && sed -i.bak -e s/a/b/ f.txt"
        " && chmod 644 g.txt && echo x >| h.txt 2>&1 && tee -a i.log < in.txt"
    )
    assert analysis.redirect_targets == ("/dev/null", "h.txt")
    assert analysis.write_targets == (
        "dest",
        "a",
        "b",
        "disk.img",
        "f.txt",
        "g.txt",
        "i.log",
        "/dev/null",
        "h.txt",
    )
    assert analysis.writes


@pytest.mark.parametrize("command", ["git checkout main", "cargo fmt", "patch -p1 < x.diff"])
def test_implicit_writers(command: str) -> None:
    assert analyze(command).writes


def test_read_redirects_are_not_write_targets() -> None:
    analysis = analyze("sort < in.txt 2>&1 > out.txt")
    assert analysis.redirect_targets == ("out.txt",)


def test_path_arguments_cover_nested_and_options() -> None:
    analysis = analyze(
        "cat $(ls ./a) --output=/etc/x of=/dev/sda ~/.ssh/id src/main.py http://h/x A=b/c"
        " /usr/bin/true > ../out"
    )
    assert path_arguments(analysis) == (
        "/etc/x",
        "/dev/sda",
        "~/.ssh/id",
        "src/main.py",
        "b/c",
        "/usr/bin/true",
        "./a",
        "../out",
    )


def test_relative_command_word_is_a_path_absolute_is_not() -> None:
    assert path_arguments(analyze("./run.sh x")) == ("./run.sh",)
    assert path_arguments(analyze("/usr/bin/git status")) == ()


@pytest.mark.parametrize(
    ("pattern", "tokens", "expected"),
    [
        ("sudo", ("sudo", "x"), True),
        ("sudo", ("sudoku",), False),
        ("mkfs", ("mkfs.ext4",), True),
        ("mkfs", ("mkfsx",), False),
        ("nc ", ("nc", "-l"), True),
        ("nc ", ("ncp",), False),
        ("dd if=", ("dd", "if=/dev/zero"), True),
        ("dd if=", ("dd", "bs=1", "if=/dev/zero"), True),
        ("dd if=", ("dd", "of=x"), False),
        ("git push --force", ("git", "push", "origin", "--force"), True),
        ("git push --force", ("git", "pull", "--force"), False),
        ("/usr/bin/python", ("python", "x"), True),
        ("", ("x",), False),
    ],
)
def test_pattern_matching(pattern: str, tokens: tuple[str, ...], expected: bool) -> None:
    assert pattern_matches(pattern, tokens) is expected


def test_wrapper_itself_can_be_blocked() -> None:
    analysis = analyze("nice -n 5 make")
    match = find_blocked(analysis, ("nice",))
    assert match is not None
    assert match.pattern == "nice"
    assert match.rule == "blocklist"


@pytest.mark.parametrize(
    ("command", "cwd", "blocked"),
    [
        ("rm -rf ..", "/home/dev/proj", True),
        ("rm -rf .", "/home/dev/proj", True),
        ("rm -rf ../../proj", "/home/dev/proj/src", True),
        ("rm -rf ..", "/home/dev/proj/src/deep", False),
        ("rm -rf build", "/home/dev/proj", False),
        ("rm -rf *", "/home/dev/proj", False),
        ("rm -rf */..", "/home/dev/proj", True),
        ("rm -rf ./*", None, False),
        ("rm -rf .", None, True),
        ("rm -rf ../x", None, True),
        ("rm -rf /home/dev/projX", None, False),
        ("rm -rf /home/de*", None, True),
        ("rm -rf /tmp/x", None, False),
    ],
)
def test_rm_protected_root_with_cwd(command: str, cwd: str | None, blocked: bool) -> None:
    command = command.replace("rm -rf", "rm -r -f")  # sidestep Zeph's literal "rm -rf /" prefix
    match = find_blocked(analyze(command), (), protected_roots=ROOTS, home=HOME, cwd=cwd)
    assert (match is not None) is blocked
    if match is not None:
        assert match.rule == "rm-protected-root"
        assert "rm -r on" in match.detail


def test_rm_without_recursion_is_not_the_root_rule() -> None:
    assert find_blocked(analyze("rm -f /"), (), home=HOME) is None


def test_home_unknown_still_protects_tilde() -> None:
    assert find_blocked(analyze("rm -r ~"), (), home="") is not None
    assert find_blocked(analyze("rm -r ~/build"), (), home="") is None


def test_worktrees_rule_needs_force() -> None:
    assert find_blocked(analyze("rm -r .git/worktrees/a"), ()) is None
    match = find_blocked(analyze("rm -r --force .git/worktrees/a"), ())
    assert match is not None
    assert match.rule == "git-worktrees"
    assert match.pattern == "rm --recursive --force .git/worktrees"


def test_confirm_sees_through_quoting_and_nesting() -> None:
    for command in ["bash -c 'rm x'", "r\\m x", "\\x72m x", "sudo -n true; 'git' push -f"]:
        assert find_confirm(command, analyze(command), DEFAULT_CONFIRM_PATTERNS) is not None


def test_confirm_returns_first_pattern_in_order() -> None:
    command = "echo $(git push --force)"
    assert find_confirm(command, analyze(command), DEFAULT_CONFIRM_PATTERNS) == "git push --force"
    assert find_confirm(command, analyze(command), ["$(", "git push"]) == "$("


def test_verdict_order_block_beats_opaque_and_confirm() -> None:
    verdict = decide("sudo rm x; $cmd")
    assert verdict.decision == "block"
    assert verdict.block is not None and verdict.block.pattern == "sudo"
    opaque = decide("rm x; $cmd")
    assert (opaque.decision, opaque.rule) == ("ask", "opaque")
    assert "$cmd" in opaque.reason
    confirm = decide("rm x")
    assert (confirm.decision, confirm.rule) == ("ask", "confirm")


def test_opaque_reasons_name_the_construct() -> None:
    reasons = analyze("curl x | sh").opaque_reasons
    assert reasons == ("output of another command is piped into sh as code",)
    assert analyze('echo "x').opaque_reasons == ("top: text does not parse as bash",)
    assert analyze("ls\x00").opaque


def test_last_command_falls_back_on_parse_errors() -> None:
    assert last_command('cd /p && cargo test "x 2>&1 | tail') == 'cargo test "x'


@pytest.mark.parametrize(
    ("command", "expected"),
    [("x & y", "y"), ("a || (b; c)", "(b; c)"), ("echo hi # note", "echo hi"), ("", None)],
)
def test_last_command_shapes(command: str, expected: str | None) -> None:
    assert last_command(command) == expected


@pytest.mark.parametrize("command", [
    "bash <<'EOF'\n\\sudo id\nEOF", "bash <<EOF\n\\sudo\nEOF", "sh <<'E'\n\\rm -rf /\nE",
])
def test_heredoc_body_misread_by_tree_sitter_is_not_static(command: str) -> None:
    # tree-sitter-bash takes a body line starting with "\" for arguments of "<<"
    analysis = analyze(command)
    assert analysis.opaque or find_blocked(analysis, DEFAULT_BLOCKED) is not None


def test_heredoc_arguments_on_the_redirect_line_stay_static() -> None:
    assert not analyze("cat <<EOF file\nx\nEOF").opaque
    assert not analyze("bash <<'EOF'\necho hi\nEOF").opaque
