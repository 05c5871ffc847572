"""The egress gate's early exit agrees with the full reading of destinations.

:func:`~tooldeck.plugins.egress.destinations.names_nowhere` lets the gate return before
reading any argument. It must never say "nowhere" for a command :func:`destinations` finds a
destination in: checked on every command of the shell test corpora and on generated commands
that put URLs, hosts, ``/dev/tcp`` sockets and proxy variables in front of every program the
destinations are read from (and of programs they are not).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.plugins.egress.destinations import _READ_PROGRAMS, destinations, names_nowhere
from tooldeck.shell_analysis import analyze

DATA = Path(__file__).parents[1] / "shell" / "data"


def _corpus() -> list[str]:
    """The command column (the last) of every row of the shell corpora."""
    commands: list[str] = []
    for path in sorted(DATA.glob("*.tsv")):
        rows = [line for line in path.read_text(encoding="utf-8").splitlines()
                if line and not line.startswith("#")]
        commands += [row.split("\t")[-1] for row in rows[1:]]
    return commands


def _agrees(command: str) -> bool:
    analysis = analyze(command)
    return not names_nowhere(analysis) or destinations(analysis) == ()


def test_the_corpora_commands_exit_early_only_without_destinations() -> None:
    commands = _corpus()
    assert len(commands) > 3000
    wrong = [command for command in commands if not _agrees(command)]
    assert wrong == []
    # the exit is taken for a good share of them, and refused for those naming a destination
    early = sum(names_nowhere(analyze(command)) for command in commands)
    named = sum(bool(destinations(analyze(command))) for command in commands)
    assert early > len(commands) // 4 and named > 100


def test_ordinary_commands_exit_early_and_network_ones_do_not() -> None:
    for command in ("true", "ls -la", "pytest -q 2>&1 | tail -20", "cd src && make"):
        assert names_nowhere(analyze(command)), command
    for command in ("curl example.com", "python3 -m pip install x", "git clone h:r",
                    "cat < /dev/tcp/203.0.113.7/80", "export https_proxy=http://10.0.0.1:3128",
                    "HTTPS_PROXY=http://10.0.0.1 make", "DOCKER_HOST=tcp://h:2375 docker ps",
                    "ls && ssh host", "/usr/bin/wget x", "env all_proxy=socks5://h true"):
        assert not names_nowhere(analyze(command)), command


_PROGRAMS = sorted(_READ_PROGRAMS | {"python3", "python3.12", "pypy", "true", "ls", "make",
                                     "docker", "cat", "echo", "kubectl", "/etc/init.d/ssh"})
_ARGUMENTS = ["http://203.0.113.7/x", "example.com", "203.0.113.7", "203.0.113.7 4242",
              "user@host.example:path", "-h db.example -p 5432", "--endpoint-url http://h/",
              "-connect h.example:443", "s_client -connect h.example:443", "@8.8.8.8 x",
              "//host.example/share", "clone https://h.example/r", "-m pip install -i http://h/ x",
              "TCP:h.example:80 -", "-H tcp://h.example:2375 ps", "$URL", "ftp://h.example/f",
              "-x http://proxy.example:3128 https://a.example", "install --registry http://h/"]
_PREFIXES = ["", "sudo ", "env ", "timeout 5 ", "http_proxy=http://h.example:1 ",
             "FOO=1 ", "nohup ", "bash -c '"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_PREFIXES), st.sampled_from(_PROGRAMS),
       st.lists(st.sampled_from(_ARGUMENTS), max_size=3),
       st.sampled_from(["", " > /dev/tcp/h.example/80", " && ls", " | sh"]))
def test_generated_commands_exit_early_only_without_destinations(
    prefix: str, program: str, arguments: list[str], tail: str
) -> None:
    command = " ".join([prefix + program, *arguments]) + tail
    if prefix.endswith("'"):
        command += "'"
    assert _agrees(command), command

