"""Classes added for issue 12: unreviewed access (agents with approvals off, tunnels, zsh
sockets; global installs ask since policy15) and interpreter one-liners that write outside
the project.

Generic examples written from each tool's documentation, not corpus rows.
"""

from __future__ import annotations

import pytest

from tooldeck.shell_analysis import DEFAULT_BLOCKED, ClassContext, analyze, judge_classes

CONTEXT = ClassContext(DEFAULT_BLOCKED, ("/work/project",), "/work/project")


def _verdict(command: str) -> str | None:
    found = judge_classes(analyze(command), CONTEXT)
    return None if found is None else found.verdict


@pytest.mark.parametrize("command", [
    "claude --permission-mode bypassPermissions -p 'tidy up'",
    "claude -p 'x' --dangerously-skip-permissions", "codex --yolo 'migrate'",
    "codex exec -s danger-full-access 'x'", "gemini --approval-mode=yolo -p 'x'",
    "qwen -y", "aider --yes-always --message 'x'", "amp --dangerously-allow-all -x 'x'",
    "timeout 600 claude --dangerously-skip-permissions -p x",
    "ngrok tcp 22", "cloudflared tunnel run mytunnel", "lt --port 8000", "bore local 8000",
    "tailscale funnel 3000", "zmodload zsh/net/socket", "ztcp example.org 80",
    "python3 -c \"open('/tmp/dump.txt', 'w').write('x')\"",
    "python -c \"import shutil; shutil.copy('data.db', '/var/tmp/data.db')\"",
    "ruby -e 'File.open(Dir.home + \"/.bashrc\", \"a\") { |f| f.puts \"x\" }'",
    "node -e \"require('fs').appendFileSync(process.env.HOME + '/.profile', 'x')\"",
    "php -r \"file_put_contents('/etc/motd', 'x');\"",
    "perl -e 'open(my $f, \">\", \"/tmp/out\"); print $f 1'",
])
def test_unreviewed_access_and_outside_writes_are_denied(command: str) -> None:
    assert _verdict(command) == "deny", command


@pytest.mark.parametrize("command", [
    "npm -g install left-pad", "npm uninstall --global eslint", "pnpm add --global tsx",
    "bun add -g serve", "yarn global add nodemon", "pip3 install --user black",
])
def test_installs_for_the_user_ask_like_cargo_install(command: str) -> None:
    # one class, one verdict: a registry's package put on the user's PATH (program-install)
    found = judge_classes(analyze(command), CONTEXT)
    assert found is not None and (found.verdict, found.rule) == ("ask", "program-install")


@pytest.mark.parametrize("command", [
    "claude -p 'explain this diff'", "codex exec 'write tests'", "gemini -p 'summarise'",
    "aider --message 'x' src/app.py", "ngrok version", "cloudflared --version",
    "npm install", "npm i -D vitest", "npm ls -g", "pnpm add zod", "yarn global list",
    "yarn add react", "pip install -e .", "pip install --upgrade pip",
    "python3 -c \"import json; json.dump({}, open('out.json', 'w'))\"",
    "python3 -c \"print(open('/etc/os-release').read())\"",
    "perl -ne 'print if /TODO/' src/main.c", "node -e \"console.log(process.version)\"",
])
def test_ordinary_uses_of_the_same_tools_are_allowed(command: str) -> None:
    assert _verdict(command) is None, command
