"""The walker records each file the command writes and then runs, and whether it wrote it once.

The shell gate allows a scratch script only when the text the walker judged is all the file
holds: one truncating write with text known statically, no other write of it.
"""

from __future__ import annotations

import pytest

from tooldeck.shell_analysis import analyze

HEREDOC = "cat > /tmp/x.py <<'EOF'\nprint(1)\nEOF\n"

SOLE = [
    HEREDOC + "python3 /tmp/x.py",
    "cat <<'EOF' > /tmp/x.py\nprint(1)\nEOF\npython3 /tmp/x.py | head",
    "tee /tmp/x.py <<'EOF' >/dev/null\nprint(1)\nEOF\npython3 /tmp/x.py",
    "echo 'print(1)' > /tmp/x.py; python3 /tmp/x.py",
]

NOT_SOLE = [
    HEREDOC + "{ echo evil; } > /tmp/x.py; python3 /tmp/x.py",  # a group's redirection
    HEREDOC + "python3 /tmp/y.py | tee /tmp/x.py; python3 /tmp/x.py",  # tee of a pipe
    HEREDOC + "python3 /tmp/y.py > /tmp/x.py; python3 /tmp/x.py",  # unknown text
    HEREDOC + "echo x >> /tmp/x.py; python3 /tmp/x.py",  # a second write
    "cat >> /tmp/x.py <<'EOF'\nprint(1)\nEOF\npython3 /tmp/x.py",  # appended to what?
    HEREDOC + "python3 /tmp/./x.py 2> /tmp/x.py; python3 /tmp/x.py",
    "tee -a /tmp/x.py <<'EOF'\nprint(1)\nEOF\npython3 /tmp/x.py",  # appended to what?
]


@pytest.mark.parametrize("command", SOLE)
def test_one_known_write_is_the_sole_write(command: str) -> None:
    analysis = analyze(command)
    (run,) = analysis.staged_runs
    assert run.path == "/tmp/x.py" and run.sole_write
    runner = analysis.segments[run.runner]
    assert runner.argv[:2] == ("python3", "/tmp/x.py")
    body = analysis.segments[run.start : run.stop]
    assert [s.argv for s in body] == [("python3", "-c", "print(1)\n")]


@pytest.mark.parametrize("command", NOT_SOLE)
def test_any_other_write_makes_the_text_unsure(command: str) -> None:
    runs = [r for r in analyze(command).staged_runs if r.path == "/tmp/x.py"]
    assert runs and not any(r.sole_write for r in runs)


def test_a_shell_script_s_segments_are_its_span() -> None:
    analysis = analyze("cat > /tmp/x.sh <<'EOF'\necho a\nls\nEOF\nbash /tmp/x.sh && echo done")
    (run,) = analysis.staged_runs
    assert [s.text for s in analysis.segments[run.start : run.stop]] == ["echo a", "ls"]
    assert analysis.segments[run.stop].text == "echo done"
