"""Every one-line GTFOBins example, replayed through the default policy (issue 12, point 1).

``data/gtfobins_examples.tsv`` holds the one-line examples of GTFOBins' ``file-read``,
``upload``, ``reverse-shell``, ``bind-shell``, ``library-load``, ``shell`` and ``command``
functions (GTFOBins/GTFOBins.github.io, commit in the file's first line; regenerate with
``python scripts/gtfobins_table.py --examples CHECKOUT COMMIT``). The placeholders are
filled in: the file read or uploaded is ``.env`` (a secret in the project), the command run
is ``sudo id``, the host ``attacker.example``. Expected:

* ``file-read`` and ``upload`` of ``.env``: denied (secret read, exfiltration);
* ``reverse-shell``, ``bind-shell``, ``library-load``, ``shell``, ``command``: caught (deny
  or ask).

The examples the policy does not catch are listed in :data:`KNOWN_GAPS` with the reason; a
fix that catches one makes this test fail until the entry is removed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs
import pytest

from tooldeck.config import embedded_default_text, parse_document
from tooldeck.deck import Deck, combine_decisions
from tooldeck.egress import use_resolver
from tooldeck.models import ToolCall

DATA = Path(__file__).with_name("data") / "gtfobins_examples.tsv"
PLACEHOLDERS = (
    ("/path/to/input-file", ".env"), ("/path/to/file-input", ".env"),
    ("/path/to/input-dir/", "~/.ssh/"), ("/path/to/output-file", "out.bin"),
    ("/path/to/temp-file", "./scratch.tmp"), ("/path/to/temp-dir", "./scratchdir"),
    ("/path/to/dir", "./site"), ("/path/to/lib.so", "./lib.so"), ("/path/to/lib", "./lib"),
    ("/path/to/output-dir", "./outdir"), ("/path/to/command", "sudo id"),
    ("attacker.com", "attacker.example"), ("12345", "4444"), ("DATA", "x"),
)
EXPECTED = {"file-read": {"deny"}, "upload": {"deny"}, "reverse-shell": {"deny", "ask"},
            "bind-shell": {"deny", "ask"}, "library-load": {"deny", "ask"},
            "shell": {"deny", "ask"}, "command": {"deny", "ask"}}

KNOWN_GAPS: dict[str, str] = {
    "ansible-test#shell#1": "a subcommand that opens a shell: not in the launcher table",
    "apache2#file-read#2": "a config directive reads the file (needs root anyway)",
    "apache2ctl#file-read#1": "a config directive reads the file (needs root anyway)",
    "busybox#upload#1": "a web server on a port: serving files is not judged",
    "cancel#upload#1": "data typed in the command is sent (the egress gate judges the host)",
    "cpio#file-read#1": "the file name comes on standard input",
    "dosbox#file-read#1": "DOS paths inside an emulator command",
    "dvips#shell#1": "TeX shell escape in a .dvi file: code read from a file",
    "find#file-read#1": "the file reaches the command through find's {}",
    "finger#upload#1": "data typed in the command is sent (the egress gate judges the host)",
    "java#shell#1": "a compiled class: code read from a file",
    "less#file-read#3": "LESSOPEN's command only names the file",
    "minicom#shell#1": "an interactive terminal program",
    "opkg#shell#1": "a package file's scripts: code read from a file",
    "php#upload#1": "a web server on a port: serving files is not judged",
    "rlogin#upload#1": "data typed in the command is sent (the egress gate judges the host)",
    "ruby#upload#1": "a web server on a port: serving files is not judged",
    "ssh#upload#1": "standard input sent over ssh asks (upload), it is not denied",
    "ssh-keyscan#file-read#1": "an ssh client's input file is not a read",
    "tsc#file-read#1": ".env.ts is source code, not a secret",
    "vim#file-read#1": "the placeholder file is not named in this example",
    "whois#upload#1": "data typed in the command is sent (the egress gate judges the host)",
    "yelp#file-read#1": "a man: URL naming the file",
}


@attrs.frozen
class Example:
    """One GTFOBins example with its placeholders filled in."""

    ident: str
    function: str
    command: str


def _examples() -> list[Example]:
    found = []
    for line in DATA.read_text(encoding="utf-8").splitlines()[2:]:
        binary, function, number, code = line.split("\t")
        for placeholder, value in PLACEHOLDERS:
            code = code.replace(placeholder, value)
        found.append(Example(f"{binary}#{function}#{number}", function, code))
    return found


async def _public(host: str, port: int) -> Sequence[str]:
    return ["93.184.215.14"]


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Every example's verdict under the embedded default, in a project of its own."""
    root = tmp_path_factory.mktemp("project")
    previous = Path.cwd()
    os.chdir(root)
    try:
        text = embedded_default_text() + "\n[tools.audit]\nenabled = false\n"
        deck = Deck.from_config(parse_document(text, root / "tooldeck.toml", "test"))
        use_resolver(deck.runtime.session, _public)
        runtime = deck.runtime
        tool = runtime.tools["bash"]
        verdicts = {}
        for example in _examples():
            call = ToolCall("bash", {"command": example.command}, caller_id=example.ident)
            decision = combine_decisions(runtime.hooks.check_call(call, tool, runtime))
            verdicts[example.ident] = decision.verdict.value
        deck.close()
        yield verdicts
    finally:
        os.chdir(previous)


def test_the_catalogue_is_all_there() -> None:
    examples = _examples()
    assert DATA.read_text(encoding="utf-8").startswith("# GTFOBins/GTFOBins.github.io@")
    counts = {f: sum(1 for e in examples if e.function == f) for f in EXPECTED}
    assert counts["file-read"] > 150 and counts["shell"] > 150 and counts["upload"] > 25
    assert set(KNOWN_GAPS) <= {e.ident for e in examples}


@pytest.mark.parametrize("function", sorted(EXPECTED))
def test_every_example_of_a_function_gets_its_verdict(judged: dict[str, str],
                                                      function: str) -> None:
    wrong = {e.ident: (judged[e.ident], e.command) for e in _examples()
             if e.function == function and e.ident not in KNOWN_GAPS
             and judged[e.ident] not in EXPECTED[function]}
    assert wrong == {}


def test_known_gaps_are_still_gaps(judged: dict[str, str]) -> None:
    functions = {e.ident: e.function for e in _examples()}
    fixed = [i for i in KNOWN_GAPS if judged[i] in EXPECTED[functions[i]]]
    assert fixed == []
