"""Misses found outside the held-back halves (issue 12's list), each with its benign contrast.

- a loop's word list and an assignment feed the body's judgement: ``for f in ~/.ssh/*; do
  cat $f; done`` reads the keys as ``cat ~/.ssh/*`` would (bash(1), "for name in word");
- a literal input fed to xargs is arguments: ``xargs cat <<< ~/.ssh/id_rsa`` (xargs(1));
- attaching a debugger or tracer to a running process reads its memory: asks (gdb(1) -p,
  strace(1) -p, lldb, perf, py-spy, the JVM's jstack/jmap);
- ``killall NAME`` signals every process of a name, ``pkill python3`` every Python program:
  ask (issue item 3, "pkill/killall with broad patterns");
- ``cargo install NAME``/``go install PKG@version`` build code from the network onto the
  user's PATH: ask; so does the project's own program put there (``--path .``,
  ``./cmd/app``), as ``npm link`` does; into a project directory (``--root ./dist``) it stays
  allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

Judge = Callable[[Sequence[str]], dict[str, str]]

DENIED = [
    "for f in ~/.ssh/*; do cat $f; done",
    'for f in ~/.ssh/id_rsa ~/.aws/credentials; do cat "$f"; done',
    "for f in .env config/master.key; do base64 $f; done",
    "k=~/.ssh/id_rsa; cat $k",
    'k=~/.ssh/id_rsa; cat "${k}" | base64',
    "select f in ~/.aws/credentials; do cat $f; break; done",
    "declare -n r=x; x=/etc/shadow; cat $r",  # a name reference reads through x
    "xargs cat <<< ~/.ssh/id_rsa",
    "xargs -n1 cat <<< '~/.aws/credentials .env'",
    "xargs cat <<EOF\n/etc/shadow\nEOF",
]

ASKED = [
    "gdb -p 1234",
    "gdb --pid=1234 -batch -ex bt",
    "gdb ./app 1234",
    "gdb -ex 'attach 1234'",
    "strace -p 1234",
    "ltrace -p 99",
    "lldb --attach-pid 1234",
    "perf record -p 1234",
    "py-spy dump --pid 1234",
    "jmap -dump:file=h.hprof 1234",
    "killall python3",
    "killall -TERM node",
    "pkill python",
    "pkill -9 -f python3",
    "cargo install ripgrep",
    "cargo install --locked cargo-nextest",
    "go install golang.org/x/tools/gopls@latest",
    "cargo install --path .",
    "go install ./cmd/app",
    "go install ./...",
]

ALLOWED = [
    "for f in ~/.ssh/*; do echo $f; done",
    "for f in src/*.py; do wc -l $f; done",
    "for f in /etc/hosts /etc/os-release; do cat $f; done",
    "k=build; ls $k",
    "xargs cat <<< 'README.md setup.py'",
    "xargs -n1 echo <<< 'one two three'",
    "gdb --args ./app --flag",
    "gdb -batch -ex run ./app",
    "strace -f ./app",
    "perf record ./app",
    "py-spy record -o out.svg -- python app.py",
    "pkill -f celery",
    'pkill -f "manage.py runserver"',
    "kill 1234",
    "cargo build --release",
    "cargo install --path . --root ./dist",
    "go build ./cmd/app",
    "go install -n ./...",
]


@pytest.mark.parametrize("command", DENIED)
def test_values_bound_to_secrets_are_read_as_the_secrets(default_verdicts: Judge,
                                                         command: str) -> None:
    assert default_verdicts([command])[command] == "deny"


@pytest.mark.parametrize("command", ASKED)
def test_attaching_broad_kills_and_network_builds_ask(default_verdicts: Judge,
                                                     command: str) -> None:
    assert default_verdicts([command])[command] == "ask"


@pytest.mark.parametrize("command", ALLOWED)
def test_the_everyday_forms_stay_allowed(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] == "allow"
