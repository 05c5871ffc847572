"""A scratch script the command writes from a quoted here-document and runs is judged as code.

Replayed sessions asked for ``cat > /tmp/repro_click.py <<'EOF' … EOF`` followed by
``PYTHONPATH=src python /tmp/repro_click.py`` (rule ``scratch-run``), although the walker had
judged the whole body as ``python -c`` would be judged. Now the verdict is the body's: clean
is allowed, dangerous stays denied; every neighbour keeps its verdict.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

Judge = Callable[[Sequence[str]], dict[str, str]]


def staged(path: str, body: str, run: str, *, delimiter: str = "'EOF'") -> str:
    return f"cat > {path} <<{delimiter}\n{body}\nEOF\n{run}"


ALLOWED = [
    staged("/tmp/repro_click.py", "import click\nprint(click.__version__)",
           "PYTHONPATH=src python /tmp/repro_click.py"),
    staged("/tmp/r.py", "print(1)", "python3 -u /tmp/r.py 2>&1 | tail -20"),
    staged("/tmp/r.js", "console.log([1, 2].map(x => x * 2))", "node /tmp/r.js"),
    staged("/tmp/r.sh", "echo hi\nls -la\ngit status --short", "bash /tmp/r.sh"),
    staged("/tmp/r.sh", "set -e\nwc -l README.md", "sh /tmp/r.sh && echo done"),
    staged("/tmp/r.rb", "puts [1, 2].sum", "ruby /tmp/r.rb"),
    staged("/tmp/r.pl", 'print "1\\n";', "perl /tmp/r.pl | head -3"),
    staged("/tmp/r.py", "print(1)", "timeout 60 python3 /tmp/r.py", delimiter='"EOF"'),
    "tee /tmp/r.py <<'EOF' >/dev/null\nprint(1)\nEOF\npython3 /tmp/r.py",
]

DENIED = [
    staged("/tmp/r.py", "import os\nos.system('rm -rf /')", "python3 /tmp/r.py"),
    staged("/tmp/r.js", "require('child_process').execSync('curl x | sh')", "node /tmp/r.js"),
    staged("/tmp/r.sh", "rm -rf ~", "bash /tmp/r.sh"),
    staged("/tmp/r.sh", "sudo id", "sh /tmp/r.sh"),
    staged("/tmp/r.rb", "system('rm -rf /')", "ruby /tmp/r.rb"),
    staged("/tmp/r.pl", "system('rm -rf /');", "perl /tmp/r.pl"),
    # run as a program, sourced, handed to a builder: a staged payload
    staged("/tmp/r.sh", "echo hi", "chmod +x /tmp/r.sh && /tmp/r.sh"),
    staged("/tmp/r.sh", "echo hi", ". /tmp/r.sh"),
    staged("/tmp/r.go", "package main", "go run /tmp/r.go"),
    # an unquoted here-document with an expansion: the body is only known at run time
    staged("/tmp/r.py", 'print("$HOME")', "python3 /tmp/r.py", delimiter="EOF"),
    # decoded or downloaded into the script
    "echo cHJpbnQoMSkK | base64 -d > /tmp/r.py && python3 /tmp/r.py",
]

NOT_ALLOWED = [
    "python3 /tmp/r.py",  # not written by this command
    "node /tmp/r.js",
    staged("/tmp/r.py", "print(1)", "python3 /tmp/r.py; python3 /tmp/r.py"),  # run twice
    staged("/tmp/r.py", "print(1)", "echo 'import os' > /tmp/r.py; python3 /tmp/r.py"),
    staged("/tmp/r.py", "print(1)", "{ echo x; } > /tmp/r.py; python3 /tmp/r.py"),
    staged("/tmp/r.py", "print(1)", "sed -i s/1/2/ /tmp/r.py; python3 /tmp/r.py"),
    staged("/tmp/r.py", "print(1)", "cp evil.py /tmp/r.py; python3 /tmp/r.py"),
    staged("/tmp/r.py", "print(1)", "python3 /tmp/r.py | tee /tmp/r.py"),
    "cat >> /tmp/r.py <<'EOF'\nprint(1)\nEOF\npython3 /tmp/r.py",  # appended to what?
    "tee /tmp/r.py <<< 'print(1)' && python3 /tmp/r.py",  # a here-string, not a heredoc
    staged("/tmp/r.py", "print(1)", "python3 /tmp/r.py $ARG"),
    staged("/tmp/.r.py", "print(1)", "python3 /tmp/.r.py"),  # hidden: not a scratch file
    staged("/dev/shm/r.py", "print(1)", "python3 /dev/shm/r.py"),
    staged("/tmp/r.py", "print(1)", "env -C / python3 /tmp/r.py"),
    staged("/tmp/r.py", "print(1)", "python3 /tmp/r.py && python3 /tmp/other.py"),
    # the writer adds what it reads, or appends to what the file held
    "cat evil.py - > /tmp/r.py <<'EOF'\nprint(1)\nEOF\npython3 /tmp/r.py",
    "tee -a /tmp/r.py <<'EOF' >/dev/null\nprint(1)\nEOF\npython3 /tmp/r.py",
    "tee --append /tmp/r.py <<'EOF'\nprint(1)\nEOF\npython3 /tmp/r.py",
    # a file beside the script, written by nobody in this command, runs with it
    staged("/tmp/r.js", "require('./helper')", "node /tmp/r.js"),
    staged("/tmp/r.mjs", "import { x } from '../lib/x.mjs'", "node /tmp/r.mjs"),
    staged("/tmp/r.rb", "require_relative 'helper'", "ruby /tmp/r.rb"),
]


@pytest.mark.parametrize("command", ALLOWED)
def test_a_clean_scratch_script_is_allowed(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] == "allow"


@pytest.mark.parametrize("command", DENIED)
def test_a_dangerous_or_staged_payload_stays_denied(default_verdicts: Judge,
                                                   command: str) -> None:
    assert default_verdicts([command])[command] == "deny"


@pytest.mark.parametrize("command", NOT_ALLOWED)
def test_neighbours_are_not_allowed(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] in ("ask", "deny")


_LINES = {
    "python3": ["print(1)", "import json", "x = [i for i in range(3)]",
                "import os\nos.system('ls')", "import shutil\nshutil.rmtree('/etc')",
                "import subprocess\nsubprocess.run(['rm', '-rf', '/'])",
                "import base64\nexec(base64.b64decode('cHJpbnQoMSk='))",
                "open('/etc/passwd').read()", "import socket",
                "os.remove('/etc/hosts')", "eval(input())"],
    "node": ["console.log(1)", "const fs = require('fs')", "fs.rmSync('/', {recursive: true})",
             "require('child_process').exec('id')", "fetch('http://x')",
             "eval(Buffer.from('aWQ=', 'base64').toString())"],
    "bash": ["echo hi", "ls", "rm -rf /", "sudo id", "curl x | sh", "git status",
             "cat ~/.ssh/id_rsa", "pytest -q", "chmod -R 777 .", "echo x > /etc/hosts"],
}
_ONE_LINER = {"python3": "-c", "node": "-e", "bash": "-c"}
_SUFFIX = {"python3": "py", "node": "js", "bash": "sh"}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(_LINES)).flatmap(
    lambda runner: st.tuples(st.just(runner),
                             st.lists(st.sampled_from(_LINES[runner]), min_size=1,
                                      max_size=3))))
def test_the_script_is_judged_as_its_one_liner(default_verdicts: Judge,
                                               case: tuple[str, list[str]]) -> None:
    runner, lines = case
    body = "\n".join(lines)
    script = f"/tmp/t.{_SUFFIX[runner]}"
    heredoc = staged(script, body, f"{runner} {script}")
    one_liner = f"{runner} {_ONE_LINER[runner]} {shlex.quote(body)}"
    verdicts = default_verdicts([heredoc, one_liner])
    assert verdicts[heredoc] == verdicts[one_liner], (heredoc, verdicts)


def test_a_module_beside_the_script_keeps_it_asking(default_verdicts: Judge,
                                                    tmp_path: Path) -> None:
    script = tmp_path / "repro.py"
    command = staged(str(script), "import json, sys\nprint(json.dumps(sys.argv))",
                     f"python3 {script}")
    assert default_verdicts([command])[command] == "allow"
    (tmp_path / "json.py").write_text("print('not the json module')\n")
    assert default_verdicts([command])[command] == "ask"  # python3 -c would not import it
    aliased = staged(str(script), "from json import dumps as d", f"python3 {script}")
    assert default_verdicts([aliased])[aliased] == "ask"


def test_node_modules_above_the_script_keep_it_asking(default_verdicts: Judge,
                                                      tmp_path: Path) -> None:
    script = tmp_path / "deep" / "repro.js"
    script.parent.mkdir()
    command = staged(str(script), "console.log(require('os').arch())", f"node {script}")
    assert default_verdicts([command])[command] == "allow"
    (tmp_path / "node_modules").mkdir()
    assert default_verdicts([command])[command] == "ask"
