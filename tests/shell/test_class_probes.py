"""Probe sets per dangerous class, built from public catalogues and manuals (issue 12, policy17).

``data/class_probes.tsv`` holds, for each class the corpora's held-back halves still miss
(launcher, secret_read, obfuscation, write_outside, download_exec, link_escape, exfiltration,
egress_internal, routine_destructive, escalation, interpreter, power), at least 25 commands
written from the catalogues and manuals its ``source`` column names, not from corpus rows:

- GTFOBins' ``file-write`` and ``download`` functions (the file written is ``~/.bashrc``; the
  file downloaded is then run) and benign look-alikes writing a project file;
- every class's base command in the spellings agents and attackers use: quotes and
  backslashes inside the word, ANSI-C escapes, full paths, ``busybox``/``toybox`` applets,
  ``command``/``builtin``/``exec``/``env``/``env -S``, variables holding the program, ``sh -c``,
  here-strings, ``eval``, brace expansion, ``${IFS}``, ``xargs`` fed by ``echo`` (with and
  without ``-I{}``), ``find -exec``, ``watch``;
- PayloadsAllTheThings (command-injection bypasses, SSRF address spellings, exfiltration
  channels), HackTricks/LinPEAS sensitive files, and the manuals of systemd, sysvinit, sudo,
  polkit, git and coreutils.

Expected verdicts: ``deny``/``ask`` rows are dangerous and caught when not allowed; ``allow``
rows are benign look-alikes that must be allowed; ``asked`` rows are benign commands with a
documented ask (``scp`` of a project file, ``dd of=``, ``rm``) that must be exactly asked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs
import pytest

DATA = (Path(__file__).with_name("data") / "class_probes.tsv",
        Path(__file__).with_name("data") / "class_probes_policy18.tsv",
        Path(__file__).with_name("data") / "class_probes_policy19.tsv",
        Path(__file__).with_name("data") / "class_probes_policy20.tsv")
"""The first two rounds (policy17), the third (policy18: Atomic Red Team, Bashfuscator,
launcher, service and destruction manuals), the fourth (policy19: Splunk security_content,
Falco rules, the Neo23x0 auditd rules, tracee's detectors) and the fifth (policy20: GTFOArgs,
LOOBins, osquery's packs)."""
FOURTH_SOURCES = ("Splunk security_content ", "Falco rules/", "auditd audit.rules -k ",
                  "tracee detectors/")
"""Each fourth-round row names the catalogue entry it was written from."""
FIFTH_SOURCES = ("GTFOArgs ", "LOOBins ", "osquery packs/")
"""Each fifth-round row names the catalogue entry it was written from."""
CLASSES = frozenset({
    "launcher", "secret_read", "obfuscation", "write_outside", "download_exec", "link_escape",
    "exfiltration", "egress_internal", "routine_destructive", "escalation", "interpreter",
    "power",
})
MIN_PER_CLASS = 25


@attrs.frozen
class Probe:
    """One probe row: its class, expected verdict, source and command."""

    cls: str
    expected: str
    source: str
    command: str


def _probes() -> list[Probe]:
    probes: list[Probe] = []
    for path in DATA:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines()
                 if line and not line.startswith("#")]
        assert lines[0] == "class\texpected\tsource\tcommand"
        probes.extend(Probe(*line.split("\t")) for line in lines[1:])
    return probes


@pytest.fixture(scope="module")
def judged(default_verdicts: Callable[[Sequence[str]], dict[str, str]]) -> dict[str, str]:
    """Every probe's verdict under the embedded default."""
    return default_verdicts([p.command for p in _probes()])


def test_every_class_has_a_probe_set() -> None:
    probes = _probes()
    counts = Counter(p.cls for p in probes)
    assert set(counts) == CLASSES
    assert min(counts.values()) >= MIN_PER_CLASS
    assert {p.expected for p in probes} == {"deny", "ask", "allow", "asked"}
    assert len({p.command for p in probes}) == len(probes)


def test_fourth_round_rows_name_their_catalogue_entry() -> None:
    lines = [line for line in DATA[2].read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")][1:]
    rows = [Probe(*line.split("\t")) for line in lines]
    assert len(rows) >= 250
    assert [p.command for p in rows if not p.source.startswith(FOURTH_SOURCES)] == []
    assert {p.expected for p in rows} == {"deny", "ask", "allow", "asked"}


def test_fifth_round_rows_name_their_catalogue_entry() -> None:
    lines = [line for line in DATA[3].read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")][1:]
    rows = [Probe(*line.split("\t")) for line in lines]
    assert len(rows) >= 350
    assert [p.command for p in rows if not p.source.startswith(FIFTH_SOURCES)] == []
    assert {p.expected for p in rows} >= {"deny", "ask", "allow"}
    for source in FIFTH_SOURCES:  # every catalogue gives dangerous rows and look-alikes
        assert {p.expected != "allow" for p in rows if p.source.startswith(source)} == {
            True, False}


def test_every_dangerous_probe_is_caught(judged: dict[str, str]) -> None:
    missed = [(p.cls, p.command) for p in _probes()
              if p.expected in ("deny", "ask") and judged[p.command] == "allow"]
    assert missed == []


def test_benign_look_alikes_keep_their_verdict(judged: dict[str, str]) -> None:
    wrong = [(p.command, judged[p.command]) for p in _probes()
             if (p.expected == "allow" and judged[p.command] != "allow")
             or (p.expected == "asked" and judged[p.command] != "ask")]
    assert wrong == []
